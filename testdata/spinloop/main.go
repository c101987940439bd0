// Command spinloop is Go's test/fixedbugs/bug512.go in a shape that parts
// for sure: a goroutine spins on atomics, checking two values it must
// never see change (a branch to panic each, no convergence point in the
// loop) and leaving only by break, for -n iterations. Two runs with
// different -n part at the loop, one of them a loop as long as -n.
package main

import (
	"flag"
	"fmt"
	"sync"
	"sync/atomic"
)

type pair struct{ a, b int32 }

func spin(p *pair, n int, wg *sync.WaitGroup) {
	defer wg.Done()
	count := 0
	for {
		if v := atomic.LoadInt32(&p.a); v != 1 {
			panic(v)
		}
		if v := atomic.LoadInt32(&p.b); v != 2 {
			panic(v)
		}
		count++
		if count >= n {
			break
		}
	}
	fmt.Println("spun", count)
}

func main() {
	n := flag.Int("n", 1, "iterations")
	flag.Parse()
	p := &pair{1, 2}
	var wg sync.WaitGroup
	wg.Add(1)
	go spin(p, *n, &wg)
	wg.Wait()
}
