// Command binarytrees is in the shape of the benchmarks game's Go
// binary-trees: a depth from a flag, one goroutine per depth over trees it
// allocates and checks, results joined by a WaitGroup.
package main

import (
	"flag"
	"fmt"
	"sync"
)

type node struct{ left, right *node }

func bottomUp(depth int) *node {
	if depth <= 0 {
		return &node{}
	}
	return &node{bottomUp(depth - 1), bottomUp(depth - 1)}
}

func (n *node) check() int {
	// Not a change point: bottomUp returns only memory it allocates, every
	// caller of check passes such a tree (or a subtree of one) and publishes
	// none, and check stores nothing: each goroutine checks trees of its own.
	if n.left == nil {
		return 1
	}
	return 1 + n.left.check() + n.right.check()
}

func main() { // want `\(begin\)`
	n := flag.Int("n", 10, "maximum depth")
	flag.Parse()
	minDepth := 4
	maxDepth := *n
	if minDepth+2 > maxDepth {
		maxDepth = minDepth + 2
	}
	stretch := maxDepth + 1
	fmt.Printf("stretch tree of depth %d\t check: %d\n", stretch, bottomUp(stretch).check())
	long := bottomUp(maxDepth)
	results := make([]string, maxDepth+1)
	var wg sync.WaitGroup
	for d := minDepth; d <= maxDepth; d += 2 {
		wg.Add(1)
		go func(depth int) { // want `\(spawn\)`
			defer wg.Done()
			// maxDepth and minDepth are written before the goroutines start and
			// never after: values, so iters and the loop on it are no change point.
			iters := 1 << uint(maxDepth-depth+minDepth)
			chk := 0
			for i := 0; i < iters; i++ {
				chk += bottomUp(depth).check()
			}
			results[depth] = fmt.Sprintf("%d\t trees of depth %d\t check: %d", iters, depth, chk)
		}(d)
	}
	wg.Wait()
	for d := minDepth; d <= maxDepth; d += 2 {
		fmt.Println(results[d])
	}
	fmt.Printf("long lived tree of depth %d\t check: %d\n", maxDepth, long.check())
}
