// Command spawncount starts goroutines from the cases of a select in a
// loop and gives each the loop counter. Both channels are always ready, so
// the select picks its case at random: which iterations start a goroutine
// of each go statement differs from run to run. Goroutines are matched by
// count (the k-th of a go statement with the other run's k-th), so the
// k-th goroutine gets another counter in another run, and the branch on it
// can go the other way: a change point, clean as the counter is in its own
// iteration.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

type sum struct {
	mu    sync.Mutex
	total int
}

// add is started by a go statement as a named function.
func (s *sum) add(wg *sync.WaitGroup, n int) {
	defer wg.Done()
	v := 1
	if n%2 == 0 {
		v = n
	}
	s.mu.Lock()
	s.total += v
	s.mu.Unlock()
}

func main() {
	a := make(chan struct{}, 20)
	b := make(chan struct{}, 20)
	for range 20 {
		a <- struct{}{}
		b <- struct{}{}
	}
	var wg sync.WaitGroup
	var s sum
	for i := 0; i < 20; i++ {
		wg.Add(1)
		select {
		case <-a:
			go func(n int) {
				defer wg.Done()
				v := 1
				if n%3 == 0 {
					v = n
				}
				s.mu.Lock()
				s.total += v
				s.mu.Unlock()
			}(i)
		case <-b:
			go s.add(&wg, i)
		}
	}
	wg.Wait()
	fmt.Println("total", s.total)
}
