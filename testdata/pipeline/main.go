// Command pipeline is a three-stage pipeline: a generator, a squarer, and a
// sink that selects between results and a quit signal. End-to-end tests
// check the stages' spawn tree, the 10 values that pass each stage, and
// that every select chose a case.
package main

//go:generate divergo instrument ./...

import "fmt"

const count = 10

func gen(out chan<- int) {
	for i := 0; i < count; i++ {
		out <- i
	}
	close(out)
}

func sq(in <-chan int, out chan<- int) {
	for {
		v, ok := <-in
		if !ok {
			break
		}
		out <- v * v
	}
	close(out)
}

func sink(in <-chan int, quit <-chan struct{}, done chan<- int) {
	total := 0
	for {
		select {
		case v, ok := <-in:
			if !ok {
				done <- total
				return
			}
			total += v
		case <-quit:
			done <- -1
			return
		}
	}
}

func main() {
	a := make(chan int)
	b := make(chan int)
	done := make(chan int)
	quit := make(chan struct{})
	go gen(a)
	go sq(a, b)
	go sink(b, quit, done)
	fmt.Println("total", <-done)
}
