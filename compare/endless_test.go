package compare

import (
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// endlessLoop is a broker's loop, an endless for around a select whose
// one way out is the case that returns:
//
//	10 func main() {
//	11 	for {
//	12 		select {
//	13 		case <-a:
//	14 		case <-b:
//	15 		case <-quit:
//	16 			return
//	17 		}
//	18 	}
//	19 }
//
// Every path from the select to the exit goes through the quit case, so
// that case post-dominates the select: its convergence point.
type endlessLoop struct {
	g                         *tbb.Graph
	entry, sel, a, b, quit, r int
}

func newEndlessLoop(t *testing.T) *endlessLoop {
	bl := newBuilder("broker/main.go")
	x := &endlessLoop{}
	m := bl.fn("example.com/m.main", 10)
	x.entry = bl.block(m, "entry", 10, true, "entry")
	x.sel = bl.block(m, "for.body", 12, true, "select")
	x.a = bl.block(m, "select.case", 13, true, "a")
	x.b = bl.block(m, "select.case", 14, true, "b")
	x.quit = bl.block(m, "select.case", 15, true, "quit")
	bl.edge(x.entry, x.sel)
	bl.edge(x.sel, x.a, x.b, x.quit)
	bl.edge(x.a, x.sel)
	bl.edge(x.b, x.sel)
	bl.exit(x.quit)
	bl.tcp(x.sel, tbb.Select, 12, x.quit)
	x.g = bl.graph(t)
	return x
}

// run records main taking the select's cases in the order given, then
// quitting.
func (x *endlessLoop) run(order string) *memTrace {
	m := newMem(x.g)
	evs := []trace.Event{blk(x.entry)}
	for _, c := range order {
		evs = append(evs, blk(x.sel))
		if c == 'a' {
			evs = append(evs, blk(x.a))
		} else {
			evs = append(evs, blk(x.b))
		}
	}
	evs = append(evs, blk(x.sel), blk(x.quit), ret(x.entry))
	m.events[1] = evs
	m.gs = append([]Goroutine{{ID: 1}}, m.gs...)
	return m
}

// TestEndlessLoopSection: runs that took the select's cases in another
// order in two iterations of an endless loop part twice, each section
// ending at the next iteration, where both are at the select again; the
// iterations that took the same case, and the quit, are the same in both.
// Walked to the convergence point, the quit case, the first section held
// the rest of the program.
func TestEndlessLoopSection(t *testing.T) {
	x := newEndlessLoop(t)
	rep := bothWays(t, "endless loop", x.run("abaa"), x.run("baaa"))
	if len(rep.Sections) != 2 {
		t.Fatalf("%d sections, want 2 (iterations 1 and 2):\n%+v", len(rep.Sections), rep.Sections)
	}
	for _, s := range rep.Sections {
		if s.TCP.Kind != "select" || s.A.Blocks != 1 || s.B.Blocks != 1 || s.Unresolved || s.Unflagged {
			t.Errorf("section at %s %s: %d and %d blocks (unresolved %v, unflagged %v), want the select's, one case each", s.TCP.Kind, s.TCP.Pos, s.A.Blocks, s.B.Blocks, s.Unresolved, s.Unflagged)
		}
		if s.CP.Pos != "broker/main.go:12" {
			t.Errorf("section met again at %s, want the select, broker/main.go:12", s.CP.Pos)
		}
		if s.A.Took == s.B.Took {
			t.Errorf("both sides read %q", s.A.Took)
		}
	}
	// One run quits where the other takes a case: the rest of both is
	// one section, to the quit.
	rep = bothWays(t, "endless loop, one quits first", x.run("aa"), x.run("aab"))
	if len(rep.Sections) != 1 || rep.Sections[0].A.Blocks != 0 || rep.Sections[0].B.Blocks != 2 {
		t.Errorf("want one section, quit against a case and the select again:\n%+v", rep.Sections)
	}
}

// TestLoopHeadSection: the same select in a loop with a condition
// (for more() { select {...} }): its head decides whether the loop goes on,
// so a select's section is not ended at the next iteration, which would
// swallow that decision, but walked to its convergence point as before;
// the server loop's sections end at the head, their convergence point.
func TestLoopHeadSection(t *testing.T) {
	x := newServerLoop(t)
	rep := bothWays(t, "server loop", x.run("rtt", 10), x.run("trt", 20))
	for _, s := range rep.Sections {
		if s.Unflagged || s.CP.Pos != "server/main.go:11" {
			t.Errorf("section at %s %s → %s (unflagged %v), want the select's to the loop head, server/main.go:11", s.TCP.Kind, s.TCP.Pos, s.CP.Pos, s.Unflagged)
		}
	}
}

// TestDominates: the head of a loop dominates the blocks of its body, a
// block inside one branch does not dominate the other.
func TestDominates(t *testing.T) {
	x := newServerLoop(t)
	p, err := newProgram(x.g)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		h, b int
		want bool
	}{
		{x.head, x.sel, true}, {x.sel, x.req, true}, {x.req, x.tick, false}, {x.req, x.head, false}, {x.sel, x.sel, true},
	} {
		if got := p.dominates(int32(tt.h), int32(tt.b)); got != tt.want {
			t.Errorf("dominates(%d, %d) = %v, want %v", tt.h, tt.b, got, tt.want)
		}
	}
}
