package compare

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

func mustCompare(t *testing.T, a, b Trace) *Report {
	t.Helper()
	rep, err := Traces(a, b, Options{Weights: DefaultWeights})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestSelfAndTiming(t *testing.T) {
	f := newFig1(t)
	tests := []struct {
		name string
		a, b *memTrace
	}{
		{"itself", f.run(1, 0, 0), f.run(1, 0, 0)},
		{"same path, other timing and ids", f.run(0, 0, 1000), f.run(0, 50, 987654)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := mustCompare(t, tt.a, tt.b)
			if rep.Distance != 0 || !rep.Summary.Same || len(rep.Sections) != 0 || rep.Summary.LockOrder != 0 {
				t.Errorf("distance %v, same %v, %d sections, %d lock notes; want 0, true, 0, 0", rep.Distance, rep.Summary.Same, len(rep.Sections), rep.Summary.LockOrder)
			}
			if rep.Summary.Matched != 3 || rep.Summary.BlocksA != rep.Summary.BlocksB {
				t.Errorf("matched %d, blocks %d/%d", rep.Summary.Matched, rep.Summary.BlocksA, rep.Summary.BlocksB)
			}
		})
	}
}

func TestDifferentPrograms(t *testing.T) {
	f1, f2 := newFig1(t), newFig2(t)
	_, err := Traces(f1.run(0, 0, 0), f2.run(1), Options{Weights: DefaultWeights})
	var dp *DifferentPrograms
	if !errors.As(err, &dp) || !strings.Contains(err.Error(), f1.g.ShortHash()) || !strings.Contains(err.Error(), f2.g.ShortHash()) {
		t.Fatalf("err = %v, want one naming both graph hashes", err)
	}
}

// TestTwoCommands: two commands of one module record under the module's
// one graph; traces of the two are refused, naming both main packages,
// and two traces of one are compared.
func TestTwoCommands(t *testing.T) {
	b := newBuilder("cmd/a/main.go")
	mainA := b.fn("example.com/m/cmd/a.main", 3)
	mainB := b.fn("example.com/m/cmd/b.main", 3)
	b.g.Funcs[mainA].Pkg, b.g.Funcs[mainB].Pkg = "example.com/m/cmd/a", "example.com/m/cmd/b"
	ea, eb := b.block(mainA, "entry", 4, true, ""), b.block(mainB, "entry", 4, true, "")
	b.exit(ea)
	b.exit(eb)
	g := b.graph(t)
	runOf := func(entry int) *memTrace {
		m := newMem(g).add(1, 0, 0, 0, blk(entry), ret(entry))
		m.gs[0].FirstBlock, m.gs[0].HasFirst = uint32(entry), true
		return m
	}
	_, err := Traces(runOf(ea), runOf(eb), Options{})
	var dp *DifferentPrograms
	if !errors.As(err, &dp) || !strings.Contains(err.Error(), "example.com/m/cmd/a and in example.com/m/cmd/b") || !strings.Contains(err.Error(), g.ShortHash()) {
		t.Fatalf("err = %v, want one naming the graph and both main packages", err)
	}
	if rep, err := Traces(runOf(eb), runOf(eb), Options{}); err != nil || !rep.Summary.Same {
		t.Fatalf("two traces of one command: %v", err)
	}
}

// branchy is a function with an if the analyzer did not mark, followed by a
// loop it did not mark either, and a call in the then branch:
//
//	10 func f() {
//	11 	if cond() {     // no TCP
//	12 		g()
//	13 	} else {
//	14 		h := 1
//	15 	}
//	16 	for p() {       // no TCP
//	17 		work()
//	18 	}
//	19 	done()
//	20 }
//	22 func g() { ... }
type branchy struct {
	g                                  *tbb.Graph
	labels                             map[int]string
	entry, then, els, join, body, done int
	gEntry                             int
}

