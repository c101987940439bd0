package flaky

import (
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSendClose: a producer sends while the test closes the channel;
// whether the send came first decides.
func TestSendClose(t *testing.T) {
	ch := make(chan int, 1)
	closed := make(chan struct{})
	var mu sync.Mutex
	isClosed := false
	sent := make(chan bool)
	go func() {
		mu.Lock()
		late := isClosed
		mu.Unlock()
		if late {
			sent <- false // would have been a send on a closed channel
			return
		}
		ch <- 1
		sent <- true
	}()
	mu.Lock()
	isClosed = true
	mu.Unlock()
	close(closed)
	if !<-sent {
		t.Fatal("the producer sent after close")
	}
	close(ch)
}

// TestWaitGroupAdd: the workers call Add themselves, so Wait can return
// before they started.
func TestWaitGroupAdd(t *testing.T) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range 3 {
		go func() {
			wg.Add(1)
			defer wg.Done()
			mu.Lock()
			done++
			mu.Unlock()
		}()
	}
	wg.Wait()
	mu.Lock()
	n := done
	mu.Unlock()
	if n != 3 {
		t.Fatalf("%d of 3 workers done after Wait", n)
	}
}

// TestLostWakeup: Set can run between WaitSet's check and its Wait.
func TestLostWakeup(t *testing.T) {
	r := NewReady()
	woke := make(chan struct{})
	go func() {
		r.WaitSet()
		close(woke)
	}()
	r.Set()
	select {
	case <-woke:
	case <-time.After(20 * time.Millisecond):
		t.Fatal("the waiter never woke")
	}
}

// TestCompletionOrder assumes the first goroutine started finishes first.
func TestCompletionOrder(t *testing.T) {
	var mu sync.Mutex
	var got []int
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			got = append(got, i)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if got[0] != 1 {
		t.Fatalf("got %v, want [1 2]", got)
	}
}

// TestMapOrder lets map iteration order leak into a result.
func TestMapOrder(t *testing.T) {
	m := map[string]int{"a": 1, "b": 2, "c": 3}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	if keys[0] != "a" {
		t.Fatalf("first key %q, want \"a\" (%s)", keys[0], strings.Join(keys, ","))
	}
}

// TestTimeout races a worker against a timer.
func TestTimeout(t *testing.T) {
	result := make(chan int, 1)
	step := make(chan int)
	go func() {
		for i := range 4 {
			step <- i
		}
		close(step)
	}()
	go func() {
		sum := 0
		for v := range step {
			sum += v
		}
		result <- sum
	}()
	select {
	case v := <-result:
		if v != 6 {
			t.Fatalf("sum %d", v)
		}
	case <-time.After(100 * time.Microsecond):
		t.Fatal("the worker timed out")
	}
}

// TestDeterministic sorts what its goroutines send: it never fails.
func TestDeterministic(t *testing.T) {
	ch := make(chan int, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch <- i
		}()
	}
	wg.Wait()
	close(ch)
	var got []int
	for v := range ch {
		got = append(got, v)
	}
	sort.Ints(got)
	if got[0] != 0 || got[2] != 2 {
		t.Fatalf("got %v", got)
	}
}
