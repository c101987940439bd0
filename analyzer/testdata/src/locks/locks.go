package locks

import "sync"

var mu sync.Mutex
var rw sync.RWMutex

type S struct {
	sync.Mutex
	n int
}

func locks(s *S) {
	mu.Lock() // want `trace change point \(lock\): sync.Mutex.Lock on mu: the acquisition order; converges at .*locks.go:15`
	mu.Unlock()
	rw.RLock() // want `\(lock\): sync.RWMutex.RLock on rw`
	rw.RUnlock()
	rw.Lock() // want `\(lock\): sync.RWMutex.Lock on rw`
	rw.Unlock()
	s.Lock() // want `\(lock\): sync.Mutex.Lock on s`
	s.n++
	s.Unlock()
}

func try() {
	if mu.TryLock() { // want `\(lock\): sync.Mutex.TryLock` `\(branch\): mu.TryLock\(\) depends on sync.Mutex.TryLock result`
		mu.Unlock()
	}
}

// A Lock through a sync.Locker is recorded by the value's dynamic type,
// ticket included, so it is a lock change point as a direct one is; its
// Unlock and an RLock through an interface (not recorded) are not.
type locker interface {
	Lock()
	Unlock()
}

type guarded struct {
	sync.Locker
	n int
}

func lockers(c *sync.Cond, l sync.Locker, own locker, g *guarded) {
	c.L.Lock() // want `\(lock\): sync.Locker.Lock on c.L: the acquisition order`
	c.L.Unlock()
	l.Lock() // want `\(lock\): sync.Locker.Lock on l`
	l.Unlock()
	own.Lock() // want `\(lock\): locks.locker.Lock on own`
	own.Unlock()
	g.Lock() // want `\(lock\): sync.Locker.Lock on g`
	g.n++
	g.Unlock()
	rw.RLocker().Lock() // want `\(lock\): sync.Locker.Lock on rw.RLocker\(\)`
	rw.RLocker().Unlock()
}
