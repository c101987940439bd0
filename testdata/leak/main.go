// Command leak returns from main while three goroutines are blocked for
// ever, the commonest goroutine leaks: a worker sending its result on an
// unbuffered channel nobody reads any more, one waiting for a mutex main
// never unlocks, and one waiting on a WaitGroup nobody marks done.
// End-to-end tests check that divergo wait and show name each blocked
// statement and the lines that could have released it.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

func main() {
	results := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup

	go compute(results)
	mu.Lock()
	go update(&mu)
	wg.Add(1)
	go await(&wg)

	untilBlocked(3)
	fmt.Println("main returns")
}

// compute's caller gave up waiting: its send blocks for ever.
func compute(out chan<- int) {
	out <- 6 * 7
}

// update waits for the lock main took and never gave back.
func update(mu *sync.Mutex) {
	mu.Lock()
	defer mu.Unlock()
}

// await waits for a Done that never comes.
func await(wg *sync.WaitGroup) {
	wg.Wait()
}
