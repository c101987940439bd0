// Command ratelimitburst is the bursty limiter of Go by Example's rate
// limiting: a buffered channel holds up to three tokens, filled at once
// and then by a goroutine that moves one tick of a time.Ticker into it for
// every further request; requests run in goroutines of their own, each
// taking a token before it is served. Which request gets which token is the
// schedule's, but each does the same with it: two unperturbed runs take the
// same paths (e2e TestSamePathsShapes).
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
	"time"
)

const (
	burst    = 3
	requests = 8
)

func main() {
	tokens := make(chan time.Time, burst)
	for range burst {
		tokens <- time.Now()
	}
	tick := time.NewTicker(time.Millisecond)
	go func() {
		defer tick.Stop()
		for range requests - burst {
			tokens <- <-tick.C
		}
	}()
	served := make([]bool, requests)
	var wg sync.WaitGroup
	for req := range requests {
		wg.Add(1)
		go func(req int) {
			defer wg.Done()
			<-tokens
			served[req] = true
		}(req)
	}
	wg.Wait()
	n := 0
	for _, ok := range served {
		if ok {
			n++
		}
	}
	fmt.Println("served", n)
}
