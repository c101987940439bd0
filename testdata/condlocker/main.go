// Command condlocker has four workers take turns under a sync.Cond, in the
// shape of the context package's ExampleAfterFunc_cond: each locks through
// the Cond's Locker (c.L.Lock(), an interface call) and waits for its
// turn, after counting itself in under a mutex it is handed as a
// sync.Locker. Which worker gets a lock first is the schedule's choice, so
// two runs take both locks in other orders; what differs besides is how
// often a worker waited, at the loop that waits for its turn.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

type turns struct {
	c    *sync.Cond
	next int // the worker whose turn it is
}

// count adds one under l: a mutex passed as a Locker.
func count(l sync.Locker, n *int) {
	l.Lock()
	*n++
	l.Unlock()
}

// wait waits, with t.c.L held, until it is id's turn.
func (t *turns) wait(id int) {
	for t.next != id {
		t.c.Wait()
	}
}

// worker is one block, as ExampleAfterFunc_cond's goroutines are: the
// loop is wait's. Its lock's ticket is recorded in a block that decides
// nothing, so a lock the graph did not mark could only be called a hole
// there (a loop head right after the lock would have taken the blame).
func worker(id int, t *turns, mu *sync.Mutex, arrived *int, wg *sync.WaitGroup) {
	defer wg.Done()
	count(mu, arrived)
	t.c.L.Lock()
	defer t.c.L.Unlock()
	t.wait(id)
	t.next++
	t.c.Broadcast()
}

func main() {
	t := &turns{c: sync.NewCond(new(sync.Mutex))}
	var mu sync.Mutex
	var wg sync.WaitGroup
	arrived := 0
	for id := range 4 {
		wg.Add(1)
		go worker(id, t, &mu, &arrived, &wg)
	}
	wg.Wait()
	fmt.Println(arrived, "workers took", t.next, "turns")
}
