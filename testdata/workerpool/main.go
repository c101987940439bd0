// Command workerpool is a worker pool in the shape of the classic Go
// example: jobs go to a buffered channel, a fixed number of workers take
// them and send results to another, and main collects the results. Which
// worker takes how many jobs, and what each worker then does with the
// running totals it reads under a lock, is the schedule's choice.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

const (
	workers = 4
	jobs    = 40
)

type stats struct {
	mu    sync.Mutex
	total int
	heavy int
}

func work(n int) int {
	x := n
	for i := 0; i < 2000; i++ {
		x = (x*31 + i) % 1000003
	}
	return x
}

func worker(id int, jobs <-chan int, results chan<- int, st *stats) {
	for j := range jobs {
		r := work(j)
		st.mu.Lock()
		st.total += r
		if st.total%5 == 0 { // depends on which jobs were added before
			st.heavy++
			r += work(r)
		}
		st.mu.Unlock()
		results <- r
	}
}

func main() {
	jobCh := make(chan int, jobs)
	results := make(chan int, jobs)
	st := &stats{}
	for w := 1; w <= workers; w++ {
		go worker(w, jobCh, results, st)
	}
	for j := 1; j <= jobs; j++ {
		jobCh <- j
	}
	close(jobCh)
	n := 0
	for a := 1; a <= jobs; a++ {
		<-results
		n++
	}
	fmt.Println("results:", n)
}
