// Package main has one branch per rule by which the analysis takes data
// to be the same in two runs (analyzer/assume.go): each is clean under the
// rules and a change point with its own rule switched off (-without). Its
// imports are few, since the test analyses it, dependencies included,
// once per rule.
package main

import (
	"math/rand/v2"
	"runtime"
	"strings"
)

func inputs() {
	if runtime.NumCPU() > 1 { // inputs
		println("several")
	}
}

func seeded() {
	r := rand.New(rand.NewPCG(1, 2))
	if r.IntN(2) == 0 { // seeded
		println("heads")
	}
}

func frozen() {
	k := 0
	for i := 0; i < 3; i++ {
		k += i
	}
	done := make(chan bool)
	go func() {
		if k > 2 { // frozen
			println("big")
		}
		done <- true
	}()
	<-done
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
	done := make(chan bool)
	for i := 0; i < 2; i++ {
		go func(i int) {
			if i > 0 { // counted
				println("second")
			}
			done <- true
		}(i)
	}
	<-done
	<-done
}

type cell struct {
	next *cell
	v    int
}

func mk(n int) *cell {
	c := &cell{v: n}
	if n > 0 {
		c.next = mk(n - 1)
	}
	return c
}

func fresh() {
	c := mk(2)
	if c.next == nil { // fresh
		println("last")
	}
}

func builder() {
	var b strings.Builder
	b.WriteString("ab")
	if b.Len() > 1 { // builder
		println("built")
	}
}

func main() {
	builder()
	inputs()
	seeded()
	frozen()
	initonly()
	callers(3)
	counted()
	fresh()
}
