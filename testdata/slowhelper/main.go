// Command slowhelper: a fork-join pool whose worker 2 takes a slow path
// inside process, a helper with no change point that records nothing:
// main's wg.Wait waits for that loop (lines 20 and 21), not for the call.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

// process is slow for worker 2.
func process(id, j int) int {
	s := 0
	n := 1000
	if id == 2 {
		n = 3_000_000
	}
	for i := 0; i < n; i++ {
		s += i % 7 * j
	}
	return s
}

func main() {
	results := make([]int, 4)
	for round := 0; round < 10; round++ {
		var wg sync.WaitGroup
		for id := 0; id < 4; id++ {
			wg.Add(1)
			go func(id int) {
				defer wg.Done()
				for j := 0; j < 10; j++ {
					results[id] += process(id, j)
				}
			}(id)
		}
		wg.Wait()
	}
	fmt.Println(results)
}
