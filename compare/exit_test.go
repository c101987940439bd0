package compare

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// unfinished marks goroutine id as caught by the exit: main returned while
// it ran or waited.
func (m *memTrace) unfinished(id uint64) *memTrace {
	for i := range m.gs {
		if m.gs[i].ID == id {
			m.gs[i].Unfinished = true
		}
	}
	return m
}

// addLib records a goroutine started by uninstrumented code: no parent,
// site or ordinal, only the first block it ran.
func (m *memTrace) addLib(id uint64, evs ...trace.Event) *memTrace {
	m.add(id, 0, 0, 0, evs...)
	g := &m.gs[len(m.gs)-1]
	for _, e := range evs {
		if e.Kind == trace.EvBlock {
			g.FirstBlock, g.HasFirst = e.Block, true
			break
		}
	}
	return m
}

// toFile writes m through internal/trace's file format, the goroutines of
// m that did not finish without their final chunk, and reads it back.
func toFile(t *testing.T, m *memTrace) Trace {
	t.Helper()
	var gs []trace.GoroutineEvents
	for _, g := range m.gs {
		gs = append(gs, trace.GoroutineEvents{ID: g.ID, Parent: g.Parent, Site: g.Site, Ordinal: g.Ordinal, Running: g.Unfinished, Events: m.events[g.ID]})
	}
	path := filepath.Join(t.TempDir(), "t.dvt")
	if err := trace.WriteFile(path, m.g, gs); err != nil {
		t.Fatal(err)
	}
	return openFile(t, path)
}

// openFile opens the trace file at path for the rest of the test.
func openFile(t *testing.T, path string) Trace {
	t.Helper()
	r, err := trace.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return FromReader(r)
}

