// Command cgoadd adds numbers in C from two goroutines: one file of the
// package imports "C" and is left as it is; the end-to-end test checks
// that the others are instrumented and that the goroutines calling into C
// are recorded around the calls.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	sums := make([]int, 2)
	for i := range sums {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[i] = addC(i, 10)
		}()
	}
	wg.Wait()
	fmt.Println("sums", sums[0], sums[1])
}