func newBranchy(t testing.TB, flagged bool) *branchy {
	b := newBuilder("branchy/f.go")
	x := &branchy{}
	f := b.fn("example.com/m.f", 10)
	x.entry = b.block(f, "entry", 11, true, "entry")
	x.then = b.block(f, "if.then", 12, true, "then")
	x.els = b.block(f, "if.else", 14, true, "else")
	x.join = b.block(f, "if.done", 16, true, "join")
	head := b.block(f, "for.loop", 16, false, "head")
	x.body = b.block(f, "for.body", 17, true, "body")
	x.done = b.block(f, "for.done", 19, true, "done")
	b.edge(x.entry, x.then, x.els)
	b.edge(x.then, x.join)
	b.edge(x.els, x.join)
	b.edge(x.join, head)
	b.edge(head, x.body, x.done)
	b.edge(x.body, head)
	b.exit(x.done)
	if flagged {
		b.tcp(x.entry, tbb.Branch, 11, x.join)
		b.tcp(head, tbb.Loop, 16, x.done)
	}
	g := b.fn("example.com/m.g", 22)
	x.gEntry = b.block(g, "entry", 22, true, "g")
	b.exit(x.gEntry)
	x.g = b.graph(t)
	x.labels = b.labels
	return x
}

func (x *branchy) run(then bool, iters int) *memTrace {
	evs := []trace.Event{blk(x.entry)}
	if then {
		evs = append(evs, blk(x.then), blk(x.gEntry), ret(x.gEntry))
	} else {
		evs = append(evs, blk(x.els))
	}
	evs = append(evs, blk(x.join))
	for range iters {
		evs = append(evs, blk(x.body))
	}
	evs = append(evs, blk(x.done), ret(x.entry))
	return newMem(x.g).add(1, 0, 0, 0, evs...)
}

// TestUnflagged: the streams part where no TCP decides. The sections are
// resynchronized at the post-dominators (the if's join, the loop's exit),
// reported as unflagged, and the same runs with the TCPs marked give the
// same sections flagged.
func TestUnflagged(t *testing.T) {
	for _, flagged := range []bool{false, true} {
		x := newBranchy(t, flagged)
		rep := mustCompare(t, x.run(true, 1), x.run(false, 3))
		if len(rep.Sections) != 2 {
			t.Fatalf("flagged=%v: %d sections, want 2", flagged, len(rep.Sections))
		}
		s0, s1 := rep.Sections[0], rep.Sections[1]
		if s0.Unflagged == flagged || s1.Unflagged == flagged || rep.Summary.Unflagged != map[bool]int{false: 2, true: 0}[flagged] {
			t.Errorf("flagged=%v: unflagged = %v, %v", flagged, s0.Unflagged, s1.Unflagged)
		}
		if s0.CP.Block != x.join || s1.CP.Block != x.done {
			t.Errorf("flagged=%v: CPs %d, %d; want join %d, done %d", flagged, s0.CP.Block, s1.CP.Block, x.join, x.done)
		}
		// then + g's entry against else; 2 extra iterations (body, head each).
		if s0.A.Blocks != 2 || s0.B.Blocks != 1 || s1.A.Blocks != 0 || s1.B.Blocks != 4 {
			t.Errorf("flagged=%v: blocks %d/%d and %d/%d; want 2/1 and 0/4", flagged, s0.A.Blocks, s0.B.Blocks, s1.A.Blocks, s1.B.Blocks)
		}
		if s0.Unresolved || s1.Unresolved {
			t.Errorf("flagged=%v: unresolved section", flagged)
		}
	}
}

// TestTruncated: one stream stops inside the divergent section (a crashed
// run): the rest is one unresolved section, no error.
func TestTruncated(t *testing.T) {
	x := newBranchy(t, true)
	a := x.run(true, 1)
	b := newMem(x.g).add(1, 0, 0, 0, blk(x.entry), blk(x.els))
	rep := mustCompare(t, a, b)
	if len(rep.Sections) != 1 || !rep.Sections[0].Unresolved {
		t.Fatalf("sections = %+v, want one unresolved", rep.Sections)
	}
	if got := rep.Sections[0].A.Blocks; got != 7 {
		t.Errorf("side a walked %d blocks to the end, want 7 (then g join head body head done)", got)
	}
}

