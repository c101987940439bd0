package waittime

import (
	"fmt"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// blockedAt ends g's script blocked in op on obj since now, seen at seen.
func (g *gscript) blockedAt(block uint32, op trace.Op, obj uint64, seen int64) {
	g.emit(trace.Event{Kind: trace.EvBlock, Block: block})
	g.emit(trace.Event{Kind: trace.EvSync, Block: block, Op: op, Object: obj, Waited: true, Blocked: true, Begin: g.now, End: seen})
}

// TestFindBlockedDeadlock is a lock-order deadlock: main holds mutex A and
// waits for B, the worker holds B and waits for A. Both are listed, each
// with the other as the last to operate on what it waits for.
func TestFindBlockedDeadlock(t *testing.T) {
	const ms = int64(1e6)
	b := newBuilder("d.go")
	lockA := b.block("main", 10, 2)
	lockB := b.block("main", 12, 2)
	wLockB := b.block("worker", 20, 2)
	wLockA := b.block("worker", 22, 2)
	const muA, muB = 0xa0, 0xb0

	m := b.goroutine(1, 0, 0, 0, 0)
	m.op(lockA, trace.OpLock, muA)
	m.spawn(lockA, 2, 1)
	m.advance(2 * ms)
	m.blockedAt(lockB, trace.OpLock, muB, 50*ms)

	w := b.goroutine(2, 1, lockA, 1, 1*ms)
	w.op(wLockB, trace.OpLock, muB)
	w.advance(2 * ms)
	w.blockedAt(wLockA, trace.OpLock, muA, 50*ms)
	b.tr.gs[0].Path, b.tr.gs[1].Path = "main", "main/worker@d.go:10#1"

	bl, err := FindBlocked(b.trace())
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := bl.WriteText(&out, 0); err != nil {
		t.Fatal(err)
	}
	want := `Deadlock: every goroutine still running (2) was blocked, none left to release the others.
  main: lock at d.go:12 on mutex 0xb0, blocked since 2.00 ms (for 48.0 ms)
      last on it: main/worker@d.go:10#1 lock at d.go:20 (1.00 ms), itself blocked at d.go:22
  main/worker@d.go:10#1: lock at d.go:22 on mutex 0xa0, blocked since 3.00 ms (for 47.0 ms)
      last on it: main lock at d.go:10 (0 ns), itself blocked at d.go:12
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if bl.Verdict != "deadlock" {
		t.Errorf("verdict %q", bl.Verdict)
	}
}

// TestFindBlockedNone: a trace whose goroutines all ended has nothing
// blocked, and a goroutine still running but not blocked is no deadlock.
func TestFindBlockedNone(t *testing.T) {
	b := newBuilder("n.go")
	blk := b.block("main", 5, 1)
	m := b.goroutine(1, 0, 0, 0, 0)
	m.run(blk, 10)
	m.done()
	if bl, err := FindBlocked(b.trace()); err != nil || bl != nil {
		t.Fatalf("FindBlocked = %+v, %v; want nothing", bl, err)
	}

	b = newBuilder("n.go")
	blk = b.block("main", 5, 1)
	wblk := b.block("worker", 9, 1)
	m = b.goroutine(1, 0, 0, 0, 0)
	m.run(blk, 10)
	m.blockedAt(blk, trace.OpRecv, 7, 100)
	w := b.goroutine(2, 1, blk, 1, 0)
	w.run(wblk, 50) // still running when the trace ended (SIGTERM)
	bl, err := FindBlocked(b.trace())
	if err != nil || bl == nil || bl.Verdict != "blocked" || len(bl.Goroutines) != 1 {
		t.Fatalf("FindBlocked = %+v, %v; want main blocked, no deadlock", bl, err)
	}
	if !strings.HasPrefix(bl.Summary, "1 goroutine was blocked when the trace ended (2 still running)") {
		t.Errorf("summary %q", bl.Summary)
	}
}

// TestFindBlockedAsleep: a goroutine asleep when the trace ended (a
// ticking loop's time.Sleep(time.Millisecond)) is not blocked, whether
// main returned (no leak) or another goroutine is blocked (no deadlock:
// the sleeper would have woken).
func TestFindBlockedAsleep(t *testing.T) {
	b := newBuilder("s.go")
	blk := b.block("main", 5, 1)
	tick := b.block("tick", 10, 1)
	m := b.goroutine(1, 0, 0, 0, 0)
	m.run(blk, 10)
	m.spawn(blk, 2, 1)
	m.done()
	w := b.goroutine(2, 1, blk, 1, 0)
	w.run(tick, 10)
	w.blockedAt(tick, trace.OpSleep, 0, 1_000_000)
	if bl, err := FindBlocked(b.trace()); err != nil || bl != nil {
		t.Fatalf("main returned while a goroutine slept: FindBlocked = %+v, %v; want nothing", bl, err)
	}

	b = newBuilder("s.go")
	blk = b.block("main", 5, 1)
	tick = b.block("tick", 10, 1)
	m = b.goroutine(1, 0, 0, 0, 0)
	m.run(blk, 10)
	m.spawn(blk, 2, 1)
	m.blockedAt(blk, trace.OpRecv, 7, 1_000_000)
	w = b.goroutine(2, 1, blk, 1, 0)
	w.run(tick, 10)
	w.blockedAt(tick, trace.OpSleep, 0, 1_000_000)
	bl, err := FindBlocked(b.trace())
	if err != nil || bl == nil || bl.Verdict != "blocked" || len(bl.Goroutines) != 1 || bl.Goroutines[0].GID != 1 {
		t.Fatalf("FindBlocked = %+v, %v; want main alone blocked, no deadlock", bl, err)
	}
}

// TestBlockedTextBounded: a report of many blocked goroutines on deep
// spawn paths lists the first maxBlockedText of them, says how many it
// left out, and shortens each path, naming the goroutine by its ID; with
// no bound it lists every one.
func TestBlockedTextBounded(t *testing.T) {
	const ms = int64(1e6)
	b := newBuilder("d.go")
	recv := b.block("main", 10, 2)
	wRecv := b.block("worker", 20, 2)
	m := b.goroutine(1, 0, 0, 0, 0)
	const workers = 12
	for i := range workers {
		m.spawn(recv, uint64(i+2), uint32(i+1))
	}
	m.blockedAt(recv, trace.OpRecv, 0x100, 50*ms)
	b.tr.gs[0].Path = "main"
	deep := "main/" + strings.Repeat("stage@d.go:15#1/", 6)
	for i := range workers {
		w := b.goroutine(uint64(i+2), 1, recv, uint32(i+1), 1*ms)
		w.blockedAt(wRecv, trace.OpRecv, uint64(0x200+i), 50*ms)
		b.tr.gs[i+1].Path = fmt.Sprintf("%sworker@d.go:12#%d", deep, i+1)
	}
	bl, err := FindBlocked(b.trace())
	if err != nil {
		t.Fatal(err)
	}
	if len(bl.Goroutines) != workers+1 {
		t.Fatalf("%d blocked goroutines, want %d", len(bl.Goroutines), workers+1)
	}
	// Ordinals in order as numbers, so the ten listed are main and #1 to #9.
	for i, g := range bl.Goroutines[1:] {
		if want := fmt.Sprintf("#%d", i+1); !strings.HasSuffix(g.Goroutine, want) {
			t.Errorf("blocked goroutine %d is %s, want one ending in %s", i+1, g.Goroutine, want)
		}
	}
	var out strings.Builder
	if err := bl.WriteText(&out, 5); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if n := strings.Count(text, ": recv at "); n != maxBlockedText {
		t.Errorf("%d goroutines listed, want %d:\n%s", n, maxBlockedText, text)
	}
	if want := fmt.Sprintf("  ... %d more blocked goroutines (-json lists every one)\n", workers+1-maxBlockedText); !strings.HasSuffix(text, want) {
		t.Errorf("the text does not end with %q:\n%s", want, text)
	}
	if !strings.Contains(text, "\n  main/…/stage@d.go:15#1/") || !strings.Contains(text, "/worker@d.go:12#1 (ID 2): recv at d.go:20") {
		t.Errorf("no shortened path with its ID:\n%s", text)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, deep) {
			t.Errorf("a whole deep path: %s", line)
		}
	}
	out.Reset()
	if err := bl.WriteText(&out, 0); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), ": recv at "); n != workers+1 {
		t.Errorf("unbounded: %d goroutines listed, want %d", n, workers+1)
	}
}

// TestStepLineShortPath: a step of a goroutine deep in a spawn tree names
// it by the root and the end of its path, as the blocked list does, so
// that a report's lines fit a screen.
func TestStepLineShortPath(t *testing.T) {
	deep := "main/" + strings.Repeat("Mul$1@p.go:461#1/", 6) + "dosplit@p.go:99#1"
	got := stepLine(Step{Pos: "p.go:105", State: Running.String(), Goroutine: deep, Ns: 267000}, false)
	want := "+ p.go:105 in " + trace.ElidePath(deep, trace.MaxPathText) + "  267 µs"
	if got != want || strings.Contains(got, deep) {
		t.Errorf("got %q, want %q", got, want)
	}
}