// TestCutOff: a goroutine that recorded nothing after the common block and
// never finished was stopped by the exit; its section is cut off, never
// unflagged. A stream that stops after going elsewhere, or one of a
// goroutine that finished, is still what it was.
func TestCutOff(t *testing.T) {
	x := newBranchy(t, false) // no TCPs: any divergence would be unflagged
	whole := func() *memTrace { return x.run(true, 1) }
	stopped := func(evs ...trace.Event) *memTrace { return newMem(x.g).add(1, 0, 0, 0, evs...) }
	tests := []struct {
		name      string
		a, b      *memTrace
		cut       bool
		unflagged bool
		memOnly   bool // the file format keeps no goroutine without events
	}{
		{"b caught after the entry", whole(), stopped(blk(x.entry)).unfinished(1), true, false, false},
		{"a caught after the entry", stopped(blk(x.entry)).unfinished(1), whole(), true, false, false},
		{"b caught before its first block", whole(), stopped().unfinished(1), true, false, true},
		{"b caught inside the loop", whole(), stopped(blk(x.entry), blk(x.then), blk(x.gEntry), ret(x.gEntry), blk(x.join)).unfinished(1), true, false, false},
		// It took the other branch before the exit caught it: a hole.
		{"b went elsewhere first", whole(), stopped(blk(x.entry), blk(x.els)).unfinished(1), false, true, false},
		// The same stream from a goroutine that ended: nothing excuses it.
		{"b finished there", whole(), stopped(blk(x.entry)), false, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, file := range []bool{false, true} {
				if file && tt.memOnly {
					continue
				}
				a, b := Trace(tt.a), Trace(tt.b)
				if file {
					a, b = toFile(t, tt.a), toFile(t, tt.b)
				}
				rep := mustCompare(t, a, b)
				if len(rep.Sections) != 1 {
					t.Fatalf("file %v: %d sections, want 1: %+v", file, len(rep.Sections), rep.Sections)
				}
				s := rep.Sections[0]
				if s.CutOff != tt.cut || s.Unflagged != tt.unflagged {
					t.Errorf("file %v: cut off %v, unflagged %v; want %v, %v", file, s.CutOff, s.Unflagged, tt.cut, tt.unflagged)
				}
				if rep.Summary.CutOff != b2i(tt.cut) || rep.Summary.Unflagged != b2i(tt.unflagged) {
					t.Errorf("file %v: summary cut off %d, unflagged %d", file, rep.Summary.CutOff, rep.Summary.Unflagged)
				}
				var text bytes.Buffer
				if err := rep.WriteText(&text, TextOptions{}); err != nil {
					t.Fatal(err)
				}
				if got := strings.Contains(text.String(), "cut off at exit"); got != tt.cut {
					t.Errorf("file %v: text says cut off: %v, want %v:\n%s", file, got, tt.cut, text.String())
				}
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lib is a program whose main starts goroutines through a library (no go
// statement divergo saw) running one of two functions, one of which starts
// a goroutine of its own:
//
//	10 func main() { g.Go(f1); g.Go(f2); g.Wait() }
//	20 func f1() { go w() }
//	30 func f2() {}
//	40 func w() {}
type lib struct {
	g                *tbb.Graph
	main, f1, f2, w_ int
}

func newLib(t *testing.T) *lib {
	b := newBuilder("lib/main.go")
	x := &lib{}
	x.main = b.block(b.fn("example.com/m.main", 10), "entry", 10, true, "main")
	x.f1 = b.block(b.fn("example.com/m.main$1", 20), "entry", 20, true, "f1")
	b.tcp(x.f1, tbb.Spawn, 20, tbb.Return)
	x.f2 = b.block(b.fn("example.com/m.main$2", 30), "entry", 30, true, "f2")
	x.w_ = b.block(b.fn("example.com/m.w", 40), "entry", 40, true, "w")
	for _, blk := range []int{x.main, x.f1, x.f2, x.w_} {
		b.exit(blk)
	}
	x.g = b.graph(t)
	return x
}

// run records main as goroutine 1 and the library's goroutines with the
// recorder ids in ids, in the order the schedule gave them: f1, f2, f1.
// Each f1 starts a w, recorded with id+10.
func (x *lib) run(ids [3]uint64) *memTrace {
	m := newMem(x.g).add(1, 0, 0, 0, blk(x.main), ret(x.main))
	for i, fn := range []int{x.f1, x.f2, x.f1} {
		id := ids[i]
		if fn == x.f2 {
			m.addLib(id, blk(x.f2), ret(x.f2))
			continue
		}
		m.addLib(id, blk(x.f1), spawn(x.f1, id+10, 1), ret(x.f1))
		m.add(id+10, id, uint32(x.f1), 1, blk(x.w_), ret(x.w_))
	}
	return m
}

// TestLibraryGoroutines: goroutines started by library code are paired by
// the function they start in, whatever recorder ids the schedule gave them,
// and their children through them.
func TestLibraryGoroutines(t *testing.T) {
	x := newLib(t)
	a := x.run([3]uint64{2, 3, 4})
	b := x.run([3]uint64{4, 2, 3}) // f1 got 4 and 3, f2 got 2
	for _, file := range []bool{false, true} {
		ta, tb := Trace(a), Trace(b)
		if file {
			ta, tb = toFile(t, a), toFile(t, b)
		}
		rep := mustCompare(t, ta, tb)
		if !rep.Summary.Same || rep.Summary.Matched != 6 {
			t.Fatalf("file %v: same %v, %d matched, %d sections; want the same runs, 6 matched:\n%+v", file, rep.Summary.Same, rep.Summary.Matched, len(rep.Sections), rep.Goroutines)
		}
		got := map[uint64]Pair{}
		for _, p := range rep.Goroutines.Matched {
			got[p.A] = p
		}
		// f1's goroutines pair in their order (2 with 3, 4 with 4), f2's
		// (3 with 2), and each w with its parent's partner's.
		for a, b := range map[uint64]uint64{1: 1, 2: 3, 3: 2, 4: 4, 12: 13, 14: 14} {
			if got[a].B != b {
				t.Errorf("file %v: goroutine %d of a paired with %d of b, want %d", file, a, got[a].B, b)
			}
		}
		// From a file, by the trace's names, as show and wait give them.
		want3, want14 := "go ? example.com/m.main$2#1", "go ? example.com/m.main$1#2 > go lib/main.go:20#1"
		if file {
			want3, want14 = "?/main$2#1", "?/main$1#2/w@lib/main.go:20#1"
		}
		if s := got[3].Spawn; s != want3 {
			t.Errorf("file %v: goroutine 3 spawn %q, want %q", file, s, want3)
		}
		if s := got[14].Spawn; !strings.HasPrefix(s, want14) {
			t.Errorf("file %v: goroutine 14 spawn %q, want %q", file, s, want14)
		}
	}
	// One more f2 in b only: it is lone, not paired with an f1.
	b.addLib(30, blk(x.f2), ret(x.f2))
	rep := mustCompare(t, a, b)
	if rep.Summary.Matched != 6 || len(rep.Goroutines.OnlyB) != 1 || rep.Goroutines.OnlyB[0].ID != 30 || len(rep.Sections) != 0 {
		t.Errorf("with an extra f2 in b: %+v, %d sections", rep.Goroutines, len(rep.Sections))
	}
}

// TestCutOffAsleep: a goroutine the exit caught in a sleep was asleep,
// not blocked for ever as one caught in a send was; both are cut off.
func TestCutOffAsleep(t *testing.T) {
	x := newBranchy(t, true)
	for _, tt := range []struct {
		op   trace.Op
		took string
	}{
		{trace.OpSleep, "asleep at branchy/f.go:11: still sleeping when the program ended"},
		{trace.OpSend, "blocked for ever at branchy/f.go:11 (send): still blocked when the program ended"},
	} {
		caught := trace.Event{Kind: trace.EvSync, Block: uint32(x.entry), Site: uint32(x.entry), Op: tt.op, Waited: true, Blocked: true, Begin: 10, End: 90}
		a, b := x.run(true, 1), newMem(x.g).add(1, 0, 0, 0, blk(x.entry), caught).unfinished(1)
		for _, file := range []bool{false, true} {
			ta, tb := Trace(a), Trace(b)
			if file {
				ta, tb = toFile(t, a), toFile(t, b)
			}
			rep := mustCompare(t, ta, tb)
			if len(rep.Sections) != 1 || !rep.Sections[0].CutOff || rep.Sections[0].B.Took != tt.took {
				t.Errorf("%v, file %v: sections %+v; want one cut off, b %q", tt.op, file, rep.Sections, tt.took)
			}
		}
	}
}
