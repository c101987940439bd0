// Package counter is a library with tests and no main: the end-to-end
// tests record its tests (subtests, t.Parallel, an external test package)
// and check that run and check refuse it in one line.
package counter

import "sync"

// Count adds n goroutines' increments of one under a mutex.
func Count(n int) int {
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		total int
	)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			total++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}
