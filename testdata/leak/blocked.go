package main

import (
	"runtime"
	"strings"
	"time"
)

// untilBlocked returns once n other goroutines are blocked in a channel
// operation, a mutex or a WaitGroup, as Go's own goroutine dump says, so
// that the run ends in the same state however the scheduler went.
func untilBlocked(n int) {
	buf := make([]byte, 1<<20)
	for {
		dump := string(buf[:runtime.Stack(buf, true)])
		k := 0
		for _, state := range []string{"[chan send", "[chan receive", "[sync.Mutex.Lock", "[sync.WaitGroup.Wait"} {
			k += strings.Count(dump, state)
		}
		if k >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
