// Package silent marks each function with whether it records anything: a
// "silent" or "recorded" comment on the line above it (silent_test.go).
package silent

import (
	"fmt"
	"math"
	"sync"
)

// silent
func a(i, j int) float64 {
	return 1 / float64((i+j)*(i+j+1)/2+i+1)
}

// silent
func sum(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += a(i, i) + math.Sqrt(float64(i))
	}
	return s
}

// silent
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

var g int

// silent
func setG() { g = 1 }

// recorded
func global() int {
	if g > 0 { // want `\(branch\): g depends on package variable g`
		return 1
	}
	return 0
}

// recorded
func callsGlobal() int { return global() + 1 }

// recorded
func locked(mu *sync.Mutex) {
	mu.Lock() // want `\(lock\)`
	mu.Unlock()
}

// recorded
func spawned(n int) int { return n + 1 }

// recorded
func value(n int) int { return n }

// recorded
func deferred() {}

// recorded
func panics(n int) int {
	if n < 0 {
		panic("negative")
	}
	return n
}

// recorded
func dynamic(f func() int) int { return f() }

// recorded
func apply(f func(int) int) int { return f(1) }

// recorded
func closure() int {
	f := func() int { return 1 }
	return f()
}

// recorded
func printer() { fmt.Println("x") }

// recorded
func packs(ch chan int) {
	x := 0.0
	for i := 0; i < 10; i++ {
		if i%2 == 0 {
			x += a(i, 1)
		}
	}
	ch <- int(x)
}

// recorded
func Run(ch chan int) {
	var mu sync.Mutex
	go spawned(1) // want `\(spawn\)`
	defer deferred()
	setG()
	_ = sum(3) + float64(fib(10)+callsGlobal()+apply(value)+panics(2)+closure()+dynamic(callsGlobal))
	locked(&mu)
	printer()
	packs(ch)
}
