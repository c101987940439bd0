// Command ctxfanout fans a pipeline out to two workers and back in, under
// a context with a deadline, in the shape of the Go blog's "Pipelines and
// cancellation": each worker squares its own half of the input (given by
// its index, not taken from a shared channel), sends with a select on the
// context's Done, and a merge goroutine closes the output once a WaitGroup
// says both are done. The deadline is far off, so no Done is ready while
// a worker sends: two unperturbed runs take the same paths (e2e
// TestSamePathsShapes).
package main

//go:generate divergo instrument ./...

import (
	"context"
	"fmt"
	"sync"
	"time"
)

func worker(ctx context.Context, nums []int, out chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	for _, n := range nums {
		select {
		case out <- n * n:
		case <-ctx.Done():
			return
		}
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nums := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	out := make(chan int)
	var wg sync.WaitGroup
	half := len(nums) / 2
	for _, part := range [][]int{nums[:half], nums[half:]} {
		wg.Add(1)
		go worker(ctx, part, out, &wg)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	sum := 0
	for v := range out {
		sum += v
	}
	if err := ctx.Err(); err != nil {
		fmt.Println("cancelled:", err)
		return
	}
	fmt.Println("sum of squares", sum)
}
