package hang

import (
	"runtime"
	"sync"
	"testing"
)

// TestLimiterWorkers hangs in wg.Wait until -test.timeout when, in one of
// its rounds, the second worker misses the first one's wakeup: it found
// no place, let the lock go, and the first worker's Release came before
// its receive.
func TestLimiterWorkers(t *testing.T) {
	for range 8 {
		l := NewLimiter(1)
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l.Acquire()
				runtime.Gosched()
				l.Release()
			}()
		}
		wg.Wait()
	}
}
