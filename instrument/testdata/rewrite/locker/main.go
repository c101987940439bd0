package main

import (
	"fmt"
	"sync"
)

// locker is the program's own interface with Lock and Unlock: its values
// are sync.Lockers, and calls through it are recorded like c.L's.
type locker interface {
	Lock()
	Unlock()
}

// reader has RLock only: not a Locker, its calls are left with a warning.
type reader interface {
	RLock()
	RUnlock()
}

// guarded embeds a Locker: g.Lock() locks whatever it holds.
type guarded struct {
	sync.Locker
	n int
}

func add(l sync.Locker, n *int) {
	l.Lock()
	defer l.Unlock()
	*n++
}

func main() {
	var mu sync.Mutex
	var rw sync.RWMutex
	n := 0
	c := sync.NewCond(&mu)
	c.L.Lock()
	n++
	c.L.Unlock()
	add(&mu, &n)
	add(rw.RLocker(), &n)
	var l locker = &rw
	l.Lock()
	n++
	l.Unlock()
	g := guarded{Locker: &mu}
	g.Lock()
	g.n++
	g.Unlock()
	var r reader = &rw
	r.RLock()
	r.RUnlock()
	lock, unlock := c.L.Lock, c.L.Unlock
	lock()
	n++
	unlock()
	fmt.Println(n, g.n)
}
