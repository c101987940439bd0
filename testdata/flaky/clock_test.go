package flaky

import (
	"testing"
	"time"
)

// TestFakeClockTicks advances a fake clock twice and expects a tick each
// time, but a ticker goroutine that registers with the clock after an
// Advance misses it: the test fails at the first select or at the second,
// depending on which Advance the ticker was late for.
func TestFakeClockTicks(t *testing.T) {
	c := &FakeClock{}
	t.Log("two ticks expected") // a log line, in passing runs too: not how the test fails
	ticks := make(chan int)
	go func() {
		for i := 1; i <= 2; i++ {
			<-c.After(time.Second)
			ticks <- i
		}
	}()
	time.Sleep(5 * time.Microsecond)
	c.Advance(time.Second)
	select {
	case <-ticks:
	case <-time.After(10 * time.Millisecond):
		t.Fatal("no first tick: the ticker missed the first Advance")
	}
	c.Advance(time.Second)
	select {
	case <-ticks:
	case <-time.After(10 * time.Millisecond):
		t.Fatal("no second tick: the ticker missed the second Advance")
	}
}
