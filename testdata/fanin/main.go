// Command fanin is a pipeline with fan-out and fan-in, in the shape of the
// Go blog's pipelines article: a generator, three squarers reading from one
// channel, and a merge that forwards their outputs into one channel with a
// goroutine per input. Which squarer takes which number, and the order the
// sink sees the squares in, is the schedule's: two runs part at the
// squarers' loops (how many numbers each took) and at the sink's branch on
// each value, in many places.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

const count = 60

func gen(n int) <-chan int {
	out := make(chan int)
	go func() {
		for i := 1; i <= n; i++ {
			out <- i
		}
		close(out)
	}()
	return out
}

func sq(in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		for v := range in {
			out <- v * v
		}
		close(out)
	}()
	return out
}

func merge(cs ...<-chan int) <-chan int {
	var wg sync.WaitGroup
	out := make(chan int)
	for _, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range c {
				out <- v
			}
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func main() {
	in := gen(count)
	c1, c2, c3 := sq(in), sq(in), sq(in)
	sum, rising, last := 0, 0, 0
	for v := range merge(c1, c2, c3) {
		sum += v
		if v > last { // the order the squares arrive in is the schedule's
			rising++
		}
		last = v
	}
	fmt.Println("sum", sum)
}
