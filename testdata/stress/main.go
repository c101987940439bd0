// Command stress starts 10,000 goroutines with known work: goroutine i
// (spawned i-th, from 0) runs its loop i%7+1 times and sends its count to
// main, which waits for all of them to finish. End-to-end tests check that
// no goroutine and no block execution is lost.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

const goroutines = 10000

func work(i int, out chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	n := 0
	for k := 0; k < i%7+1; k++ {
		n++
	}
	out <- n
}

func main() {
	out := make(chan int, 64)
	var wg sync.WaitGroup
	wg.Add(goroutines)
	for i := 0; i < goroutines; i++ {
		go work(i, out, &wg)
	}
	total := 0
	for i := 0; i < goroutines; i++ {
		total += <-out
	}
	wg.Wait()
	fmt.Println("total", total)
}
