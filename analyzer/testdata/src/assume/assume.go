// Package main has one branch per rule by which the analysis takes data
// to be the same in two runs (analyzer/assume.go): each is clean under the
// rules and a change point with its own rule switched off (-without).
package main

import (
	"math/rand"
	"os"
	"sync"
)

func inputs() {
	if os.Getenv("ASSUME") != "" { // inputs
		println("set")
	}
}

func seeded() {
	r := rand.New(rand.NewSource(1))
	if r.Intn(2) == 0 { // seeded
		println("heads")
	}
}

func frozen() {
	k := 0
	for i := 0; i < 3; i++ {
		k += i
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if k > 2 { // frozen
			println("big")
		}
	}()
	wg.Wait()
}

var limit = 10

func initonly() {
	if limit > 5 { // initonly
		println("over")
	}
}

func callers(n int) {
	if n > 5 { // callers
		println("many")
	}
}

func counted() {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i > 0 { // counted
				println("second")
			}
		}(i)
	}
	wg.Wait()
}

func main() {
	inputs()
	seeded()
	frozen()
	initonly()
	callers(3)
	counted()
}
