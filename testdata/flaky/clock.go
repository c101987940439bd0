package flaky

import (
	"sync"
	"time"
)

// FakeClock is a clock tests move by hand, in the shape of the fake
// clocks of real projects: After registers a waiter, Advance fires the
// waiters that are due.
type FakeClock struct {
	mu      sync.Mutex
	now     time.Duration
	waiters []clockWaiter
}

type clockWaiter struct {
	at time.Duration
	ch chan time.Duration
}

// After returns a channel that gets the clock's time once it has moved d
// past now.
func (c *FakeClock) After(d time.Duration) <-chan time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Duration, 1)
	c.waiters = append(c.waiters, clockWaiter{c.now + d, ch})
	return ch
}

// Advance moves the clock by d and fires the waiters due. The trap: a
// waiter that registers after Advance waits for the next one.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now += d
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at <= c.now {
			w.ch <- c.now
		} else {
			kept = append(kept, w)
		}
	}
	c.waiters = kept
}
