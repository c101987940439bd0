// Command contention has eight goroutines increment a shared counter under
// one mutex, 50 times each. End-to-end tests check 400 lock and unlock
// events, and that every lock that waited was released by another
// goroutine.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

const (
	goroutines = 8
	rounds     = 50
)

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) inc(work int) {
	c.mu.Lock()
	for i := 0; i < work; i++ {
		c.n += i & 1
	}
	c.mu.Unlock()
}

func main() {
	var c counter
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				c.inc(100 + g)
			}
		}(g)
	}
	wg.Wait()
	fmt.Println("n", c.n)
}
