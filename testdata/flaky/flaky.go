// Package flaky holds flaky tests written after the known classes of Go
// concurrency bugs, for divergo test: each test passes in some runs and
// fails in others, and the end-to-end test requires divergo test to name
// the statement that decides the outcome. TestDeterministic never fails.
package flaky

import "sync"

// Ready is a flag guarded by its own mutex.
type Ready struct {
	mu    sync.Mutex
	cond  *sync.Cond
	ready bool
}

// NewReady returns a flag not yet set.
func NewReady() *Ready {
	r := &Ready{}
	r.cond = sync.NewCond(&r.mu)
	return r
}

// IsSet reports the flag.
func (r *Ready) IsSet() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ready
}

// WaitSet waits for the flag. The bug: it checks the flag and then waits in
// two critical sections, so a Set between them is a lost wake-up.
func (r *Ready) WaitSet() {
	if r.IsSet() {
		return
	}
	r.mu.Lock()
	r.cond.Wait()
	r.mu.Unlock()
}

// Set sets the flag and wakes a waiter.
func (r *Ready) Set() {
	r.mu.Lock()
	r.ready = true
	r.mu.Unlock()
	r.cond.Signal()
}
