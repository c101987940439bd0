// Command manylock starts n goroutines that wait at one gate, then take
// one mutex r times each with some work inside it: every goroutine waits
// for others and for the lock, the shape in which divergo wait's memory
// once grew with the square of the goroutines (scripts/bench-wait-many.sh).
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

func work(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i * i % 7
	}
	return s
}

func main() {
	n := flag.Int("n", 1000, "goroutines")
	rounds := flag.Int("r", 3, "rounds")
	flag.Parse()
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	start := make(chan struct{})
	for i := 0; i < *n; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			<-start
			for r := 0; r < *rounds; r++ {
				mu.Lock()
				total += work(200 + id%7*100)
				runtime.Gosched()
				mu.Unlock()
			}
		}(i)
	}
	close(start)
	wg.Wait()
	fmt.Println(total > 0)
}
