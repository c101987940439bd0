package schedflaky

import (
	"sync"
	"testing"
	"time"
)

// TestProcessorDrains: the test queues an event and stops the processor,
// assuming the loop handles what was queued before the stop. Its select
// finds both the event and the stop ready when it runs late, and takes
// either.
func TestProcessorDrains(t *testing.T) {
	p := NewProcessor(1)
	p.Submit(1)
	if n := p.Stop(); n != 1 {
		t.Fatalf("handled %d of 1 events", n)
	}
}

// TestFetchOnce: the reply comes at once, but a slow start of the caller
// finds the deadline's timer fired too; the retry then fetches again.
func TestFetchOnce(t *testing.T) {
	calls := 0
	var mu sync.Mutex
	fetch := func(reply chan<- int) {
		mu.Lock()
		calls++
		mu.Unlock()
		reply <- 42
	}
	v, n := Fetch(fetch, 3, 50*time.Microsecond)
	if v != 42 || n != 1 {
		t.Fatalf("got %d after %d attempts, want 42 after 1", v, n)
	}
}

// TestReadyNow: a non-blocking check that the worker already answered
// (the shape of a poll with a default, fixed by waiting).
func TestReadyNow(t *testing.T) {
	ready := make(chan struct{}, 1)
	go func() { ready <- struct{}{} }()
	time.Sleep(10 * time.Microsecond)
	select {
	case <-ready:
	default:
		t.Fatal("the worker was not ready yet")
	}
}

// TestWakeOrder: two workers wait for a lock the test holds, the second
// only once the first waits; the test assumes the unlock lets the first
// in first (Go's mutex mostly does: it wakes its waiters in order).
func TestWakeOrder(t *testing.T) {
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	mu.Lock()
	for id := 1; id <= 2; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			order = append(order, id)
			mu.Unlock()
		}()
		time.Sleep(time.Millisecond) // it waits for the lock before the next starts
	}
	mu.Unlock()
	wg.Wait()
	if order[0] != 1 {
		t.Fatalf("took the lock in order %v, want [1 2]", order)
	}
}

// TestStartOrder: the first worker started is assumed to register first.
func TestStartOrder(t *testing.T) {
	first := make(chan int, 2)
	var wg sync.WaitGroup
	for id := 1; id <= 2; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first <- id
		}()
	}
	wg.Wait()
	if id := <-first; id != 1 {
		t.Fatalf("worker %d registered first, want 1", id)
	}
}
