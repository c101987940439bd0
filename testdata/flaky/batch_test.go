package flaky

import (
	"sync"
	"testing"
	"time"
)

// TestBatchDeadline gives two workers 8000 small critical sections and
// 15 ms: plenty on an idle machine, too little when every other lock
// waits a few microseconds more, as on a loaded CI machine. Perturbed at
// divergo test's default strength it fails in every run; weaker, in some.
func TestBatchDeadline(t *testing.T) {
	var mu sync.Mutex
	sum := 0
	done := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 4000 {
				mu.Lock()
				sum += w + i
				mu.Unlock()
			}
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(15 * time.Millisecond):
		t.Fatal("the batch missed its deadline")
	}
}
