package runtime

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWriterFinishBusy ends the program while workers keep filling buffers
// as fast as they can, more of them than the one writer: finish must not
// wait for the queue to run empty, which it may never do while they run.
func TestWriterFinishBusy(t *testing.T) {
	const workers = 4
	startSession(t)
	g := Main(testGraphJSON(t), bMain)
	var stop atomic.Bool
	var wg sync.WaitGroup
	defer func() {
		stop.Store(true)
		wg.Wait() // before the cleanup starts another session
	}()
	for range workers {
		wg.Add(1)
		goWorker(g, func(w *G) {
			defer wg.Done()
			for k := uint64(0); !stop.Load(); k++ {
				w.Outcome(k)
			}
		})
	}
	// Let the queue fill up, as far as the workers outrun the writer.
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		sess.mu.Lock()
		full := sess.queued > maxQueued-maxWords
		sess.mu.Unlock()
		if full {
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
