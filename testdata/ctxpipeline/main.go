// Command ctxpipeline is a pipeline in the shape of the Go blog's
// "Pipelines and cancellation": a generator and a squaring stage, each
// sending with a select on the context's Done, so that a cancel stops them
// where they are; main consumes every value and cancels when it is done.
// No Done is ever ready while a stage sends, so each select has one way to
// go: two unperturbed runs take the same paths (e2e TestSamePathsShapes).
package main

//go:generate divergo instrument ./...

import (
	"context"
	"fmt"
)

func gen(ctx context.Context, nums ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, n := range nums {
			select {
			case out <- n:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func sq(ctx context.Context, in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for n := range in {
			select {
			case out <- n * n:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum := 0
	for v := range sq(ctx, gen(ctx, 1, 2, 3, 4, 5, 6, 7, 8)) {
		sum += v
	}
	fmt.Println("sum of squares", sum)
}
