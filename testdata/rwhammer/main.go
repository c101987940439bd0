// Command rwhammer hammers a sync.RWMutex with two writers and ten
// readers, in the shape of the standard library's HammerRWMutex test
// (src/sync/rwmutex_test.go): readers wait for a writer while other
// readers take and free the read lock, so that many read unlocks come
// between a writer's unlock and the wake of the reader it freed. The
// readers and writers check the lock's invariant on a shared counter.
package main

//go:generate divergo instrument ./...

import (
	"flag"
	"fmt"
	"sync"
	"sync/atomic"
)

func reader(rw *sync.RWMutex, n int, active *int32, done chan<- bool) {
	for i := 0; i < n; i++ {
		rw.RLock()
		if a := atomic.AddInt32(active, 1); a < 1 || a >= 10000 {
			panic(fmt.Sprintf("reader saw %d", a))
		}
		for j := 0; j < 100; j++ {
		}
		atomic.AddInt32(active, -1)
		rw.RUnlock()
	}
	done <- true
}

func writer(rw *sync.RWMutex, n int, active *int32, done chan<- bool) {
	for i := 0; i < n; i++ {
		rw.Lock()
		if a := atomic.AddInt32(active, 10000); a != 10000 {
			panic(fmt.Sprintf("writer saw %d", a))
		}
		for j := 0; j < 100; j++ {
		}
		atomic.AddInt32(active, -10000)
		rw.Unlock()
	}
	done <- true
}

func main() {
	n := flag.Int("n", 200, "iterations per goroutine")
	readers := flag.Int("readers", 10, "readers")
	flag.Parse()
	var rw sync.RWMutex
	var active int32
	done := make(chan bool)
	go writer(&rw, *n, &active, done)
	for i := 0; i < *readers/2; i++ {
		go reader(&rw, *n, &active, done)
	}
	go writer(&rw, *n, &active, done)
	for i := *readers / 2; i < *readers; i++ {
		go reader(&rw, *n, &active, done)
	}
	for i := 0; i < 2+*readers; i++ {
		<-done
	}
	fmt.Println("readers", *readers, "writers 2, iterations", *n)
}