func TestIndexOutcome(t *testing.T) {
	b := newBuilder("idx/f.go")
	f := b.fn("example.com/m.f", 1)
	e := b.block(f, "entry", 2, true, "entry")
	next := b.block(f, "index.after", 3, true, "next")
	b.edge(e, next)
	b.exit(next)
	b.tcp(e, tbb.Index, 2, next)
	g := b.graph(t)
	run := func(v uint64) *memTrace { return newMem(g).add(1, 0, 0, 0, blk(e), out(v), blk(next), ret(e)) }
	rep := mustCompare(t, run(3), run(4))
	if len(rep.Sections) != 1 || rep.Sections[0].TCP.Kind != "index" || rep.Sections[0].CP.Block != next || rep.Distance != 3 {
		t.Fatalf("report %+v, want one index section converging at next, distance 3", rep.Sections)
	}
	if rep := mustCompare(t, run(3), run(3)); !rep.Summary.Same {
		t.Errorf("equal index outcomes gave %d sections", len(rep.Sections))
	}
}

// TestOnceOutcome: two runs where one goroutine ran the function of a
// Once.Do and the other found it done part at the Do, whether the function
// is instrumented (its frame is there in one run only) or not (only the
// outcome differs), and meet again after it. Without the TCP, the same
// runs part at a block the analyzer left unmarked.
func TestOnceOutcome(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		instrumented, marked bool
	}{
		{"instrumented function", true, true},
		{"function not instrumented", false, true},
		{"no TCP", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder("once/f.go")
			f := b.fn("example.com/m.worker", 1)
			e := b.block(f, "entry", 2, true, "entry")
			next := b.block(f, "split", 3, true, "next")
			b.edge(e, next)
			b.exit(next)
			setup := b.fn("example.com/m.setup", 10)
			s := b.block(setup, "entry", 11, true, "setup")
			b.exit(s)
			if tc.marked {
				b.tcp(e, tbb.Once, 2, next)
			}
			g := b.graph(t)
			run := func(ran bool) *memTrace {
				evs := []trace.Event{blk(e)}
				if ran && tc.instrumented {
					evs = append(evs, blk(s), ret(s))
				}
				v := uint64(0)
				if ran {
					v = 1
				}
				evs = append(evs, wait(e, trace.OpOnce, 5, 5), out(v), blk(next), ret(e))
				return newMem(g).add(1, 0, 0, 0, evs...)
			}
			rep := mustCompare(t, run(true), run(false))
			if len(rep.Sections) != 1 {
				t.Fatalf("sections %+v, want one", rep.Sections)
			}
			sec := rep.Sections[0]
			wantKind := "once"
			if !tc.marked {
				wantKind = "none"
			}
			if sec.TCP.Kind != wantKind || sec.Unflagged == tc.marked || sec.CP.Block != next || sec.Unresolved {
				t.Errorf("section %+v, want a %s section converging at next (unflagged %v)", sec, wantKind, !tc.marked)
			}
			wantA := int64(0)
			if tc.instrumented {
				wantA = 1 // setup's block
			}
			if sec.A.Blocks != wantA || sec.B.Blocks != 0 {
				t.Errorf("blocks a %d b %d, want %d and 0", sec.A.Blocks, sec.B.Blocks, wantA)
			}
			if rep := mustCompare(t, run(false), run(false)); !rep.Summary.Same {
				t.Errorf("equal runs gave %d sections", len(rep.Sections))
			}
		})
	}
}

// TestMapRangeLength: a range over a map that has more entries in one run
// than in the other parts where one run takes the body again and the other
// leaves the loop. The map-range TCP on the loop head decides that, as a
// loop condition does: a flagged section to the loop's exit, not a block
// the analyzer missed.
func TestMapRangeLength(t *testing.T) {
	b := newBuilder("mr/f.go")
	f := b.fn("example.com/m.f", 1)
	e := b.block(f, "entry", 2, true, "entry")
	head := b.block(f, "range.loop", 3, false, "head")
	body := b.block(f, "range.body", 4, true, "body")
	done := b.block(f, "range.done", 6, true, "done")
	b.edge(e, head)
	b.edge(head, body, done)
	b.edge(body, head)
	b.exit(done)
	b.tcp(head, tbb.MapRange, 3, done)
	g := b.graph(t)
	run := func(keys ...uint64) *memTrace {
		evs := []trace.Event{blk(e)}
		for _, k := range keys {
			evs = append(evs, blk(body), out(k))
		}
		evs = append(evs, blk(done), ret(e))
		return newMem(g).add(1, 0, 0, 0, evs...)
	}
	for _, tc := range []struct {
		name string
		a, b *memTrace
	}{
		{"one more entry", run(7, 9), run(7)},
		{"empty in one run", run(), run(7)},
		{"other keys", run(7, 9), run(9, 7)},
	} {
		rep := mustCompare(t, tc.a, tc.b)
		if len(rep.Sections) != 1 {
			t.Errorf("%s: sections %+v, want one", tc.name, rep.Sections)
			continue
		}
		sec := rep.Sections[0]
		if sec.TCP.Kind != "maprange" || sec.Unflagged || sec.CP.Block != done || sec.Unresolved {
			t.Errorf("%s: section %+v, want a flagged maprange section converging at done", tc.name, sec)
		}
	}
}

