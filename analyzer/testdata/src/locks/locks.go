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
