package main

import (
	"fmt"
	"sort"
	"sync"
)

type Stack[T any] struct {
	mu    sync.Mutex
	items []T
}

func (s *Stack[T]) Push(v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = append(s.items, v)
}

type guarded struct {
	*sync.RWMutex
	sync.WaitGroup
	n int
}

func apply[T any](wg *sync.WaitGroup, f func(T), vs ...T) {
	defer wg.Done()
	for _, v := range vs {
		f(v)
	}
}

type key struct{ a, b int }

func main() {
	var wg sync.WaitGroup
	s := &Stack[int]{}
	wg.Add(1)
	go apply(&wg, s.Push, 1, 2, 3) // generic callee, method value argument, variadic constants
	wg.Wait()
	g := guarded{RWMutex: new(sync.RWMutex)}
	g.Add(1)
	go (func(n int) {
		defer g.Done()
		g.Lock()
		g.n += n
		g.Unlock()
	})(4)
	g.Wait()
	g.RLock()
	fmt.Println(len(s.items), g.n)
	g.RUnlock()

	ch := make(chan int, 3)
	var v int
	var ok bool
	ch <- 7
	v, ok = <-ch
	var w, ok2 = <-func() chan int { ch <- 8; return ch }()
	fmt.Println(v, ok, w, ok2)

	results := make(chan string, 2)
	var inner sync.WaitGroup
	inner.Add(1)
	go func() {
		defer inner.Done()
		var wg2 sync.WaitGroup
		wg2.Go(func() { results <- "nested" })
		wg2.Wait()
		select {
		case results <- "select in closure":
		default:
		}
	}()
	inner.Wait()
	close(results)
	var got []string
	for r := range results {
		got = append(got, r)
	}
	sort.Strings(got)
	fmt.Println(got)

	m := map[key]bool{{1, 2}: true}
	for k := range m {
		fmt.Println(k.a + k.b)
	}
	i := 0
	goto check
loop:
	i++
check:
	if i < 2 {
		goto loop
	}
	fmt.Println("i", i)
}
