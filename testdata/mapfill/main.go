// Command mapfill ranges over a map while another goroutine fills it: how
// many entries main sees depends on how far the filler got when main took
// the lock, so two runs can differ in the number of iterations of main's
// range, not only in their order.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

var (
	mu sync.Mutex
	m  = map[int]int{}
)

func fill(done chan<- struct{}) {
	for i := 1; i <= 4; i++ {
		mu.Lock()
		m[i] = i * i
		mu.Unlock()
	}
	close(done)
}

func main() {
	done := make(chan struct{})
	go fill(done)
	mu.Lock()
	seen, sum := 0, 0
	for _, v := range m {
		seen++
		sum += v
	}
	mu.Unlock()
	<-done
	fmt.Println("seen", seen, "sum", sum)
}
