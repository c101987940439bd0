// Command selectlines receives in a loop from two channels that are both
// always ready, so that its select picks a case at random and two runs
// take other cases at some iterations; one case's body starts on the line
// after the case, the other's on the case's own line. The end-to-end test
// checks that diff names each case at its case line.
package main

import "fmt"

func main() {
	const n = 64
	a, b := make(chan int, n), make(chan int, n)
	for i := range n {
		a <- i
		b <- i
	}
	fromA, fromB := 0, 0
	for range n {
		select {
		case v := <-a:
			fromA += v
		case v := <-b: fromB += v
		}
	}
	fmt.Println(fromA+fromB > 0)
}
