package runtime

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// TestWriterOrder has four goroutines fill about six buffers each at once
// (more than the writer queues before flushes wait for room), then ends
// the program while they are still alive, with jobs still queued: every
// stream must hold each of its goroutine's outcomes exactly once, in order.
func TestWriterOrder(t *testing.T) {
	const workers, n = 4, 200000 // an outcome is one word
	path := startSession(t)
	g := Main(testGraphJSON(t), bMain)
	ready := make(chan bool)
	release := make(chan struct{})
	var ended []<-chan struct{}
	defer func() {
		close(release)
		for _, e := range ended { // before the cleanup resets the session
			<-e
		}
	}()
	for range workers {
		ended = append(ended, goWorker(g, func(w *G) {
			for k := range n {
				w.Outcome(uint64(k))
			}
			ready <- true
			<-release // alive when main ends
		}))
	}
	for range workers {
		<-ready
	}
	g.B(bDone)
	g.Exit(bMain)

	r, gs := readTrace(t, path)
	if r.Truncated() || len(gs) != workers+1 {
		t.Fatalf("truncated %v, %d goroutines", r.Truncated(), len(gs))
	}
	for p, w := range gs {
		if p == "main" {
			continue
		}
		wantOutcomes(t, p, w.events, n)
		if w.info.Chunks < 5 {
			t.Errorf("%s: %d chunks, want several", p, w.info.Chunks)
		}
	}
}

// TestWriterDrain ends the program with full buffers still queued (a
// writer that has not run yet): finish writes them, before the buffer of
// the goroutine that ends the program.
func TestWriterDrain(t *testing.T) {
	const n = 3 * maxWords // outcomes (a word each) of about three full buffers
	path := startSession(t)
	g := Main(testGraphJSON(t), bMain)
	release := stallWriter()
	for k := range n {
		g.Outcome(uint64(k))
	}
	sess.mu.Lock()
	queued := len(sess.jobs)
	sess.mu.Unlock()
	release()
	g.Exit(bMain)
	if queued < 2 {
		t.Fatalf("%d jobs queued, want several", queued)
	}
	_, gs := readTrace(t, path)
	wantOutcomes(t, "main", gs["main"].events, n)
}

// stallWriter makes queued jobs wait, as if a writer goroutine ran and
// never took them, until release; finish then writes them.
func stallWriter() (release func()) {
	sess.mu.Lock()
	sess.writing = true
	sess.mu.Unlock()
	return func() {
		sess.mu.Lock()
		sess.writing = false
		sess.mu.Unlock()
	}
}

// wantOutcomes checks that the events of stream name hold the outcomes 0
// to n-1, in order.
func wantOutcomes(t *testing.T, name string, evs []trace.Event, n int) {
	t.Helper()
	k := 0
	for _, e := range evs {
		if e.Kind != trace.EvOutcome {
			continue
		}
		if e.Value != uint64(k) {
			t.Fatalf("%s: outcome %d is %d", name, k, e.Value)
		}
		k++
	}
	if k != n {
		t.Errorf("%s: %d outcomes, want %d", name, k, n)
	}
}

// TestWriterBehind stalls the writer goroutine with half its queue full of
// main's buffers: a worker with nothing queued then encodes and writes its
// own full buffers instead of queueing behind them (writeOwnLocked), and
// every stream still holds its outcomes in order.
func TestWriterBehind(t *testing.T) {
	const mainN, workerN = 5 * maxWords, 2*maxWords + 100 // outcomes, a word each
	path := startSession(t)
	g := Main(testGraphJSON(t), bMain)
	release := stallWriter()
	for k := range mainN {
		g.Outcome(uint64(k))
	}
	sess.mu.Lock()
	queued := sess.queued
	sess.mu.Unlock()
	if queued < wakeWords {
		t.Fatalf("%d words queued, want at least %d", queued, wakeWords)
	}
	var wrote uint64
	done := goWorker(g, func(w *G) {
		for k := range workerN {
			w.Outcome(uint64(k))
		}
		sess.mu.Lock()
		wrote = w.seq
		sess.mu.Unlock()
	})
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the worker waited for the stalled writer")
	}
	if wrote != 2 {
		t.Errorf("the worker wrote %d chunks of its own, want 2", wrote)
	}
	release()
	g.Exit(bMain)
	_, gs := readTrace(t, path)
	wantOutcomes(t, "main", gs["main"].events, mainN)
	wantOutcomes(t, "worker", gs["main/worker@main.go:7#1"].events, workerN)
}

// TestWriterFinishBusy ends the program while workers keep filling buffers
// as fast as they can, more of them than the one writer: finish must not
// wait for the queue to run empty, which it may never do while they run,
// nor for the workers that write their own buffers once it is half full.
func TestWriterFinishBusy(t *testing.T) {
	const workers = 4
	startSession(t)
	g := Main(testGraphJSON(t), bMain)
	var stop atomic.Bool
	var ended []<-chan struct{}
	defer func() {
		stop.Store(true)
		for _, e := range ended { // before the cleanup starts another session
			<-e
		}
	}()
	for range workers {
		ended = append(ended, goWorker(g, func(w *G) {
			for k := uint64(0); !stop.Load(); k++ {
				w.Outcome(k)
			}
		}))
	}
	// Let the queue fill up to where workers write their own, as far as
	// they outrun the writer.
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		sess.mu.Lock()
		behind := sess.queued >= wakeWords
		sess.mu.Unlock()
		if behind {
			break
		}
	}
	done := make(chan struct{})
	go func() {
		g.Exit(bMain)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		stop.Store(true)
		<-done
		t.Fatal("finish waited for busy workers to stop")
	}
}
