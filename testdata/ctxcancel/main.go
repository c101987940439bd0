// Command ctxcancel is a worker pool stopped by a context, the shape of the
// context package's examples and of most servers: workers wait in a select
// on ctx.Done() and a job channel, and main cancels the context when the
// work is done. The close of Done happens inside package context, which
// divergo does not instrument, so the divergo trace holds nothing that
// ended the workers' last waits; Go's execution trace, recorded beside it
// with DIVERGO_RUNTIME_TRACE=1, does, and divergo wait names main's
// cancel() as what woke them (e2e TestWokenByGoTrace).
package main

//go:generate divergo instrument ./...

import (
	"context"
	"fmt"
	"sync"
	"time"
)

func worker(ctx context.Context, jobs <-chan int, results chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-jobs:
			results <- j * j
		}
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	jobs := make(chan int)
	results := make(chan int, 100)
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go worker(ctx, jobs, results, &wg)
	}
	for j := range 30 {
		jobs <- j
	}
	time.Sleep(20 * time.Millisecond) // the workers wait in their select
	cancel()                          // and this wakes them, inside package context
	wg.Wait()
	close(results)
	sum := 0
	for r := range results {
		sum += r
	}
	fmt.Println(sum)
}
