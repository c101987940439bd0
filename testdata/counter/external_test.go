package counter_test

import (
	"testing"

	"example.com/counter"
)

func TestExternal(t *testing.T) {
	done := make(chan int)
	go func() { done <- counter.Count(2) }()
	if got := <-done; got != 2 {
		t.Fatalf("Count(2) = %d", got)
	}
}
