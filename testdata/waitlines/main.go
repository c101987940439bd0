// Command waitlines waits at statements of many shapes: selects of one
// case, a deferred Wait, a range over a channel whose expression takes two
// lines, operations whose operands take two lines, a lock through a
// sync.Locker and through an embedded mutex, a Cond, a read lock, a
// Once.Do, a receive in a generic function and in a deferred closure; and
// three of the shapes again in goroutines left blocked when main returns.
// The releaser of every wait sleeps first, so that the waiter parks and Go's
// execution tracer sees where: the end-to-end agreement test compares the
// line divergo names each wait at with the statement the tracer saw the
// waiter block at. Releases are calls, not method values (later(mu.Unlock)),
// which the instrumenter does not record (docs/INSTRUMENT.md).
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
	"time"
)

// nap is how long a releaser sleeps before it releases.
const nap = 2 * time.Millisecond

// later runs f on a goroutine of its own after a nap.
func later(f func()) {
	go func() {
		time.Sleep(nap)
		f()
	}()
}

// oneCase waits in selects of one case: the compiler makes each a plain
// channel operation at the case's line.
func oneCase() int {
	ch := make(chan int)
	later(func() { ch <- 1 })
	n := 0
	select {
	case v := <-ch:
		n += v
	}
	res := make(chan int, 1)
	later(func() { res <- <-ch })
	select {
	case ch <- 2:
	}
	return n + <-res
}

// deferredWait waits for its helper when it returns, at its end or at a
// return.
func deferredWait(early bool) {
	var wg sync.WaitGroup
	wg.Add(1)
	later(func() { wg.Done() })
	defer wg.Wait()
	if early {
		fmt.Println("deferred wait, early return")
		return
	}
	fmt.Println("deferred wait")
}

// pick returns a channel that yields a and b, after a nap each.
func pick(a, b int) <-chan int {
	ch := make(chan int)
	go func() {
		for _, v := range []int{a, b} {
			time.Sleep(nap)
			ch <- v
		}
		close(ch)
	}()
	return ch
}

// twoLines waits at operations whose operands take two lines.
func twoLines() int {
	n := 0
	for v := range pick(
		3, 4) {
		n += v
	}
	ch := make(chan int)
	res := make(chan int, 1)
	later(func() { res <- <-ch })
	ch <- n +
		5
	n += <-res
	later(func() { ch <- 6 })
	fmt.Println("two lines",
		<-ch)
	return n
}

// counter is a mutex embedded in a struct.
type counter struct {
	sync.Mutex
	n int
}

// locks waits for a lock through a sync.Locker, an embedded mutex, a read
// lock and a Cond.
func locks() {
	var mu sync.Mutex
	var l sync.Locker = &mu
	mu.Lock()
	later(func() { mu.Unlock() })
	l.Lock()
	l.Unlock()

	var c counter
	c.Lock()
	later(func() { c.Unlock() })
	c.Lock()
	c.n++
	c.Unlock()

	var rw sync.RWMutex
	rw.Lock()
	later(func() { rw.Unlock() })
	rw.RLock()
	rw.RUnlock()

	cond := sync.NewCond(&mu)
	ready := false
	later(func() {
		mu.Lock()
		ready = true
		mu.Unlock()
		cond.Signal()
	})
	mu.Lock()
	for !ready {
		cond.Wait()
	}
	mu.Unlock()
	fmt.Println("locks", c.n)
}

// once waits in Once.Do for the goroutine that runs its function.
func once() {
	var o sync.Once
	started := make(chan bool)
	done := make(chan bool)
	go func() {
		o.Do(func() {
			started <- true
			time.Sleep(nap)
			done <- true
		})
	}()
	<-started
	later(func() { <-done })
	o.Do(func() {})
	fmt.Println("once")
}

// first receives from c, in a generic function.
func first[T any](c <-chan T) T {
	return <-c
}

// next returns c, for a select case whose channel is a call.
func next(c chan string) chan string { return c }

// others waits in a generic function, in a select of two cases over
// several lines whose channel is a call, and in a deferred closure.
func others() {
	ch := make(chan string)
	later(func() { ch <- "generic" })
	fmt.Println(first(ch))

	quit := make(chan bool)
	later(func() { ch <- "select" })
	select {
	case s := <-next(ch):
		fmt.Println(s)
	case <-quit:
	}

	done := make(chan bool)
	later(func() { close(done) })
	defer func() {
		<-done
		fmt.Println("deferred closure")
	}()
}

// as returns c, for a range over a call.
func as(c <-chan int) <-chan int { return c }

// leak leaves three goroutines blocked for ever when main returns, in a
// select of one case, a deferred Wait and a range over two lines: divergo
// lists them as blocked at their statements.
func leak() {
	never := make(chan int)
	go func() {
		select {
		case <-never:
		}
	}()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Wait()
		fmt.Println("leaks a deferred wait")
	}()
	go func() {
		for v := range as(
			never) {
			fmt.Println(v)
		}
	}()
	time.Sleep(5 * nap) // they block
}

func main() {
	fmt.Println("one case", oneCase())
	deferredWait(false)
	deferredWait(true)
	fmt.Println("sum", twoLines())
	locks()
	once()
	others()
	leak()
}