func TestGoroutineMatching(t *testing.T) {
	f := newFig1(t)
	a := f.run(0, 0, 0)
	b := f.run(0, 0, 0)
	// An extra goroutine in b spawned by main's second go statement (a
	// second ordinal), and a child of it.
	b.add(9, 1, uint32(f.m1), 2, blk(f.t0), out(1), blk(f.t1), blk(f.tElse), blk(f.tEnd), ret(f.t0))
	b.add(10, 9, uint32(f.t1), 1, blk(f.c0), ret(f.c0))
	rep := mustCompare(t, a, b)
	if rep.Summary.Matched != 3 || len(rep.Goroutines.OnlyB) != 2 || len(rep.Goroutines.OnlyA) != 0 {
		t.Fatalf("goroutines %+v", rep.Goroutines)
	}
	lone := rep.Goroutines.OnlyB[0]
	if lone.ID != 9 || lone.Blocks != 4 || lone.TCPs != 2 || !strings.HasPrefix(lone.Spawn, "main > go fig1/main.go:13#2") {
		t.Errorf("only in b: %+v", lone)
	}
	// Each lone goroutine adds wd + its TCPs·wtr.
	if rep.Summary.Same || rep.Distance != (1+2)+(1+1) {
		t.Errorf("same %v, distance %v; want false, 5", rep.Summary.Same, rep.Distance)
	}
}

// TestBadInput: events the graph cannot hold are one-line errors; events it
// cannot explain are counted, never a crash.
func TestBadInput(t *testing.T) {
	x := newBranchy(t, true)
	bad := newMem(x.g).add(1, 0, 0, 0, blk(x.entry), blk(999))
	if _, err := Traces(x.run(true, 0), bad, Options{}); err == nil || !strings.Contains(err.Error(), "block 999 is not in the graph") {
		t.Errorf("err = %v", err)
	}
	weird := newMem(x.g).add(1, 0, 0, 0, blk(x.entry), ret(x.gEntry), blk(x.done), blk(x.then), ret(x.entry), trace.Event{Kind: trace.EvExit, Block: uint32(x.entry)})
	rep, err := Traces(x.run(true, 0), weird, Options{Weights: DefaultWeights})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Anomalies == 0 || rep.Summary.Same {
		t.Errorf("anomalies %d, same %v", rep.Summary.Anomalies, rep.Summary.Same)
	}
	unknown := newMem(x.g).add(1, 0, 0, 0, trace.Event{Kind: 77})
	if _, err := Traces(x.run(true, 0), unknown, Options{}); err == nil || !strings.Contains(err.Error(), "unknown event kind") {
		t.Errorf("err = %v", err)
	}
}

// TestTraceFile goes through internal/trace's file format and reader.
func TestTraceFile(t *testing.T) {
	f := newFig1(t)
	dir := t.TempDir()
	write := func(name string, m *memTrace) Trace { return fileTrace(t, filepath.Join(dir, name), f.g, m, nil) }
	a := write("a.dvt", f.run(1, 0, 1000))
	b := write("b.dvt", f.run(0, 0, 2000))
	rep := mustCompare(t, a, b)
	mem := mustCompare(t, f.run(1, 0, 1000), f.run(0, 0, 2000))
	if rep.Distance != mem.Distance || len(rep.Sections) != len(mem.Sections) {
		t.Errorf("from files: distance %v, %d sections; in memory: %v, %d", rep.Distance, len(rep.Sections), mem.Distance, len(mem.Sections))
	}
	m, err := Compare([]Trace{a, b, write("c.dvt", f.run(1, 0, 3000))}, Options{Weights: DefaultWeights})
	if err != nil {
		t.Fatal(err)
	}
	if m.Distances[0][2] != 0 || m.Distances[0][1] != rep.Distance || m.Representative != 0 || m.Same {
		t.Errorf("matrix %+v", m)
	}
}

