// Command selectspawn is a server loop: main selects between requests and
// a tick, and starts a handler goroutine for each request in one case of
// the select. Which case is ready first differs from run to run, so two
// runs take the select's cases in different orders, while each request is
// the same in both: a handler should be compared with the handler of the
// same request in the other run.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

type request struct {
	id   int
	work int
}

// handle does an amount of work that depends on its request, so that a
// handler compared with another request's handler differs.
func handle(req request, results chan<- string, wg *sync.WaitGroup) {
	defer wg.Done()
	sum := 0
	for i := 0; i < req.work; i++ {
		sum += i
	}
	results <- fmt.Sprintf("request %d: %d", req.id, sum)
}

func main() {
	reqs := make(chan request)
	tick := make(chan struct{})
	go func() {
		for id := 1; id <= 6; id++ {
			reqs <- request{id: id, work: 10 * id}
		}
		close(reqs)
	}()
	go func() {
		for range 3 {
			tick <- struct{}{}
		}
		close(tick)
	}()
	results := make(chan string, 6)
	var wg sync.WaitGroup
	ticks := 0
	for reqs != nil || tick != nil {
		select {
		case req, ok := <-reqs:
			if !ok {
				reqs = nil
				continue
			}
			wg.Add(1)
			go handle(req, results, &wg)
		case _, ok := <-tick:
			if !ok {
				tick = nil
				continue
			}
			ticks++
		}
	}
	wg.Wait()
	close(results)
	n := 0
	for range results {
		n++
	}
	fmt.Println("handled", n, "ticks", ticks)
}
