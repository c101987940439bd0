// Package hang is a limiter whose waiter can miss its wakeup, the shape of
// go-concurrency-limits' BlockingLimiter before its fix: the waiter checks
// for a free place under the lock, lets the lock go, then waits for a
// wakeup that a Release made in between has already dropped.
package hang

import "sync"

// Limiter lets n holders at once; Acquire waits for a Release.
type Limiter struct {
	mu   sync.Mutex
	free int
	wake chan struct{}
}

// NewLimiter makes a limiter of n places.
func NewLimiter(n int) *Limiter { return &Limiter{free: n, wake: make(chan struct{})} }

// Acquire takes a place, waiting for a Release when there is none.
func (l *Limiter) Acquire() {
	for {
		l.mu.Lock()
		if l.free > 0 {
			l.free--
			l.mu.Unlock()
			return
		}
		l.mu.Unlock()
		// The bug: a Release between the Unlock above and this receive
		// finds nobody receiving and drops its wakeup.
		<-l.wake
	}
}

// Release gives a place back and wakes a waiter, if one is receiving.
func (l *Limiter) Release() {
	l.mu.Lock()
	l.free++
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}
