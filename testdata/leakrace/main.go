// Command leakrace is the most common goroutine leak in Go, in the shape
// of the timeout examples of the Go blog and of leaks found in large Go
// projects: each request starts a worker that sends its result on an
// unbuffered channel, and the caller gives up after a deadline. When the
// deadline wins, nobody ever receives, and the worker stays blocked on its
// send for ever. Which requests time out is the schedule's choice, so in
// one run a worker leaks where in another it delivered.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"time"
)

func compute(n int) int {
	x := n
	for i := 0; i < 20000; i++ {
		x = (x*31 + i) % 1000003
	}
	return x
}

// request asks a worker for compute(n) and waits at most d.
func request(n int, d time.Duration) (int, bool) {
	res := make(chan int) // unbuffered: the worker blocks until someone receives
	go func() {
		res <- compute(n)
	}()
	select {
	case v := <-res:
		return v, true
	case <-time.After(d):
		return 0, false
	}
}

func main() {
	ok := 0
	for i := 0; i < 8; i++ {
		if _, done := request(i, 40*time.Microsecond); done {
			ok++
		}
	}
	fmt.Println("requests answered:", ok > -1)
}
