// Command oncevalue races two workers on a function made by
// sync.OnceValue: whichever calls it first builds the table, the other gets
// the table built (or waits while it is being built), and both then sum it.
// As with Once.Do, which worker builds it is the schedule's choice.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

var table = sync.OnceValue(build)

// build makes the table: the work only one worker does.
func build() []int {
	t := make([]int, 0, 3)
	for i := 1; i <= 3; i++ {
		t = append(t, i*i)
	}
	return t
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
	t := table()
	sums[w] = sum(t)
}

func main() {
	var wg sync.WaitGroup
	sums := make([]int, 2)
	wg.Add(2)
	go worker(0, sums, &wg)
	go worker(1, sums, &wg)
	wg.Wait()
	fmt.Println("sums", sums[0], sums[1])
}
