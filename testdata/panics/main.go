// Command panics panics in a function called from main, after a goroutine
// has done known work. End-to-end tests check that the panic names the
// original source line, and that the trace holds every event up to the
// panic, with the functions it unwound exited.
package main

//go:generate divergo instrument ./...

import "fmt"

func mustPositive(n int) int {
	if n < 0 {
		panic(fmt.Sprintf("negative: %d", n)) // the line the panic must name
	}
	return n
}

func main() {
	done := make(chan int)
	go func() { done <- mustPositive(3) }()
	fmt.Println(<-done)
	mustPositive(-1)
}
