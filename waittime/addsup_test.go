package waittime

import (
	"math"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestSpawnSnapshotBeforeChildWaits is the first cause of
// explanations that did not add up: main starts a, computes, starts b and
// computes again before its next timestamp; a waits for b, and its wait
// ends before that timestamp. The snapshot of main's path at b's go
// statement must be there when a's wait is explained: a waited for main's
// computation between the two go statements.
func TestSpawnSnapshotBeforeChildWaits(t *testing.T) {
	b := newBuilder("spawn.go")
	entry, spin1, spin2 := b.block("main", 10, 1), b.block("main", 12, 1000), b.block("main", 14, 500)
	aRun, aRecv, aSend := b.block("a", 20, 10), b.block("a", 21, 1), b.block("a", 22, 1)
	bRun, bSend := b.block("b", 30, 10), b.block("b", 31, 1)
	const ready, done = 1, 2

	m := b.goroutine(1, 0, 0, 0, 0)
	m.exec(entry)
	m.spawn(entry, 2, 1)
	m.exec(spin1)
	m.spawn(spin1, 3, 1)
	m.exec(spin2)
	m.now = 150 * ms // no timestamp from 0 to 150 ms: 1501 instructions
	m.wait(spin2, trace.OpRecv, done, 150*ms)
	m.done()

	a := b.goroutine(2, 1, entry, 1, 1*ms)
	a.run(aRun, 1*ms)
	a.wait(aRecv, trace.OpRecv, ready, 101*ms+200*us)
	a.op(aSend, trace.OpSend, done)
	a.done()

	bg := b.goroutine(3, 1, spin1, 1, 100*ms+500*us)
	bg.run(bRun, 500*us)
	bg.op(bSend, trace.OpSend, ready)
	bg.done()

	rep, err := Analyze(b.trace(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := siteAt(t, rep, aRecv, trace.OpRecv)
	c := s.Classes[0]
	if c.Explained < 0.99 {
		t.Errorf("a's wait is %.0f%% explained, want 100%%", 100*c.Explained)
	}
	// main's spin1 ran from about 0.1 to 100 ms: 1000/1501 of 150 ms.
	if got, want := attributed(s, spin1), 99.93/99.2; math.Abs(got-want) > 0.01 {
		t.Errorf("spin1 explains %.3f of a's wait, want %.3f", got, want)
	}
	checkAddsUp(t, rep)
}

// TestUnrelatedReleaser is cause (b): a goroutine that uninstrumented code
// started (time.AfterFunc) has no spawn chain. It counts from its start;
// the waiter's time around that start is an outside step with no line.
func TestUnrelatedReleaser(t *testing.T) {
	for _, c := range []struct {
		name       string
		begin      int64 // main's wait begins
		outside    int64 // the outside step
		mainRunsMs int64
	}{
		{"waiting before the start", 10 * ms, 20 * ms, 10},
		{"running after the start", 40 * ms, -10 * ms, 40},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBuilder("after.go")
			run, recv := b.block("main", 10, 10), b.block("main", 11, 1)
			fRun, fSend := b.block("main$1", 20, 10), b.block("main$1", 21, 1)
			const ch = 1
			m := b.goroutine(1, 0, 0, 0, 0)
			m.run(run, c.begin)
			m.wait(recv, trace.OpRecv, ch, 60*ms)
			m.done()
			f := b.goroutine(2, 0, 0, 0, 30*ms)
			f.run(fRun, 20*ms)
			f.op(fSend, trace.OpSend, ch)
			f.done()

			rep, err := Analyze(b.trace(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := siteAt(t, rep, recv, trace.OpRecv)
			var outside int64
			for _, st := range s.Classes[0].Steps {
				if st.State == Outside.String() {
					outside += st.Ns
					if st.Pos != "" {
						t.Errorf("outside step names line %s", st.Pos)
					}
				}
				if st.Block == int(run) {
					t.Errorf("main's run before the releaser started explains the wait: %+v", st)
				}
			}
			if outside != c.outside {
				t.Errorf("outside step %s, want %s", FormatNs(outside), FormatNs(c.outside))
			}
			if got := attributed(s, fRun); math.Abs(got-float64(20*ms)/float64(s.TotalNs)) > 0.01 {
				t.Errorf("the releaser's run explains %.2f of the wait", got)
			}
			checkAddsUp(t, rep)
			var text strings.Builder
			rep.WriteText(&text, 0)
			if !strings.Contains(text.String(), "(not aligned: started outside instrumented code) in ") {
				t.Errorf("text does not mark the outside step:\n%s", text.String())
			}
		})
	}
}

// checkAddsUp requires every class's steps and unexplained time to add up
// to its waiting time, its explained share to be in [0, 1], and 95% or
// more (the default tolerance).
func checkAddsUp(t *testing.T, rep *Report) {
	t.Helper()
	for _, s := range rep.Sites {
		for i, c := range s.Classes {
			sum := c.UnexplainedNs
			for _, st := range c.Steps {
				sum += st.Ns
			}
			if sum != c.TotalNs {
				t.Errorf("%s %s class %d: steps and unexplained add up to %d, waiting time %d", s.Pos, s.Op, i+1, sum, c.TotalNs)
			}
			if c.Explained < DefaultTolerance || c.Explained > 1 {
				t.Errorf("%s %s class %d: %.1f%% explained, want 95..100%%", s.Pos, s.Op, i+1, 100*c.Explained)
			}
		}
	}
}

// TestRowsMergeByLine: a loop header and its post statement are two blocks
// on one line; the report shows one step for them unless Options.Blocks.
func TestRowsMergeByLine(t *testing.T) {
	b := newBuilder("loop.go")
	entry, recv := b.block("main", 10, 1), b.block("main", 11, 1)
	head, post, send := b.block("w", 20, 10), b.block("w", 20, 10), b.block("w", 21, 1)
	const ch = 1
	m := b.goroutine(1, 0, 0, 0, 0)
	m.exec(entry)
	m.spawn(entry, 2, 1)
	m.advance(0)
	m.wait(recv, trace.OpRecv, ch, 20*ms)
	m.done()
	w := b.goroutine(2, 1, entry, 1, 0)
	w.exec(head, post, head, post)
	w.advance(20 * ms)
	w.op(send, trace.OpSend, ch)
	w.done()
	for _, blocks := range []bool{false, true} {
		rep, err := Analyze(b.trace(), Options{Blocks: blocks})
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		for _, st := range siteAt(t, rep, recv, trace.OpRecv).Classes[0].Steps {
			rows = append(rows, stepLine(st, blocks))
		}
		want := []string{"+ loop.go:20 in main/w@loop.go:10#1  20.0 ms"}
		if blocks {
			want = []string{"+ loop.go:20 [block 2] in main/w@loop.go:10#1  10.0 ms", "+ loop.go:20 [block 3] in main/w@loop.go:10#1  10.0 ms"}
		}
		if strings.Join(rows, "\n") != strings.Join(want, "\n") {
			t.Errorf("blocks=%v: steps\n%s\nwant\n%s", blocks, strings.Join(rows, "\n"), strings.Join(want, "\n"))
		}
	}
}
