// Command wordcount is a realistic concurrent workload for measuring
// divergo's overhead: a producer generates lines of text, a pool of
// workers splits them into words and counts them in maps of their own,
// and the counts are merged under a mutex. Its output is the same in
// every run.
package main

//go:generate divergo instrument ./...

import (
	"flag"
	"fmt"
	"sort"
	"strings"
	"sync"
)

var words = strings.Fields(`the quick brown fox jumps over the lazy dog while a
concurrent program waits for its workers to finish reading lines of text and
counting every word they see before the results are merged`)

// line makes the i-th line of text from a fixed pseudo-random sequence.
func line(i int) string {
	var b strings.Builder
	x := uint32(i*2654435761 + 1)
	for w := 0; w < 12; w++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		if w > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[int(x%uint32(len(words)))])
	}
	return b.String()
}

func count(lines <-chan string, total map[string]int, mu *sync.Mutex, wg *sync.WaitGroup) {
	defer wg.Done()
	local := map[string]int{}
	n := 0
	for l := range lines {
		for _, w := range strings.Fields(l) {
			if len(w) > 3 {
				local[w]++
			} else {
				local["short"]++
			}
		}
		n++
		if n%64 == 0 {
			merge(total, local, mu)
			local = map[string]int{}
		}
	}
	merge(total, local, mu)
}

func merge(total, local map[string]int, mu *sync.Mutex) {
	mu.Lock()
	defer mu.Unlock()
	for w, c := range local {
		total[w] += c
	}
}

func main() {
	n := flag.Int("lines", 20000, "lines of text")
	workers := flag.Int("workers", 4, "workers")
	flag.Parse()
	lines := make(chan string, 128)
	total := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < *workers; i++ {
		wg.Add(1)
		go count(lines, total, &mu, &wg)
	}
	for i := 0; i < *n; i++ {
		lines <- line(i)
	}
	close(lines)
	wg.Wait()
	keys := make([]string, 0, len(total))
	for w := range total {
		keys = append(keys, w)
	}
	sort.Strings(keys)
	sum := 0
	for _, w := range keys {
		sum += total[w]
	}
	fmt.Println("words", sum, "distinct", len(keys))
}
