// Command releasers is written for the releaser rules (docs/FORMAT.md,
// "Sync events and releasers"): a buffered channel fed in bursts by a
// ticker, a select-based pipeline behind it, and a Cond that lets waiters
// through one Signal at a time. The end-to-end tests require every wait's
// releaser to be the operation that really ended it, checked against Go's
// execution tracer.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
	"time"
)

const (
	bursts = 4
	burst  = 3
	period = 15 * time.Millisecond
)

// feed sends a burst of values at every tick, each through a select that
// also watches quit; the first value of a burst is sent on its own line.
func feed(jobs chan<- int, quit <-chan struct{}) {
	tk := time.NewTicker(period)
	defer tk.Stop()
	n := 0
	for range bursts {
		<-tk.C
		select {
		case jobs <- n:
		case <-quit:
			return
		}
		n++
		for range burst - 1 {
			select {
			case jobs <- n:
			case <-quit:
				return
			}
			n++
		}
	}
	close(jobs)
}

// consume works a millisecond on each value: it empties a burst long
// before the next tick, so its first receive of every burst waits for the
// feeder's first send of that burst.
func consume(jobs <-chan int, out chan<- int) {
	for {
		v, ok := <-jobs
		if !ok {
			break
		}
		time.Sleep(time.Millisecond)
		out <- v
	}
	close(out)
}

// square passes on the squares of what it receives, both sides through
// selects with quit.
func square(in <-chan int, out chan<- int, quit <-chan struct{}) {
	for {
		var v int
		var ok bool
		select {
		case v, ok = <-in:
		case <-quit:
			return
		}
		if !ok {
			close(out)
			return
		}
		select {
		case out <- v * v:
		case <-quit:
			return
		}
	}
}

// gate lets three waiters through a Cond one Signal at a time.
func gate() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	open := 0
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			for open == 0 {
				c.Wait()
			}
			open--
			mu.Unlock()
		}()
	}
	for range 3 {
		time.Sleep(2 * time.Millisecond)
		mu.Lock()
		open++
		c.Signal()
		mu.Unlock()
	}
	wg.Wait()
}

func main() {
	jobs := make(chan int, 8)
	quit := make(chan struct{})
	mid := make(chan int)
	sq := make(chan int)
	go feed(jobs, quit)
	go consume(jobs, mid)
	go square(mid, sq, quit)
	total := 0
	timeout := time.After(10 * time.Second)
	done := false
	for !done {
		select {
		case v, ok := <-sq:
			if !ok {
				done = true
				break
			}
			total += v
		case <-timeout:
			fmt.Println("timeout")
			close(quit)
			return
		}
	}
	fmt.Println("total", total)
	gate()
}
