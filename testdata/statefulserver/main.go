// Command statefulserver is a stateful goroutine in the shape of the
// classic Go example: one goroutine owns a map and serves reads and writes
// sent to it over channels, many reader and writer goroutines send it
// requests, and a monitor asks for snapshots that range over the map. Which
// request the owner serves next, and so what the readers see and the order
// the snapshots visit, is the schedule's choice: two runs part at the
// owner's select, at the readers' branches on what they read, and at every
// range over the map, many times over.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

type readOp struct {
	key  int
	resp chan int
}

type writeOp struct {
	key, val int
	resp     chan bool
}

type snapOp struct {
	resp chan int
}

const (
	readers = 8
	writers = 4
	rounds  = 40
	keys    = 12
)

// owner serves requests until done is closed.
func owner(reads chan readOp, writes chan writeOp, snaps chan snapOp, done chan struct{}) {
	state := map[int]int{}
	for {
		select {
		case r := <-reads:
			r.resp <- state[r.key]
		case w := <-writes:
			state[w.key] += w.val
			w.resp <- true
		case s := <-snaps:
			sum := 0
			for k, v := range state {
				sum += k * v
			}
			s.resp <- sum
		case <-done:
			return
		}
	}
}

func reader(id int, reads chan readOp, hits *int, mu *sync.Mutex) {
	for i := 0; i < rounds; i++ {
		r := readOp{key: (id + i) % keys, resp: make(chan int)}
		reads <- r
		if v := <-r.resp; v > 0 {
			mu.Lock()
			*hits++
			mu.Unlock()
		}
	}
}

func writer(id int, writes chan writeOp) {
	for i := 0; i < rounds; i++ {
		w := writeOp{key: (id * i) % keys, val: 1, resp: make(chan bool)}
		writes <- w
		<-w.resp
	}
}

func main() {
	reads, writes, snaps := make(chan readOp), make(chan writeOp), make(chan snapOp)
	done := make(chan struct{})
	go owner(reads, writes, snaps, done)

	var wg sync.WaitGroup
	var mu sync.Mutex
	hits := 0
	for i := 0; i < readers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reader(i, reads, &hits, &mu)
		}()
	}
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			writer(i, writes)
		}()
	}
	snapshots := 0
	for i := 0; i < 10; i++ {
		s := snapOp{resp: make(chan int)}
		snaps <- s
		if <-s.resp > 0 {
			snapshots++
		}
	}
	wg.Wait()
	close(done)
	fmt.Println("reads done:", readers*rounds, "writes done:", writers*rounds)
}
