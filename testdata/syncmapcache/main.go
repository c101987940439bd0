// Command syncmapcache is a read-mostly cache on a sync.Map, in the shape
// of its documented use: main warms it, then readers look up keys (all
// present) and each stores an entry of its own with LoadOrStore. Every
// lookup hits and every LoadOrStore stores, whoever comes first: two
// unperturbed runs take the same paths (e2e TestSamePathsShapes).
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

func reader(cache *sync.Map, id int, sums []int, wg *sync.WaitGroup) {
	defer wg.Done()
	for k := id; k < id+5; k++ {
		v, ok := cache.Load(k)
		if !ok {
			continue
		}
		sums[id] += v.(int)
	}
	if _, loaded := cache.LoadOrStore(fmt.Sprintf("reader-%d", id), id); loaded {
		sums[id] = -1
	}
}

func main() {
	var cache sync.Map
	for k := range 10 {
		cache.Store(k, k*k)
	}
	sums := make([]int, 4)
	var wg sync.WaitGroup
	for id := range sums {
		wg.Add(1)
		go reader(&cache, id, sums, &wg)
	}
	wg.Wait()
	n := 0
	cache.Range(func(_, _ any) bool { n++; return true })
	fmt.Println("sums", sums, "entries", n)
}
