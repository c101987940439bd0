// Command cpuloop is a branch-heavy CPU loop for measuring the cost of
// block probes: a Collatz walk over many starting points, with the work
// split between two goroutines that add to a shared total under a mutex.
package main

//go:generate divergo instrument ./...

import (
	"flag"
	"fmt"
	"sync"
)

func steps(n uint64) int {
	s := 0
	for n != 1 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		s++
	}
	return s
}

func main() {
	limit := flag.Uint64("n", 300000, "starting points")
	flag.Parse()
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for part := uint64(0); part < 2; part++ {
		wg.Add(1)
		go func(part uint64) {
			defer wg.Done()
			sum := 0
			for n := 1 + part; n <= *limit; n += 2 {
				sum += steps(n)
			}
			mu.Lock()
			total += sum
			mu.Unlock()
		}(part)
	}
	wg.Wait()
	fmt.Println("steps", total)
}