// TestSectionTime: a wait inside a divergent section shows in its time.
func TestSectionTime(t *testing.T) {
	x := newBranchy(t, true)
	a := newMem(x.g).add(1, 0, 0, 0, clock(0), blk(x.entry), blk(x.then), wait(x.then, trace.OpLock, 100, 600),
		blk(x.gEntry), ret(x.gEntry), blk(x.join), blk(x.done), clock(700), ret(x.entry))
	b := newMem(x.g).add(1, 0, 0, 0, clock(0), blk(x.entry), blk(x.els), blk(x.join), blk(x.done), clock(50), ret(x.entry))
	rep := mustCompare(t, a, b)
	if len(rep.Sections) != 1 {
		t.Fatalf("%d sections", len(rep.Sections))
	}
	if s := rep.Sections[0]; s.A.TimeNS < 500 || s.A.TimeNS > 700 || s.B.TimeNS > 50 {
		t.Errorf("times a %d, b %d; want a in [500, 700], b at most 50", s.A.TimeNS, s.B.TimeNS)
	}
}

// TestParentCycle: goroutines whose parents form a loop are reported, not
// dropped, and do not hang the matching.
func TestParentCycle(t *testing.T) {
	x := newBranchy(t, true)
	a := x.run(true, 0)
	a.add(5, 6, uint32(x.entry), 1, blk(x.gEntry), ret(x.gEntry))
	a.add(6, 5, uint32(x.entry), 1, blk(x.gEntry), ret(x.gEntry))
	rep := mustCompare(t, a, x.run(true, 0))
	if len(rep.Goroutines.OnlyA) != 2 || rep.Summary.Matched != 1 {
		t.Errorf("goroutines %+v", rep.Goroutines)
	}
}

// TestSwitchClauses: a switch tests its further clauses in implied blocks
// without a TCP of their own; a divergence between later clauses is still
// the switch's, not an unflagged one.
func TestSwitchClauses(t *testing.T) {
	b := newBuilder("sw/f.go")
	f := b.fn("example.com/m.f", 1)
	first := b.block(f, "entry", 2, true, "switch")
	next := b.block(f, "switch.next", 4, false, "next")
	c1 := b.block(f, "switch.case", 3, true, "case1")
	c2 := b.block(f, "switch.case", 5, true, "case2")
	done := b.block(f, "switch.done", 7, true, "done")
	b.edge(first, c1, next)
	b.edge(next, c2, done)
	b.edge(c1, done)
	b.edge(c2, done)
	b.exit(done)
	b.tcp(first, tbb.Switch, 2, done)
	g := b.graph(t)
	run := func(c int) *memTrace {
		evs := []trace.Event{blk(first)}
		if c >= 0 {
			evs = append(evs, blk(c))
		}
		return newMem(g).add(1, 0, 0, 0, append(evs, blk(done), ret(first))...)
	}
	for _, pair := range [][2]int{{c1, c2}, {c2, -1}} {
		rep := mustCompare(t, run(pair[0]), run(pair[1]))
		if len(rep.Sections) != 1 || rep.Sections[0].Unflagged || rep.Sections[0].TCP.Kind != "switch" || rep.Sections[0].CP.Block != done {
			t.Errorf("%v: sections %+v, want one switch section to done", pair, rep.Sections)
		}
	}
}

func TestWeights(t *testing.T) {
	f := newFig1(t)
	a, b := f.run(1, 0, 0), f.run(0, 0, 0)
	for _, tt := range []struct {
		w    Weights
		want float64
	}{
		{Weights{}, 7},                   // the defaults
		{Weights{D: 1, ND: 0, TR: 0}, 2}, // two sections
		{Weights{D: 0, ND: 1, TR: 0}, 4}, // fanouts 2 + 2
		{Weights{D: 0, ND: 0, TR: 2}, 2}, // tcp distances 0 + 1
		{Weights{D: 10, ND: 0.5, TR: 3}, 20 + 2 + 3},
	} {
		rep, err := Traces(a, b, Options{Weights: tt.w})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Distance != tt.want {
			t.Errorf("weights %+v: distance %v, want %v", tt.w, rep.Distance, tt.want)
		}
	}
}
