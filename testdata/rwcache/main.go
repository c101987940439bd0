// Command rwcache is a read-mostly cache guarded by a sync.RWMutex, in the
// shape of the usual examples: a get under the read lock, a put under the
// write lock. Main warms it, then readers get keys (all present) and each
// puts an entry of its own. Every get hits, whoever holds the lock first:
// two unperturbed runs take the same paths (e2e TestSamePathsShapes).
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

type cache struct {
	mu sync.RWMutex
	m  map[string]int
}

func (c *cache) get(k string) (int, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *cache) put(k string, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

func main() {
	c := &cache{m: map[string]int{}}
	for k := range 10 {
		c.put(fmt.Sprint("key-", k), k)
	}
	hits := make([]int, 4)
	var wg sync.WaitGroup
	for id := range hits {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := id; k < id+5; k++ {
				if _, ok := c.get(fmt.Sprint("key-", k)); ok {
					hits[id]++
				}
			}
			c.put(fmt.Sprint("reader-", id), id)
		}()
	}
	wg.Wait()
	fmt.Println("hits", hits, "entries", len(c.m))
}
