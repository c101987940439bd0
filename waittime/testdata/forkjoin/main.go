// Command forkjoin starts three workers of different lengths and waits for
// them: one sync site, one class, whose lines the text report and the pprof
// profile must list alike.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	results := make([]int, 3)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = work(2_000_000 * (i + 1))
		}()
	}
	wg.Wait()
	fmt.Println(results[0] + results[1] + results[2])
}

// work computes for a time proportional to n.
func work(n int) int {
	s := 0
	for i := range n {
		s += i ^ s>>3
	}
	return s
}
