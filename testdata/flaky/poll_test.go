package flaky

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestPollCancel cancels a polling loop during its first tick's work and
// expects no work after the cancel. But the work takes longer than a tick,
// so when the loop comes back to its select a tick is there as well as
// the cancel, and select takes either: the test fails when it takes the
// tick. What decides is the select's own random choice, not an order of
// sync operations nor much the time.
func TestPollCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	works := 0
	first := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		Poll(ctx, 100*time.Microsecond, func() {
			mu.Lock()
			works++
			n := works
			mu.Unlock()
			if n == 1 {
				close(first)
				// The first tick's work outlasts a tick. Later ones are
				// quick, so that a failing run works once after the
				// cancel and then finds only the cancel: every failing
				// run takes the same path, and so does every passing one.
				time.Sleep(200 * time.Microsecond)
			}
		})
	}()
	<-first
	cancel()
	mu.Lock()
	atCancel := works
	mu.Unlock()
	<-stopped
	if works != atCancel {
		t.Fatal("the poller worked after the cancel")
	}
}
