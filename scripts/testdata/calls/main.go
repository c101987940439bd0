// Command calls is call-heavy: a recursive Fibonacci, a function entry and
// return for every few instructions, so that what recording (or
// DIVERGO_TRACE=off) costs is mostly Enter and Exit.
package main

//go:generate divergo instrument ./...

import (
	"flag"
	"fmt"
)

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

// call hands fib over as a value, which keeps it recorded: called only,
// it would be silent (no change point, nothing that records), and this
// program would measure nothing of Enter and Exit.
func call(f func(int) int, n int) int { return f(n) }

func main() {
	n := flag.Int("n", 32, "argument")
	flag.Parse()
	fmt.Println(call(fib, *n))
}
