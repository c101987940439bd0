// Command quiet checks what it can see of its own goroutines the way leak
// checks do: runtime.NumGoroutine before and after, the goroutines
// runtime.Stack(buf, true) lists (what goleak parses) and the goroutine
// profile's total. Its workers make calls enough to fill many trace
// buffers, so that the recorder's writer runs while it looks; recorded, it
// must print what it prints plain and exit 0.
package main

//go:generate divergo instrument ./...

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"time"
)

func main() {
	before := look()
	var wg sync.WaitGroup
	sums := make([]int, 4)
	for i := range sums {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[i] = fib(24)
		}()
	}
	wg.Wait()
	// Like goleak, look again for a while: a worker that has marked the
	// WaitGroup has yet to exit.
	after := look()
	for try := 0; try < 100 && after != before; try++ {
		time.Sleep(10 * time.Millisecond)
		after = look()
	}
	fmt.Println("before:", before)
	fmt.Println("after:", after)
	fmt.Println("sums:", sums)
	if after != before {
		buf := make([]byte, 1<<20)
		os.Stderr.Write(buf[:runtime.Stack(buf, true)])
		os.Exit(1)
	}
}

// look says how many goroutines the program can see, three ways.
func look() string {
	buf := make([]byte, 1<<20)
	stacks := bytes.Count(buf[:runtime.Stack(buf, true)], []byte("\ngoroutine ")) + 1
	var prof bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&prof, 1)
	head, _, _ := strings.Cut(prof.String(), "\n")
	return fmt.Sprintf("NumGoroutine %d, Stack %d, %s", runtime.NumGoroutine(), stacks, head)
}

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}
