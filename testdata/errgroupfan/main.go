// Command errgroupfan is an errgroup fan-out with SetLimit feeding a
// reader through an io.Pipe: every wait of the program is inside code
// divergo does not instrument. The tasks beyond the limit wait in g.Go
// (errgroup's semaphore), main waits in g.Wait (a WaitGroup inside
// errgroup), the reader waits in the pipe's Read under bufio.Scanner and
// main in its Write. With Go's execution trace recorded beside the divergo
// trace (DIVERGO_RUNTIME_TRACE=1), divergo wait reports each as a wait at
// the program's line, with who released it (e2e TestLibraryWaits).
package main

//go:generate divergo instrument ./...

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"

	"golang.org/x/sync/errgroup"
)

// hash is a task's work, long enough for the tasks beyond the limit to
// park in g.Go.
func hash(n int) [32]byte {
	sum := sha256.Sum256([]byte{byte(n)})
	for range 5000 * (n + 1) {
		sum = sha256.Sum256(sum[:])
	}
	return sum
}

func reader(r io.Reader, done chan<- int) {
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() { // waits in the pipe's Read until main writes
		n++
	}
	done <- n
}

func main() {
	pr, pw := io.Pipe()
	done := make(chan int)
	go reader(pr, done)

	var g errgroup.Group
	g.SetLimit(2)
	sums := make([][32]byte, 6)
	for i := range sums {
		g.Go(func() error { // waits for a slot while two tasks run
			sums[i] = hash(i)
			return nil
		})
	}
	if err := g.Wait(); err != nil { // waits for the last task
		panic(err)
	}
	for i, s := range sums {
		fmt.Fprintf(pw, "%d %x\n", i, s[:4]) // wakes the reader, and waits for it
	}
	pw.Close()
	fmt.Println("lines", <-done)
}
