package waittime

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// steps renders a class's steps as "+line/state:ns" terms.
func stepsOf(t *testing.T, rep *Report, pos string) string {
	t.Helper()
	for _, s := range rep.Sites {
		if s.Pos == pos {
			var terms []string
			for _, c := range s.Classes {
				for _, st := range c.Steps {
					line := st.Pos[strings.LastIndexByte(st.Pos, ':')+1:]
					if st.State != "running" {
						line += "/" + st.State
					}
					terms = append(terms, line+":"+FormatNs(st.Ns))
				}
			}
			return strings.Join(terms, " ")
		}
	}
	t.Fatalf("no site at %s", pos)
	return ""
}

// TestInterpolation: time between two timestamps goes to the blocks run in
// between by count × instructions, a go statement splits it, and the time
// from the go statement to the child's start is the child's runnable step.
func TestInterpolation(t *testing.T) {
	b := newBuilder("x.go")
	x, y := b.block("rel", 10, 10), b.block("rel", 11, 30)
	unlock, lock := b.block("rel", 12, 1), b.block("wai", 20, 1)
	pa, pb, pwait := b.block("par", 30, 10), b.block("par", 31, 10), b.block("par", 32, 1)
	c, done := b.block("child", 40, 10), b.block("child", 41, 1)
	const mu, wg = 1, 2

	m := b.goroutine(1, 0, 0, 0, 0)
	m.spawn(pa, 2, 1)
	m.spawn(pa, 3, 2)
	m.exec(pa)
	m.spawn(pa, 4, 3)
	m.exec(pb)
	m.advance(20 * ms) // pa before the spawn, pb after: 10 ms each
	m.wait(pwait, trace.OpWGWait, wg, 40*ms+lat)
	m.done()

	r := b.goroutine(2, 1, pa, 1, 0)
	r.exec(x, x, y) // 20 vs 30 weighted: 40 and 60 ms
	r.advance(100 * ms)
	r.op(unlock, trace.OpUnlock, mu)
	r.done()

	w := b.goroutine(3, 1, pa, 2, 0)
	w.wait(lock, trace.OpLock, mu, 100*ms+lat)
	w.done()

	ch := b.goroutine(4, 1, pa, 3, 12*ms) // 2 ms runnable after the go statement at 10 ms
	ch.run(c, 28*ms)
	ch.op(done, trace.OpWGDone, wg)
	ch.done()

	rep, err := Analyze(b.trace(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := stepsOf(t, rep, "x.go:20"), "11:60.0 ms 10:40.0 ms 20/runnable:20.0 µs"; got != want {
		t.Errorf("lock explained as %q, want %q", got, want)
	}
	if got, want := stepsOf(t, rep, "x.go:32"), "40:28.0 ms 31:-10.0 ms 30/runnable:2.00 ms 32/runnable:20.0 µs"; got != want {
		t.Errorf("join explained as %q, want %q", got, want)
	}
}

// TestReleasers covers the releaser rules: slack after the wait's end, no
// releaser at all, sleep as a step of its own, and a wait still blocked at
// the end of the trace.
func TestReleasers(t *testing.T) {
	b := newBuilder("r.go")
	work, sleep, send, send2 := b.block("a", 10, 10), b.block("a", 11, 1), b.block("a", 12, 1), b.block("a", 13, 1)
	recv, recvLate, recvNone, stuck := b.block("b", 20, 1), b.block("b", 21, 1), b.block("b", 22, 1), b.block("b", 23, 1)
	const ch, ch2, other = 1, 2, 3

	a := b.goroutine(1, 0, 0, 0, 0)
	a.run(work, 10*ms)
	a.wait(sleep, trace.OpSleep, 0, 60*ms) // 50 ms asleep
	a.op(send, trace.OpSend, ch)           // at 60 ms
	a.advance(5*us + 300)
	a.op(send2, trace.OpSend, ch2) // 300 ns after b's wait on ch2 ended: clocks joined a little apart
	a.done()

	bg := b.goroutine(2, 0, 0, 0, 0)
	bg.wait(recv, trace.OpRecv, ch, 60*ms)
	bg.wait(recvLate, trace.OpRecv, ch2, 60*ms+5*us)
	bg.wait(recvNone, trace.OpRecv, other, 70*ms)
	bg.emit(trace.Event{Kind: trace.EvBlock, Block: stuck})
	bg.emit(trace.Event{Kind: trace.EvSync, Block: stuck, Op: trace.OpLock, Object: 9, Waited: true, Blocked: true, Begin: 70 * ms, End: 90 * ms})
	// b never ends: it is still blocked when the trace ends.

	rep, err := Analyze(b.trace(), Options{KeepWaits: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := stepsOf(t, rep, "r.go:20"), "11/sleep:50.0 ms 10:10.0 ms"; got != want {
		t.Errorf("recv explained as %q, want %q", got, want)
	}
	late := siteAt(t, rep, recvLate, trace.OpRecv)
	if late.Unmatched != 0 || late.Instances[0].ReleaserName != "main" || late.Instances[0].ReleasePos != "r.go:13" {
		t.Errorf("release 300 ns after the wait's end not taken: %+v", late.Instances)
	}
	none := siteAt(t, rep, recvNone, trace.OpRecv)
	if none.Unmatched != 1 || len(none.Classes) != 0 || none.Instances[0].Class != -1 {
		t.Errorf("wait on an object nobody released: %+v", none)
	}
	for _, s := range rep.Sites {
		if s.Op == "sleep" {
			t.Errorf("sleep reported as a site: %+v", s)
		}
	}
	if bl := rep.Blocked; bl == nil || bl.Verdict != "leak" || len(bl.Goroutines) != 1 || bl.Goroutines[0].Block != int(stuck) ||
		bl.Goroutines[0].SinceNs != 70*ms || bl.Goroutines[0].SeenNs != 90*ms || bl.Goroutines[0].Object != 9 || len(bl.Goroutines[0].LastOps) != 0 {
		t.Errorf("blocked goroutines: %+v", rep.Blocked)
	}
	if rep.Unmatched != 1 || rep.Waits != 3 {
		t.Errorf("report counts %d waits, %d unmatched; want 3, 1", rep.Waits, rep.Unmatched)
	}
}

func TestRemoveRedundant(t *testing.T) {
	k := func(g uint64, block int32) stepKey { return stepKey{g, block, Running} }
	e := func(g uint64, block int32, ns int64) entry { return entry{k(g, block), ns} }
	tests := []struct {
		name        string
		long, short []entry
		w           int64
		tol         float64
		want        []entry
	}{
		{"equal step removed", []entry{e(1, 1, 100), e(1, 2, 50)}, []entry{e(2, 1, 100)}, 50, 0.95,
			[]entry{e(1, 2, 50)}},
		{"step that differs kept", []entry{e(1, 1, 100), e(1, 2, 50)}, []entry{e(2, 1, 60)}, 90, 0.95,
			[]entry{e(1, 1, 100), e(2, 1, -60), e(1, 2, 50)}},
		{"stop at the first that moves too much", []entry{e(1, 1, 10), e(1, 3, 30), e(1, 2, 100)}, []entry{e(2, 1, 9), e(2, 3, 20)}, 111, 0.95,
			[]entry{e(1, 2, 100), e(1, 3, 30), e(2, 3, -20)}},
		{"shifts add up", []entry{e(1, 1, 12), e(1, 3, 14), e(1, 2, 100)}, []entry{e(2, 1, 10), e(2, 3, 10)}, 100, 0.95,
			[]entry{e(1, 2, 100), e(1, 3, 14), e(2, 3, -10)}},
		{"the waiter's longer step too", []entry{e(1, 1, 10), e(1, 2, 100)}, []entry{e(2, 1, 12)}, 98, 0.95,
			[]entry{e(1, 2, 100)}},
		{"tolerance 1 removes exact ones only", []entry{e(1, 1, 10), e(1, 3, 5), e(1, 2, 100)}, []entry{e(2, 1, 10), e(2, 3, 4)}, 101, 1,
			[]entry{e(1, 2, 100), e(1, 3, 5), e(2, 3, -4)}},
		{"same goroutine cancels", []entry{e(1, 1, 10), e(3, 2, 40)}, []entry{e(1, 1, 10)}, 40, 0.95,
			[]entry{e(3, 2, 40)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &analysis{opts: Options{Tolerance: tt.tol}}
			got := a.removeRedundant(tt.long, tt.short, tt.w, nil)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func TestDistance(t *testing.T) {
	x, y, z := kind{1, Running}, kind{2, Running}, kind{3, Running}
	tests := []struct {
		name string
		r, p []share
		want float64
	}{
		{"same", []share{{x, 0.8}, {y, 0.2}}, []share{{x, 0.8}, {y, 0.2}}, 0},
		{"disjoint", []share{{x, 1}}, []share{{z, 1}}, 2},
		{"half the time moved", []share{{x, 1}}, []share{{x, 0.5}, {y, 0.5}}, 1},
		{"both empty", nil, nil, 0},
		{"negative shares", []share{{x, 0.75}, {y, -0.25}}, []share{{x, 0.75}, {z, -0.25}}, 0.5},
		{"interleaved", []share{{x, 0.5}, {z, 0.5}}, []share{{y, 0.5}, {z, 0.5}}, 1},
	}
	for _, tt := range tests {
		if got := distance(tt.r, tt.p); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: distance %g, want %g", tt.name, got, tt.want)
		}
	}
	rel := relative([]entry{{stepKey{1, 1, Running}, 300}, {stepKey{2, 1, Running}, 100}, {stepKey{1, 2, Running}, -100}}, nil)
	if len(rel) != 2 || rel[0] != (share{x, 0.8}) || rel[1] != (share{y, -0.2}) {
		t.Errorf("relative shares %v, want x 0.8 (two goroutines), y -0.2", rel)
	}
}

type errIter struct{ n int }

func (e *errIter) Next() bool {
	e.n++
	return e.n < 3
}
func (e *errIter) Event() trace.Event { return trace.Event{Kind: trace.EvClock, Time: int64(e.n)} }
func (e *errIter) Err() error         { return errors.New("chunk 7 is cut short") }

type errTrace struct{ *fakeTrace }

func (e errTrace) Events(id uint64) (trace.EventIter, error) { return &errIter{}, nil }

func TestBadInput(t *testing.T) {
	b := newBuilder("e.go")
	blk := b.block("f", 1, 1)
	g := b.goroutine(1, 0, 0, 0, 0)
	g.exec(blk, 99)
	g.done()
	dup := newBuilder("e.go")
	dup.block("f", 1, 1)
	dup.goroutine(1, 0, 0, 0, 0)
	dup.goroutine(1, 0, 0, 0, 0)
	odd := newBuilder("e.go")
	odd.block("f", 1, 1)
	odd.goroutine(1, 0, 0, 0, 0).emit(trace.Event{Kind: 42})
	tests := []struct {
		name string
		tr   Trace
		opts Options
		want string
	}{
		{"block out of range", b.trace(), Options{}, "goroutine 1 event 2: block 99 is not in the graph"},
		{"goroutine twice", dup.trace(), Options{}, "goroutine 1 is listed twice"},
		{"unknown event", odd.trace(), Options{}, "goroutine 1 event 1: unknown event kind 42"},
		{"reader error", errTrace{b.trace()}, Options{}, "reading goroutine 1 after event 2: chunk 7 is cut short"},
		{"no graph", &fakeTrace{}, Options{}, "trace has no graph"},
		{"tolerance", b.trace(), Options{Tolerance: 1.5}, "tolerance 1.5 is not in (0, 1]"},
		{"threshold", b.trace(), Options{Threshold: -1}, "threshold -1 is not in (0, 2]"},
	}
	for _, tt := range tests {
		_, err := Analyze(tt.tr, tt.opts)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestFormatNs(t *testing.T) {
	tests := []struct {
		ns   int64
		want string
	}{
		{0, "0 ns"}, {999, "999 ns"}, {1000, "1.00 µs"}, {-3400, "-3.40 µs"}, {12_345_678, "12.3 ms"},
		{180e6, "180 ms"}, {999_960_000, "1000 ms"}, {1_250_000_000, "1.25 s"},
	}
	for _, tt := range tests {
		if got := FormatNs(tt.ns); got != tt.want {
			t.Errorf("FormatNs(%d) = %q, want %q", tt.ns, got, tt.want)
		}
	}
}

// TestPrune: a fork-join of many rounds, where main's path would gather the
// steps of every worker, gives the same report with pruning as without.
func TestPrune(t *testing.T) {
	analyze := func() string {
		rep, err := Analyze(forkJoinGen(300), Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := rep.Sites[0]
		if s.Waits != 300 || len(s.Classes) != 1 || s.Classes[0].Explained < 0.9 {
			t.Fatalf("join: %d waits, %d classes, want 300 waits in 1 class", s.Waits, len(s.Classes))
		}
		var buf strings.Builder
		rep.WriteText(&buf, 0)
		return buf.String()
	}
	pruned := analyze()
	defer func(n int) { minPrune = n }(minPrune)
	minPrune = 1 << 40
	if whole := analyze(); whole != pruned {
		t.Errorf("pruning changed the report:\n%s\nwithout:\n%s", pruned, whole)
	}
}

// TestSelectWithoutObject: the runtime records selects on object 0; they
// release nobody and nobody releases them.
func TestSelectWithoutObject(t *testing.T) {
	b := newBuilder("s.go")
	sa, sb := b.block("a", 10, 1), b.block("b", 20, 1)
	a := b.goroutine(1, 0, 0, 0, 0)
	a.advance(5 * ms)
	a.op(sa, trace.OpSelect, 0)
	a.done()
	bg := b.goroutine(2, 0, 0, 0, 0)
	bg.wait(sb, trace.OpSelect, 0, 5*ms+lat)
	bg.done()
	rep, err := Analyze(b.trace(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sites) != 1 || rep.Sites[0].Unmatched != 1 || len(rep.Sites[0].Classes) != 0 {
		t.Errorf("select on object 0 matched: %+v", rep.Sites)
	}
}

// TestRelatives: goroutines that never synchronized directly are compared
// from their lowest common ancestor's go statements.
func TestRelatives(t *testing.T) {
	b := newBuilder("rel.go")
	m, mw := b.block("main", 10, 10), b.block("main", 11, 1)
	a0, x, lock := b.block("a", 20, 10), b.block("a1", 30, 10), b.block("a1", 31, 1)
	y, blk, unlock := b.block("b", 40, 10), b.block("b", 41, 1), b.block("b", 42, 1)
	c0, d, done := b.block("c", 50, 10), b.block("d", 60, 10), b.block("d", 61, 1)
	const mu, wg = 1, 2

	// Cousins: main starts a (at 0) and b (at 10 ms); a starts a1 (at 5
	// ms); a1 waits from 25 to 40 ms for the mutex b holds.
	mg := b.goroutine(1, 0, 0, 0, 0)
	mg.spawn(m, 2, 1)
	mg.exec(m)
	mg.advance(10 * ms)
	mg.spawn(m, 3, 2)
	mg.spawn(m, 5, 3)
	mg.exec(m)
	mg.advance(10 * ms)                    // 20
	mg.wait(mw, trace.OpWGWait, wg, 45*ms) // grandparent: waits for d
	mg.done()

	ag := b.goroutine(2, 1, m, 1, 0)
	ag.run(a0, 5*ms)
	ag.spawn(a0, 4, 1)
	ag.advance(0)
	ag.done()
	a1 := b.goroutine(4, 2, a0, 1, 5*ms)
	a1.run(x, 20*ms)
	a1.wait(lock, trace.OpLock, mu, 40*ms)
	a1.done()
	bg := b.goroutine(3, 1, m, 2, 10*ms)
	bg.op(blk, trace.OpLock, mu)
	bg.run(y, 30*ms)
	bg.op(unlock, trace.OpUnlock, mu)
	bg.done()

	// Grandchild: main starts c at 10 ms; c starts d after 5 ms; d runs
	// 30 ms; main waits for it from 20 to 45 ms.
	cg := b.goroutine(5, 1, m, 3, 10*ms)
	cg.run(c0, 5*ms)
	cg.spawn(c0, 6, 1)
	cg.advance(0)
	cg.done()
	dg := b.goroutine(6, 5, c0, 1, 15*ms)
	dg.run(d, 30*ms)
	dg.op(done, trace.OpWGDone, wg)
	dg.done()

	rep, err := Analyze(b.trace(), Options{Slack: -1})
	if err != nil {
		t.Fatal(err)
	}
	// a1's side from 0: a0 5 + x 20 = 25; b's: main's m 10 + y 30 = 40.
	if got, want := stepsOf(t, rep, "rel.go:31"), "40:30.0 ms 30:-20.0 ms 10:10.0 ms 20:-5.00 ms"; got != want {
		t.Errorf("cousins' wait explained as %q, want %q", got, want)
	}
	// main's side since it started c (10 ms): m 10; d's: c0 5 + d 30.
	if got, want := stepsOf(t, rep, "rel.go:11"), "60:30.0 ms 10:-10.0 ms 50:5.00 ms"; got != want {
		t.Errorf("grandchild's release explained as %q, want %q", got, want)
	}
}
