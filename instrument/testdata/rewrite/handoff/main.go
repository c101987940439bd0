// Function literals handed to other packages' functions are numbered where
// they are evaluated: one run inline (sort.Slice's less), one in a
// goroutine time.AfterFunc starts, one written over two lines (left as it
// is), and one of this package's own (left as it is too).
package main

import (
	"fmt"
	"sort"
	"time"
)

func apply(f func(int) int, x int) int { return f(x) }

func main() {
	xs := []int{3, 1, 2}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	done := make(chan int)
	for i := range 2 {
		t := time.AfterFunc(0, func() {
			done <- i
		})
		<-done
		t.Stop()
	}
	ys := []string{"b", "a"}
	sort.Slice(ys, func(i,
		j int) bool {
		return ys[i] < ys[j]
	})
	fmt.Println(xs, ys, apply(func(x int) int { return x + 1 }, 1))
	// The AfterFunc goroutines record their exits after their sends:
	// give them the time before main returns, or the golden loses one.
	time.Sleep(100 * time.Millisecond)
}
