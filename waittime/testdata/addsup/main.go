// Command addsup runs the programs on which waiting-time explanations did
// not add up to the waiting time (issue 12, "Explanations that do not add
// up"): a child's wait that ends before its parent's next timestamp, and a
// waiter released by a goroutine that uninstrumented code started.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	fmt.Println(spawnOrder(), afterFunc(), mutexes(), spinner(spin))
}

// spinner uses spin as a value (see spin).
func spinner(f func(int) int) int { return f(1) }

// spin computes for a while without synchronizing: the parent's time
// between two go statements. It is handed over as a value (spinner) so
// that it stays recorded: called only, it would be silent (no change
// point, nothing that records), its 3 ms would have no event at all, and
// the wait it explains would be left mostly unexplained.
func spin(n int) int {
	s := 0
	for i := range n {
		s += i ^ s>>3
	}
	return s
}

// spawnOrder: a waits for b, started after main's computation; main waits
// for a. Main's path between the two go statements is what a waited for.
func spawnOrder() int {
	ready, done := make(chan int), make(chan int)
	go func() {
		v := <-ready
		done <- v
	}()
	x := spin(3_000_000)
	go func() {
		ready <- 1
	}()
	return x + <-done
}

// afterFunc: main waits for a goroutine that time.AfterFunc starts, which
// computes before it releases main.
func afterFunc() int {
	done := make(chan int)
	time.AfterFunc(20*time.Millisecond, func() {
		done <- spin(1_000_000)
	})
	return <-done
}

// mutexes: four goroutines take one mutex many times, with a little work
// inside (the mutex-heavy program of the perturbation measurements).
func mutexes() int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2000 {
				mu.Lock()
				n += spin(50)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return n
}
