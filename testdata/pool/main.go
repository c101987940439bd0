// Command pool is a worker pool: four workers take jobs from a channel and
// send results back; main adds them up. End-to-end tests check that 4
// workers were spawned under main and that exactly 20 jobs were received.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

const (
	workers = 4
	jobs    = 20
)

func square(n int) int {
	if n%2 == 0 {
		return n * n
	}
	return -n * n
}

func worker(id int, in <-chan int, out chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		n, ok := <-in
		if !ok {
			return
		}
		out <- square(n)
	}
}

func main() {
	in := make(chan int)
	out := make(chan int, jobs)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go worker(i, in, out, &wg)
	}
	for j := 1; j <= jobs; j++ {
		in <- j
	}
	close(in)
	wg.Wait()
	close(out)
	sum := 0
	for k := 0; k < jobs; k++ {
		sum += <-out
	}
	fmt.Println("sum", sum)
}
