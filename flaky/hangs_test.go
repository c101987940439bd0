package flaky

import (
	"strings"
	"testing"

	"github.com/divergo/divergo/waittime"
)

// TestFailedSince: the releasing operation of passing runs is looked for
// among the last operations on the blocked object in each failing run,
// goroutines started alike taken as one and a select by its case: never
// made, made only before the wait began (a lost wakeup), or made after.
func TestFailedSince(t *testing.T) {
	r := HangRelease{Goroutine: "T > worker@w.go:9#*", Pos: "w.go:40", Op: "send"}
	blocked := func(run int, since int64, ops ...waittime.ObjectOp) blockedAt {
		return blockedAt{waittime.BlockedGoroutine{Goroutine: "T > worker@w.go:9#2", Pos: "w.go:31", Op: "recv", SinceNs: since, LastOps: ops}, run}
	}
	send := func(g string, at int64) waittime.ObjectOp {
		return waittime.ObjectOp{Goroutine: g, Pos: "w.go:40", Op: "select (send)", TimeNs: at}
	}
	bs := []blockedAt{
		blocked(0, 100), // never
		blocked(1, 100, send("T > worker@w.go:9#1", 90)), // before the wait
		blocked(1, 100), // the same run again: counted once
		blocked(2, 100, send("T > worker@w.go:9#7", 120), waittime.ObjectOp{Goroutine: "T", Pos: "w.go:40", Op: "recv", TimeNs: 130}),
	}
	failedSince(&r, bs)
	if r.Never != 1 || r.Before != 1 {
		t.Errorf("never %d, before %d; want 1 and 1", r.Never, r.Before)
	}
	if r.FailMade != 2.0/3 {
		t.Errorf("made by %.2f goroutines a failing run, want 0.67", r.FailMade)
	}
}

// TestHangString: the text says where each goroutine waited and what ended
// that wait in passing runs, and names a wakeup lost when the releaser
// came only before the wait.
func TestHangString(t *testing.T) {
	h := Hang{Goroutine: "T", Pos: "t.go:26", Op: "wg.wait", Runs: 2, Of: 2, PassOf: 12}
	if got := h.String(); got != "T blocked in wg.wait at t.go:26 (in 2 of 2 failing runs, 0 of 12 passing)" {
		t.Errorf("without a release: %q", got)
	}
	h.Released = &HangRelease{Goroutine: "T > w@t.go:9#*", Pos: "t.go:20", Op: "wg.done", Runs: 70, Waited: 70, PassMade: 2, FailMade: 1}
	if got := h.String(); !strings.Contains(got, "in passing runs T > w@t.go:9#*'s wg.done at t.go:20 ended that wait (70 of 70 waits)") || strings.Contains(got, "never") {
		t.Errorf("released, made in the failing runs too: %q", got)
	}
	h.Released.Never = 2
	if got := h.String(); !strings.HasSuffix(got, "it never came in the failing runs") {
		t.Errorf("never made: %q", got)
	}
	h.Released.Never, h.Released.Before = 1, 1
	if got := h.String(); !strings.Contains(got, "a wakeup lost") {
		t.Errorf("made before the wait: %q", got)
	}
}

func TestReleaseOpName(t *testing.T) {
	for in, want := range map[string]string{"select (send)": "send", "select (recv)": "recv", "select": "select", "wg.done": "wg.done"} {
		if got := releaseOpName(in); got != want {
			t.Errorf("releaseOpName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBestNoReleaser: waits that ended with no recorded releaser (a
// timer's channel) give no release, not an empty one.
func TestBestNoReleaser(t *testing.T) {
	tally := &releaseTally{waited: 3, by: map[hangKey]int{}, made: map[hangKey][]float64{}}
	if r := tally.best(); r != nil {
		t.Errorf("best of waits without releasers: %+v, want nil", r)
	}
	k := hangKey{"T > w#*", "w.go:40", "send"}
	tally.by[k], tally.made[k] = 2, []float64{1, 3}
	if r := tally.best(); r == nil || r.Runs != 2 || r.Waited != 3 || r.PassMade != 2 {
		t.Errorf("best: %+v, want the send, 2 of 3 waits, made by 2 goroutines a run", r)
	}
}

// TestTwiceAsOften: a wait is a hang of the failing runs only when they
// leave it at least twice as often as passing runs do.
func TestTwiceAsOften(t *testing.T) {
	for _, c := range []struct {
		f, nf, p, np int
		want         bool
	}{
		{2, 2, 0, 12, true},     // only failing runs hang there
		{11, 12, 10, 12, false}, // nearly as often in passing runs
		{6, 12, 3, 12, true},    // exactly twice
		{5, 12, 3, 12, false},
		{1, 1, 0, 0, true}, // no passing run read
		{0, 3, 0, 12, false},
	} {
		if got := twiceAsOften(c.f, c.nf, c.p, c.np); got != c.want {
			t.Errorf("twiceAsOften(%d of %d failing, %d of %d passing) = %v, want %v", c.f, c.nf, c.p, c.np, got, c.want)
		}
	}
}
