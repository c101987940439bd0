package compare

import (
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// serverLoop is a server's loop, with a go statement in one case of a
// select:
//
//	10 func main() {
//	11 	for more() {
//	12 		select {
//	13 		case req := <-reqs:
//	14 			go handle(req)
//	15 		case <-tick:
//	16 		}
//	17 	}
//	18 }
//	20 func handle(n int) {
//	21 	for i := 0; i < n; i++ {
//	22 	}
//	23 }
//
// handle's loop has no TCP: a handler compared with the handler of
// another request, which loops another number of times, shows as a hole.
type serverLoop struct {
	g                    *tbb.Graph
	entry, head, sel     int
	req, tick, done      int
	hEntry, hHead, hBody int
	hDone                int
}

func newServerLoop(t *testing.T) *serverLoop {
	b := newBuilder("server/main.go")
	x := &serverLoop{}
	m := b.fn("example.com/m.main", 10)
	x.entry = b.block(m, "entry", 10, true, "entry")
	x.head = b.block(m, "for.loop", 11, true, "head")
	x.sel = b.block(m, "for.body", 12, true, "select")
	x.req = b.block(m, "select.case", 13, true, "req")
	x.tick = b.block(m, "select.case", 15, true, "tick")
	x.done = b.block(m, "for.done", 18, true, "done")
	b.edge(x.entry, x.head)
	b.edge(x.head, x.sel, x.done)
	b.edge(x.sel, x.req, x.tick)
	b.edge(x.req, x.head)
	b.edge(x.tick, x.head)
	b.exit(x.done)
	b.tcp(x.head, tbb.Loop, 11, x.done)
	b.tcp(x.sel, tbb.Select, 12, x.head)
	b.tcp(x.req, tbb.Spawn, 14, x.head)
	h := b.fn("example.com/m.handle", 20)
	x.hEntry = b.block(h, "entry", 20, true, "handle")
	x.hHead = b.block(h, "for.loop", 21, true, "handle head")
	x.hBody = b.block(h, "for.body", 22, true, "handle body")
	x.hDone = b.block(h, "for.done", 23, true, "handle done")
	b.edge(x.hEntry, x.hHead)
	b.edge(x.hHead, x.hBody, x.hDone)
	b.edge(x.hBody, x.hHead)
	b.exit(x.hDone)
	x.g = b.graph(t)
	return x
}

// run records main taking the select's cases in the order given ('r' a
// request, 't' the tick), requests numbered from 1 in the order they
// arrive, and the handler of request k, goroutine base+k, looping k
// times.
func (x *serverLoop) run(order string, base uint64) *memTrace {
	m := newMem(x.g)
	evs := []trace.Event{blk(x.entry)}
	k := 0
	for _, c := range order {
		evs = append(evs, blk(x.head), blk(x.sel))
		if c == 't' {
			evs = append(evs, blk(x.tick))
			continue
		}
		k++
		evs = append(evs, blk(x.req), spawn(x.req, base+uint64(k), uint32(k)))
		h := []trace.Event{blk(x.hEntry)}
		for range k {
			h = append(h, blk(x.hHead), blk(x.hBody))
		}
		h = append(h, blk(x.hHead), blk(x.hDone), ret(x.hEntry))
		m.add(base+uint64(k), 1, uint32(x.req), uint32(k), h...)
	}
	evs = append(evs, blk(x.head), blk(x.done), ret(x.entry))
	m.events[1] = evs
	m.gs = append([]Goroutine{{ID: 1}}, m.gs...)
	return m
}

// TestGoInSelectLoop: run A takes two requests before the tick, run B the
// tick first. Their second iterations both take a request, A its second
// and B its first: the same step of main, although the go statement's
// ordinal differs (2 and 1), so the select's two sections are all that
// differs, and nothing is a hole. Each handler is paired with the
// handler of the same request, the k-th that go statement started in
// each run, not with the one the same iteration started.
func TestGoInSelectLoop(t *testing.T) {
	x := newServerLoop(t)
	rep := bothWays(t, "server loop", x.run("rrtr", 10), x.run("trrr", 20))
	if rep.Summary.Unflagged != 0 || len(rep.Sections) != 2 {
		t.Errorf("%d sections, %d unflagged; want the select's 2 and none:\n%+v", len(rep.Sections), rep.Summary.Unflagged, rep.Sections)
	}
	for _, s := range rep.Sections {
		if s.Goroutine != 1 || s.TCP.Kind != "select" || s.TCP.Pos != "server/main.go:12" || s.CP.Pos != "server/main.go:11" {
			t.Errorf("section in goroutine %d at %s %s → %s, want main's select at server/main.go:12 → 11", s.Goroutine, s.TCP.Kind, s.TCP.Pos, s.CP.Pos)
		}
	}
	got := map[uint64]uint64{}
	for _, p := range rep.Goroutines.Matched {
		got[p.A] = p.B
	}
	for a, b := range map[uint64]uint64{1: 1, 11: 21, 12: 22, 13: 23} {
		if got[a] != b {
			t.Errorf("goroutine %d of a paired with %d of b, want %d (the same request)", a, got[a], b)
		}
	}
	if len(got) != 4 {
		t.Errorf("%d pairs, want 4: %+v", len(got), rep.Goroutines)
	}
}
