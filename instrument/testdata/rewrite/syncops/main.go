package main

import (
	"fmt"
	"runtime"
	"sync"
)

type counter struct {
	sync.Mutex
	n int
}

type table struct {
	mu sync.RWMutex
	m  map[string]int
}

func (t *table) get(k string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.m[k]
}

func main() {
	var c counter
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Lock()
			c.n++
			c.Unlock()
		}()
	}
	wg.Wait()
	runtime.Gosched()
	t := &table{m: map[string]int{"x": 1}}
	t.mu.Lock()
	t.m["y"] = 2
	t.mu.Unlock()
	var mu sync.Mutex
	if mu.TryLock() {
		mu.Unlock()
	}
	var once sync.Once
	for i := 0; i < 2; i++ {
		once.Do(func() { fmt.Println("once") })
	}
	cond := sync.NewCond(&mu)
	ready := false
	started := make(chan bool)
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		started <- true // main locks mu only once Wait has released it
		for !ready {
			cond.Wait()
		}
		mu.Unlock()
	}()
	<-started
	mu.Lock()
	ready = true
	cond.Broadcast()
	mu.Unlock()
	wg.Wait()
	fmt.Println(c.n, t.get("x"), t.get("y"))
}
