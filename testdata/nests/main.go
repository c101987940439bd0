// Command nests runs loop nests that hold no change point, which the trace
// leaves out (docs/FORMAT.md, "Quiet loop nests"), beside a nest whose inner
// loop ends on a received value, which it records.
package main

//go:generate divergo instrument ./...

import (
	"flag"
	"fmt"
	"sync"
)

// bounded runs a nest whose inner loop's bound is a received value: a
// change point inside, so the nest is recorded.
func bounded(ch <-chan int, n int) int {
	s := 0
	m := <-ch
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			s += j
		}
	}
	return s
}

func main() {
	n := flag.Int("n", 300, "size of the triangles")
	flag.Parse()
	sums := make([]int, 4)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A triangle of i·j with a branch inside: the nest holds no
			// change point (the bounds are the flag's and g, a value).
			s := 0
			for i := 0; i < *n+g; i++ {
				for j := 0; j <= i; j++ {
					if (i+j)%3 == 0 {
						s += i * j
					} else {
						s -= j
					}
				}
			}
			sums[g] = s
		}()
	}
	wg.Wait()
	ch := make(chan int, 1)
	ch <- *n / 10
	fmt.Println(sums, bounded(ch, 3))
}
