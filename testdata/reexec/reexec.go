// Package reexec doubles a number on a goroutine of its own and panics
// there on bad input. Its test of the panic runs the test binary again and
// looks at what the child printed, the shape of Go's subprocess tests
// (x/sync's singleflight tests a panic inside DoChan this way): the child
// inherits the parent's environment, DIVERGO_TRACE included.
package reexec

// Double sends 2n on the channel it returns; it panics, on its own
// goroutine, when n is negative.
func Double(n int) <-chan int {
	ch := make(chan int, 1)
	go func() {
		if n < 0 {
			panic("reexec: negative input")
		}
		ch <- 2 * n
	}()
	return ch
}
