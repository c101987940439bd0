// Command once races two workers on a sync.Once: whichever reaches Do first
// builds the table, the other finds it built (or waits while it is being
// built), and both then sum it. Which worker builds it is the schedule's
// choice, so two runs can part at the Do; they meet again just after it.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

var (
	once    sync.Once
	table   []int
	builder int // the worker that built the table
)

// build fills the table: the work only one worker does.
func build(w int) {
	builder = w
	for i := 1; i <= 3; i++ {
		table = append(table, i*i)
	}
}

// sum is a function of its own so that no loop head follows the call in
// worker's block: a reader puts a loop head back right after the block
// before it, and would hand it the call's events (the e2e tests disable the
// once kind and expect the hole at worker's block, not a loop divergence).
func sum(t []int) int {
	s := 0
	for _, v := range t {
		s += v
	}
	return s
}

func worker(w int, sums []int, wg *sync.WaitGroup) {
	defer wg.Done()
	once.Do(func() { build(w) })
	sums[w] = sum(table)
}

func main() {
	var wg sync.WaitGroup
	sums := make([]int, 2)
	wg.Add(2)
	go worker(0, sums, &wg)
	go worker(1, sums, &wg)
	wg.Wait()
	fmt.Println("built by worker", builder, "sums", sums[0], sums[1])
}
