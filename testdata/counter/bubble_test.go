package counter

import (
	"testing"
	"testing/synctest"
	"time"
)

// TestBubble runs Count in a testing/synctest bubble: divergo records the
// test's own goroutine and nothing inside the bubble, whose goroutines
// must not wait on the recorder's.
func TestBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		done := make(chan int)
		go func() {
			time.Sleep(time.Second)
			done <- Count(2)
		}()
		if got := <-done; got != 2 {
			t.Fatalf("Count(2) = %d", got)
		}
	})
}
