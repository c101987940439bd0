// Command wtprog runs the waiting-time scenarios of waittime's tests as a
// real program with controlled durations (each a sleep in a function of its
// own, so that each has a block and a line): the expansion example of
// "Expanding waiting time", the barrier of "Merging equivalent paths", a
// fork-join with an occasional slow worker, a pipeline with a slow stage and
// a lock with one long critical section.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
	"time"
)

const ms = time.Millisecond

func main() {
	fig4()
	barrierLoop()
	forkJoin()
	pipeline()
	lockContention()
	fmt.Println("done")
}

// fig4: a releases b, b releases c, c releases a.
func fig4() {
	ch1, ch2, ch3 := make(chan int), make(chan int), make(chan int)
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		a1()
		ch1 <- 1
		a2()
		<-ch3
	}()
	go func() {
		defer wg.Done()
		b1()
		<-ch1
		b3()
		ch2 <- 1
	}()
	go func() {
		defer wg.Done()
		c1()
		<-ch2
		c3()
		ch3 <- 1
	}()
	wg.Wait()
}

func a1() { time.Sleep(100 * ms) }
func a2() { time.Sleep(30 * ms) }
func b1() { time.Sleep(40 * ms) }
func b3() { time.Sleep(50 * ms) }
func c1() { time.Sleep(30 * ms) }
func c3() { time.Sleep(50 * ms) }

// barrier is a reusable barrier for n goroutines.
type barrier struct {
	mu    sync.Mutex
	c     *sync.Cond
	n     int
	count int
	gen   int
}

func newBarrier(n int) *barrier {
	b := &barrier{n: n}
	b.c = sync.NewCond(&b.mu)
	return b
}

func (b *barrier) wait() {
	b.mu.Lock()
	gen := b.gen
	b.count++
	if b.count == b.n {
		b.count = 0
		b.gen++
		b.c.Broadcast()
	} else {
		for gen == b.gen {
			b.c.Wait()
		}
	}
	b.mu.Unlock()
}

// barrierLoop: four workers meet at a barrier 20 times; worker 0 runs the
// long loop, the others the short one.
func barrierLoop() {
	b := newBarrier(4)
	var wg sync.WaitGroup
	for id := 0; id < 4; id++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				loop6()
				if id == 0 {
					loop10()
				} else {
					loop8()
				}
				b.wait()
			}
		}(id)
	}
	wg.Wait()
}

func loop6()  { time.Sleep(2 * ms) }
func loop8()  { time.Sleep(1 * ms) }
func loop10() { time.Sleep(8 * ms) }

// forkJoin: each round main starts three workers and does a share itself;
// every fourth round worker 2 also runs the slow block.
func forkJoin() {
	for round := 0; round < 20; round++ {
		var wg sync.WaitGroup
		for id := 0; id < 3; id++ {
			wg.Add(1)
			go func(id int) {
				defer wg.Done()
				work()
				if id == 2 && round%4 == 0 {
					slow()
				}
			}(id)
		}
		work()
		wg.Wait()
	}
}

func work() { time.Sleep(2 * ms) }
func slow() { time.Sleep(10 * ms) }

// pipeline: produce (1 ms) → square (5 ms) → consume (1 ms), unbuffered.
func pipeline() {
	in, out := make(chan int), make(chan int)
	done := make(chan struct{})
	go func() {
		for i := 0; i < 15; i++ {
			produce()
			in <- i
		}
		close(in)
	}()
	go func() {
		for v := range in {
			square()
			out <- v * v
		}
		close(out)
	}()
	go func() {
		for range out {
			consume()
		}
		close(done)
	}()
	<-done
}

func produce() { time.Sleep(1 * ms) }
func square()  { time.Sleep(5 * ms) }
func consume() { time.Sleep(1 * ms) }

// lockContention: four workers take a mutex eight times; worker 0 holds it
// for 15 ms, the others for a few microseconds of computation.
func lockContention() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for id := 0; id < 4; id++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			for i := 0; i < 8; i++ {
				mu.Lock()
				if id == 0 {
					longSection()
				} else {
					shortSection()
				}
				mu.Unlock()
				outside()
			}
		}(id)
	}
	wg.Wait()
}

var counter int

func longSection() { time.Sleep(15 * ms) }

func shortSection() {
	for i := 0; i < 1000; i++ {
		counter += i & 3
	}
}

func outside() { time.Sleep(2 * ms) }
