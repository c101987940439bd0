package compare

import (
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// brokerLoop is a broker's endless loop whose head is a block of its own
// (no TCP: nothing decides whether the loop goes on), as a for {} around a
// select can be built:
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
type brokerLoop struct {
	g                               *tbb.Graph
	entry, head, sel, a, b, quit, r int
}

func newBrokerLoop(t *testing.T) *brokerLoop {
	bl := newBuilder("broker/main.go")
	x := &brokerLoop{}
	m := bl.fn("example.com/m.main", 10)
	x.entry = bl.block(m, "entry", 10, true, "entry")
	x.head = bl.block(m, "for.loop", 11, true, "head")
	x.sel = bl.block(m, "for.body", 12, true, "select")
	x.a = bl.block(m, "select.case", 13, true, "a")
	x.b = bl.block(m, "select.case", 14, true, "b")
	x.quit = bl.block(m, "select.case", 15, true, "quit")
	bl.edge(x.entry, x.head)
	bl.edge(x.head, x.sel)
	bl.edge(x.sel, x.a, x.b, x.quit)
	bl.edge(x.a, x.head)
	bl.edge(x.b, x.head)
	bl.exit(x.quit)
	bl.tcp(x.sel, tbb.Select, 12, x.quit)
	x.g = bl.graph(t)
	return x
}

func (x *brokerLoop) run(order string) *memTrace {
	m := newMem(x.g)
	evs := []trace.Event{blk(x.entry)}
	for _, c := range order {
		evs = append(evs, blk(x.head), blk(x.sel))
		if c == 'a' {
			evs = append(evs, blk(x.a))
		} else {
			evs = append(evs, blk(x.b))
		}
	}
	evs = append(evs, blk(x.head), blk(x.sel), blk(x.quit), ret(x.entry))
	m.events[1] = evs
	m.gs = append([]Goroutine{{ID: 1}}, m.gs...)
	return m
}

// TestBrokerLoopSections: the loop head without a TCP lies in the select's
// own loop, so passing it does not end the rule: each other choice is a
// section of its own that meets again at the select, the next iteration,
// instead of one section to the quit holding the rest of the program.
func TestBrokerLoopSections(t *testing.T) {
	x := newBrokerLoop(t)
	rep := bothWays(t, "broker loop", x.run("abaab"), x.run("baaba"))
	if len(rep.Sections) != 4 {
		t.Fatalf("%d sections, want 4 (iterations 1, 2, 4 and 5):\n%+v", len(rep.Sections), rep.Sections)
	}
	for _, s := range rep.Sections {
		if s.TCP.Kind != "select" || s.A.Blocks != 2 || s.B.Blocks != 2 || s.Unresolved || s.Unflagged {
			t.Errorf("section at %s %s: %d and %d blocks (unresolved %v, unflagged %v), want the select's, one case and the head each", s.TCP.Kind, s.TCP.Pos, s.A.Blocks, s.B.Blocks, s.Unresolved, s.Unflagged)
		}
		if s.CP.Pos != "broker/main.go:12" {
			t.Errorf("section met again at %s, want the select, broker/main.go:12", s.CP.Pos)
		}
	}
}

// nonblockLoop is a nonblocking send retried in an endless loop inside a
// counted outer loop whose head decides nothing the runs can differ in
// (so it has no TCP), as $GOROOT/test/chan/nonblock.go does:
//
//	10 func main() {
//	11 	for i := 0; i < 2; i++ {
//	12 	L:
//	13 		for {
//	14 			select {
//	15 			case c <- v:
//	16 				break L
//	17 			default:
//	18 				if try++; try > max {
//	19 					panic("fail")
//	20 				}
//	21 			}
//	22 		}
//	23 		<-sync
//	24 	}
//	25 }
//
// The panic makes return the select's convergence point.
type nonblockLoop struct {
	g                                   *tbb.Graph
	entry, outer, inner, sel, send, def int
	fail, after, done                   int
}

func newNonblockLoop(t *testing.T) *nonblockLoop {
	bl := newBuilder("nonblock/main.go")
	x := &nonblockLoop{}
	m := bl.fn("example.com/m.main", 10)
	x.entry = bl.block(m, "entry", 10, true, "entry")
	x.outer = bl.block(m, "for.loop", 11, true, "outer")
	x.inner = bl.block(m, "for.loop", 13, true, "inner")
	x.sel = bl.block(m, "for.body", 14, true, "select")
	x.send = bl.block(m, "select.case", 15, true, "send")
	x.def = bl.block(m, "select.case", 17, true, "default")
	x.fail = bl.block(m, "if.then", 19, true, "fail")
	x.after = bl.block(m, "for.done", 23, true, "after")
	x.done = bl.block(m, "for.done", 25, true, "done")
	bl.edge(x.entry, x.outer)
	bl.edge(x.outer, x.inner, x.done)
	bl.edge(x.inner, x.sel)
	bl.edge(x.sel, x.send, x.def)
	bl.edge(x.send, x.after)
	bl.edge(x.def, x.fail, x.inner)
	bl.edge(x.after, x.outer)
	bl.exit(x.done)
	bl.tcp(x.sel, tbb.Select, 14, tbb.Return)
	x.g = bl.graph(t)
	return x
}

// run records main's outer iterations, each the number of defaults
// taken before the send went through.
func (x *nonblockLoop) run(tries ...int) *memTrace {
	m := newMem(x.g)
	evs := []trace.Event{blk(x.entry)}
	for _, n := range tries {
		evs = append(evs, blk(x.outer))
		for range n {
			evs = append(evs, blk(x.inner), blk(x.sel), blk(x.def))
		}
		evs = append(evs, blk(x.inner), blk(x.sel), blk(x.send), blk(x.after))
	}
	evs = append(evs, blk(x.outer), blk(x.done), ret(x.entry))
	m.events[1] = evs
	m.gs = append([]Goroutine{{ID: 1}}, m.gs...)
	return m
}

// TestNonblockLoopSection: the side that sent first left the select's own
// loop, so coming round the outer loop to the select is not its "again":
// pairing it there with the other side's retry would put one outer
// iteration against the next and part every block after. The section runs
// to the convergence point, return, and nothing in it is unflagged.
func TestNonblockLoopSection(t *testing.T) {
	x := newNonblockLoop(t)
	rep := bothWays(t, "nonblock loop", x.run(0, 1), x.run(1, 1))
	if len(rep.Sections) != 1 {
		t.Fatalf("%d sections, want 1 (the first send against a retry):\n%+v", len(rep.Sections), rep.Sections)
	}
	if s := rep.Sections[0]; s.TCP.Kind != "select" || s.Unflagged {
		t.Errorf("section at %s %s (unflagged %v), want the select's", s.TCP.Kind, s.TCP.Pos, s.Unflagged)
	}
	// The same retries in both: the same paths.
	if rep := bothWays(t, "nonblock loop, same", x.run(2, 0), x.run(2, 0)); len(rep.Sections) != 0 {
		t.Errorf("same runs: %d sections", len(rep.Sections))
	}
}

// TestNaturalLoops: the inner loop holds the select and its default, not
// the send that breaks out nor the outer head; the outer loop holds them
// all but the entry and the exit.
func TestNaturalLoops(t *testing.T) {
	x := newNonblockLoop(t)
	p, err := newProgram(x.g)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		b, h int
		want bool
	}{
		{x.sel, x.inner, true}, {x.def, x.inner, true}, {x.inner, x.inner, true},
		{x.send, x.inner, false}, {x.outer, x.inner, false}, {x.after, x.inner, false}, {x.fail, x.inner, false},
		{x.sel, x.outer, true}, {x.send, x.outer, true}, {x.after, x.outer, true},
		{x.entry, x.outer, false}, {x.done, x.outer, false},
	} {
		if got := p.within(int32(tt.b), int32(tt.h)); got != tt.want {
			t.Errorf("within(%d, %d) = %v, want %v", tt.b, tt.h, got, tt.want)
		}
	}
	if got := p.blocks[x.inner].outerLoop; got != int32(x.outer) {
		t.Errorf("loop around the inner one: %d, want the outer head %d", got, x.outer)
	}
}
