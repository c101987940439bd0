package compare

import (
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// oneBlock is a goroutine's function of one block, as ExampleAfterFunc_cond's
// goroutines are (docs/REALPROGRAMS.md): it locks, calls a function value
// and returns, with nothing to decide.
//
//	10 func worker() {
//	11 	mu.Lock()  // a lock TCP when marked
//	12 	f()        // a or b
//	13 }
//	20 func a() {}
//	21 func b() {}
type oneBlock struct {
	g           *tbb.Graph
	entry, a, b int
}

func newOneBlock(t *testing.T, lockTCP bool) *oneBlock {
	bl := newBuilder("one/w.go")
	x := &oneBlock{}
	w := bl.fn("example.com/m.worker", 10)
	x.entry = bl.block(w, "entry", 11, true, "worker")
	bl.exit(x.entry)
	if lockTCP {
		bl.tcp(x.entry, tbb.Lock, 11, tbb.Return)
	}
	x.a = bl.block(bl.fn("example.com/m.a", 20), "entry", 20, true, "a")
	bl.exit(x.a)
	x.b = bl.block(bl.fn("example.com/m.b", 21), "entry", 21, true, "b")
	bl.exit(x.b)
	x.g = bl.graph(t)
	return x
}

// run is worker taking the lock with ticket and calling callee.
func (x *oneBlock) run(ticket uint64, callee int) *memTrace {
	return newMem(x.g).add(1, 0, 0, 0, blk(x.entry), wait(x.entry, trace.OpLock, 0, 0), out(ticket),
		blk(callee), ret(callee), ret(x.entry))
}

// TestUnflaggedWords: two runs that part inside a block without a TCP and
// execute no further block of its frame. Each side says what it did there
// instead, so that the report names what differed: a value recorded (the
// same words on both sides, as "another index"), the function called. With the lock marked, other tickets are the lock
// order, no section.
func TestUnflaggedWords(t *testing.T) {
	x := newOneBlock(t, false)
	for _, tt := range []struct {
		name         string
		a, b         *memTrace
		tookA, tookB string
	}{
		{"ticket", x.run(4, x.a), x.run(3, x.a),
			"recorded another lock ticket, index or map key (no change point here)",
			"recorded another lock ticket, index or map key (no change point here)"},
		{"callee", x.run(1, x.a), x.run(1, x.b),
			"called example.com/m.a (no change point here)",
			"called example.com/m.b (no change point here)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := mustCompare(t, tt.a, tt.b)
			if len(rep.Sections) != 1 || !rep.Sections[0].Unflagged || rep.Sections[0].CP.Pos != "return" {
				t.Fatalf("sections %+v, want one unflagged, to the return", rep.Sections)
			}
			s := rep.Sections[0]
			if s.A.Took != tt.tookA || s.B.Took != tt.tookB {
				t.Errorf("took\n  a: %q\n  b: %q\nwant\n  a: %q\n  b: %q", s.A.Took, s.B.Took, tt.tookA, tt.tookB)
			}
		})
	}

	x = newOneBlock(t, true)
	rep := mustCompare(t, x.run(4, x.a), x.run(3, x.a))
	if len(rep.Sections) != 0 || rep.Summary.LockOrder != 1 {
		t.Errorf("with the lock marked: %d sections, %d lock notes; want 0, 1", len(rep.Sections), rep.Summary.LockOrder)
	}
}
