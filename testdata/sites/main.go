// Command sites has sync operations and go statements on later lines of
// their blocks, so that a report naming a block's first line instead of
// the statement's own is caught: a sleep and a send after other
// statements of one block, wg.Go on three lines, and a go statement and a
// lock after other statements of one block. The waits are made certain by
// sleeps of different lengths (45, 30 and 20 ms), so that every run waits
// at the same statements, in the same order of waiting time.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
	"time"
)

// worker sleeps, then sends: one block, the sleep and the send on its
// second and third lines.
func worker(ch chan<- int) {
	n := 7
	time.Sleep(30 * time.Millisecond)
	ch <- n
}

// holder takes mu, says so, holds it for a while and lets it go.
func holder(mu *sync.Mutex, held chan<- bool) {
	mu.Lock()
	held <- true
	time.Sleep(20 * time.Millisecond)
	mu.Unlock()
}

func main() {
	ch := make(chan int)
	go worker(ch)
	fmt.Println("received", <-ch)

	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	add := func(n int, d time.Duration) { time.Sleep(d); mu.Lock(); total += n; mu.Unlock() }
	wg.Go(func() { add(1, 1*time.Millisecond) })
	wg.Go(func() { add(2, 2*time.Millisecond) })
	wg.Go(func() { add(3, 45*time.Millisecond) })
	wg.Wait()
	fmt.Println("total", total)

	held := make(chan bool)
	other := 0
	go holder(&mu, held)
	<-held
	other++
	mu.Lock()
	other++
	mu.Unlock()
	fmt.Println("other", other)
}
