package flaky

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestGroupForget: after Forget, a second call of the key runs; a third
// Do must wait for it. But the first call's doCall deletes the second's
// entry when it gets the lock first, and the third Do then runs a call of
// its own while the second is in flight.
func TestGroupForget(t *testing.T) {
	var g Group
	var running atomic.Int32
	started, first, firstDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go g.Do("key", func() int {
		close(started)
		<-first
		close(firstDone)
		return 1
	})
	<-started
	g.Forget("key")
	secondStarted, second := make(chan struct{}), make(chan struct{})
	go g.Do("key", func() int {
		running.Add(1)
		close(secondStarted)
		<-second
		running.Add(-1)
		return 2
	})
	<-secondStarted
	close(first)
	<-firstDone
	go func() {
		time.Sleep(5 * time.Millisecond) // the third Do waits for the second call meanwhile
		close(second)
	}()
	g.Do("key", func() int {
		if running.Load() > 0 {
			t.Error("a third call of the key ran while the second was in flight")
		}
		return 3
	})
}
