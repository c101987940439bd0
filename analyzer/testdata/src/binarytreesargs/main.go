// Command binarytreesargs is binary-trees written as public Go entries
// write it: a named worker per depth gets its depth, the iteration count
// and a result channel as go arguments, and main reads the results in
// order of depth.
package main

import (
	"flag"
	"fmt"
)

type node struct{ left, right *node }

func create(depth int) *node {
	if depth == 0 {
		return &node{}
	}
	return &node{create(depth - 1), create(depth - 1)}
}

func (n *node) check() int {
	if n.left == nil {
		return 1
	}
	return 1 + n.left.check() + n.right.check()
}

// worker checks iters trees of depth and sends its line.
func worker(depth, iters int, out chan<- string) {
	chk := 0
	for i := 0; i < iters; i++ {
		chk += create(depth).check()
	}
	out <- fmt.Sprintf("%d\t trees of depth %d\t check: %d", iters, depth, chk)
}

func main() { // want `\(begin\)`
	n := flag.Int("n", 10, "maximum depth")
	flag.Parse()
	minDepth := 4
	maxDepth := max(minDepth+2, *n)
	fmt.Printf("stretch tree of depth %d\t check: %d\n", maxDepth+1, create(maxDepth+1).check())
	long := create(maxDepth)
	var outs []chan string
	for d := minDepth; d <= maxDepth; d += 2 {
		out := make(chan string, 1)
		outs = append(outs, out)
		go worker(d, 1<<uint(maxDepth-d+minDepth), out) // want `\(spawn\)`
	}
	for _, out := range outs {
		fmt.Println(<-out)
	}
	fmt.Printf("long lived tree of depth %d\t check: %d\n", maxDepth, long.check())
}
