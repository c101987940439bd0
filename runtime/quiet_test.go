//go:build unix

package runtime

import (
	"bytes"
	"fmt"
	"os"
	goruntime "runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"
)

// seen is what a program can count of its goroutines: runtime.NumGoroutine,
// the goroutines runtime.Stack(buf, true) lists (what goleak parses), and
// the goroutine profile's total.
func seen() string {
	buf := make([]byte, 1<<20)
	stacks := bytes.Count(buf[:goruntime.Stack(buf, true)], []byte("\ngoroutine ")) + 1
	var prof bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&prof, 1)
	head, _, _ := strings.Cut(prof.String(), "\n")
	return fmt.Sprintf("NumGoroutine %d, Stack %d, %s", goruntime.NumGoroutine(), stacks, head)
}

// quietChild is the child of TestHiddenGoroutines: what it sees of its
// goroutines before recording starts, and again once its workers have
// ended, while the recorder's goroutines are alive (the writer has
// buffers to write, the checkpointer polls, goid detection and the
// previous trace's removal have run). Like goleak, it looks again for up
// to a second: a worker that has marked its WaitGroup has yet to exit.
func quietChild() {
	before := seen()
	g := Main(graphForChild(), bMain)
	defer g.Exit(bMain)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		goWorker(g, func(w *G) {
			defer wg.Done()
			for range 100000 {
				w.B(bWorkerL)
			}
		})
	}
	wg.Wait()
	sess.mu.Lock()
	writing := sess.writing
	sess.mu.Unlock()
	after := seen()
	for deadline := time.Now().Add(time.Second); after != before && time.Now().Before(deadline); after = seen() {
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Printf("before: %s\nafter: %s\nwriter %v, goid offset %d\n", before, after, writing, goidOffset)
}

// TestHiddenGoroutines checks that a recorded program sees none of the
// recorder's goroutines (hidden.go): its counts once its own goroutines
// have ended are those from before recording started.
func TestHiddenGoroutines(t *testing.T) {
	cmd, path := child(t, "quiet")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil { // a previous trace to remove
		t.Fatal(err)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 {
		t.Fatalf("child said:\n%s", out)
	}
	before, after := strings.TrimPrefix(lines[0], "before: "), strings.TrimPrefix(lines[1], "after: ")
	if before != after || !strings.HasPrefix(before, "NumGoroutine 1, Stack 1, goroutine profile: total 1") {
		t.Errorf("the program saw\n%s\nbefore recording and\n%s\nafter, want one goroutine both times", before, after)
	}
	if want := "writer true"; !strings.HasPrefix(lines[2], want) {
		t.Errorf("child: %s, want %s: the writer was not running", lines[2], want)
	}
	_, gs := readTrace(t, path)
	if len(gs) != 5 {
		t.Errorf("%d goroutines in the trace, want 5", len(gs))
	}
}
