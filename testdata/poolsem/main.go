// Command poolsem bounds its parallelism with a semaphore channel, in the
// shape of the usual examples: one goroutine per job, at most three
// running, results on a buffered channel that a closer goroutine closes once a
// WaitGroup says every job is done, and main ranging over them. Which job
// finishes first is the schedule's, but what each goroutine does is decided
// by its job: two unperturbed runs take the same paths (e2e
// TestSamePathsShapes).
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"strings"
	"sync"
)

func process(word string) int {
	n := 0
	for _, r := range word {
		if strings.ContainsRune("aeiou", r) {
			n++
		}
	}
	return n
}

func main() {
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"}
	sem := make(chan struct{}, 3)
	results := make(chan int, len(words)) // room for every result: main ranges over them only once it has started every job
	var wg sync.WaitGroup
	for _, w := range words {
		wg.Add(1)
		sem <- struct{}{}
		go func(w string) {
			defer wg.Done()
			defer func() { <-sem }()
			results <- process(w)
		}(w)
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	total := 0
	for n := range results {
		total += n
	}
	fmt.Println("vowels", total)
}
