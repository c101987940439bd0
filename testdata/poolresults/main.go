// Command poolresults is a worker pool in the shape of the usual examples:
// a fixed number of workers, jobs handed out on a channel, results sent
// back on another and summed by main, which then waits for the workers to
// return. Each worker has a channel of its
// own and is given the jobs w, w+workers, ..., so what each worker does is
// decided by its index, not by who is first to a shared channel: two
// unperturbed runs take the same paths (e2e TestSamePathsShapes).
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

const (
	workers = 3
	jobs    = 12
)

type result struct{ job, value int }

func work(n int) int {
	if n%2 == 0 {
		return n * n
	}
	return n + 1
}

func worker(in <-chan int, out chan<- result, wg *sync.WaitGroup) {
	defer wg.Done()
	for n := range in {
		out <- result{n, work(n)}
	}
}

func main() {
	out := make(chan result)
	var wg sync.WaitGroup
	for w := range workers {
		in := make(chan int, jobs/workers)
		for n := w; n < jobs; n += workers {
			in <- n
		}
		close(in)
		wg.Add(1)
		go worker(in, out, &wg)
	}
	sum := 0
	for range jobs {
		r := <-out
		sum += r.value
	}
	wg.Wait()
	fmt.Println("sum", sum)
}
