package waittime

import (
	"runtime"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// manyLock builds n workers started by main at one go statement, each
// taking one mutex in turn: worker i waits for worker i-1's unlock, then
// holds the lock 900 ns. Main waits for all of them on a WaitGroup.
func manyLock(n int) *fakeTrace {
	b := newBuilder("many.go")
	spawnB, waitB := b.block("main", 5, 2), b.block("main", 6, 2)
	work, lockB, crit, unlockB := b.block("worker", 10, 5), b.block("worker", 11, 2), b.block("worker", 12, 20), b.block("worker", 13, 2)
	m := b.goroutine(1, 0, 0, 0, 0)
	var last int64
	for i := 0; i < n; i++ {
		id := uint64(i + 2)
		m.spawn(spawnB, id, uint32(i+1))
		m.advance(10)
		w := b.goroutine(id, 1, spawnB, uint32(i+1), m.now)
		w.run(work, 50)
		w.wait(lockB, trace.OpLock, 1, int64(1000*i+60))
		w.run(crit, int64(1000*i+960)-w.now)
		w.op(unlockB, trace.OpUnlock, 1)
		w.op(unlockB, trace.OpWGDone, 2)
		w.done()
		last = w.now
	}
	m.exec(waitB)
	m.wait(waitB, trace.OpWGWait, 2, last+100)
	m.done()
	return b.trace()
}

// allocated is the bytes Analyze allocates on tr.
func allocated(t *testing.T, tr *fakeTrace) (uint64, *Report) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rep, err := Analyze(tr, Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return after.TotalAlloc - before.TotalAlloc, rep
}

// TestManyGoroutinesLinear: the memory Analyze allocates grows with the
// goroutines that met on one lock, not with their square (it did while
// every path held a step per goroutine that reached it, and a snapshot of
// it per pair).
func TestManyGoroutinesLinear(t *testing.T) {
	small, rep := allocated(t, manyLock(300))
	if rep.Waits != 300 {
		t.Fatalf("%d waits, want 300", rep.Waits)
	}
	large, rep := allocated(t, manyLock(1200))
	if rep.Waits != 1200 {
		t.Fatalf("%d waits, want 1200", rep.Waits)
	}
	t.Logf("%d bytes at 300 goroutines, %d at 1200", small, large)
	// 4× the goroutines: 4× the bytes when linear, 16× when quadratic.
	if r := float64(large) / float64(small); r > 7 {
		t.Errorf("4× the goroutines allocated %.1f× the bytes (%d → %d), want linear", r, small, large)
	}
	lock := rep.Sites[0]
	for _, s := range rep.Sites {
		if s.Op == "lock" {
			lock = s
		}
	}
	if lock.Op != "lock" || len(lock.Classes) == 0 {
		t.Fatalf("no lock site: %+v", rep.Sites)
	}
	top := lock.Classes[0].Steps[0]
	if top.Pos != "many.go:12" || top.Goroutine != "main/worker@many.go:5#*" {
		t.Errorf("top step %s in %s, want many.go:12 in main/worker@many.go:5#*", top.Pos, top.Goroutine)
	}
	if top.Goroutines < 1000 || top.Goroutines > 1200 {
		t.Errorf("top step counts %d goroutines, want those that ran it", top.Goroutines)
	}
}

// TestFewGoroutinesNamed: up to keepEach goroutines of a go statement keep
// steps of their own, so a report on a few workers names the one whose
// step it is when only one ran it.
func TestFewGoroutinesNamed(t *testing.T) {
	rep, err := Analyze(manyLock(3), Options{KeepWaits: true})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := rep.WriteText(&text, 0); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "many.go:10 in main/worker@many.go:5#1") {
		t.Errorf("the first worker's own step is not named:\n%s", text.String())
	}
}
