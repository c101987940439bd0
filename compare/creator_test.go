package compare

import (
	"slices"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestOrphansByCreator: goroutines that code divergo did not instrument
// started, running the same function, are paired by what started them,
// then in order, and named so: run b registered them in another order,
// and paired by order alone the server's handler met the timer's callback.
func TestOrphansByCreator(t *testing.T) {
	p := newParting(t)
	w := p.worker
	run := func(creators ...string) *memTrace {
		m := newMem(p.g)
		m.add(1, 0, 0, 0, clock(1), blk(p.main.entry), blk(p.main.cond), blk(p.main.els), blk(p.main.done), ret(p.main.entry), clock(100))
		for i, c := range creators {
			id := uint64(10 + i)
			b := w.els
			if c == "time.goFunc" {
				b = w.then // the callback goes its own way in both runs
			}
			m.add(id, 0, 0, 0, clock(int64(20+i)), blk(w.entry), wait(w.entry, trace.OpLock, int64(21+i), int64(22+i)), blk(w.cond), blk(b), blk(w.done), ret(w.entry), clock(int64(30+i)))
			g := &m.gs[len(m.gs)-1]
			g.FirstBlock, g.HasFirst, g.Creator = uint32(w.entry), true, c
		}
		return m
	}
	a := run("net/http.(*Server).Serve", "time.goFunc")
	b := run("time.goFunc", "net/http.(*Server).Serve")
	rep := mustCompare(t, a, b)
	if !rep.Summary.Same || rep.Summary.Matched != 3 {
		t.Fatalf("same %v, %d matched, %d sections; want the same runs, 3 matched", rep.Summary.Same, rep.Summary.Matched, len(rep.Sections))
	}
	var names []string
	for _, pr := range rep.Goroutines.Matched {
		names = append(names, pr.Spawn)
		if pr.A == 10 && pr.B != 11 || pr.A == 11 && pr.B != 10 {
			t.Errorf("%s: goroutine %d of a paired with %d of b", pr.Spawn, pr.A, pr.B)
		}
	}
	slices.Sort(names)
	want := []string{"main", "net/http handler worker #1", "time.AfterFunc worker #1"}
	if !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
}

// TestOrphansInCreationOrder: errgroup's workers, each given its item, are
// paired in the order g.Go created them (the Go runtime's ids), not the
// order they reached instrumented code in: run b started the second
// first, and paired by that order each met the other item's branch.
func TestOrphansInCreationOrder(t *testing.T) {
	p := newParting(t)
	w := p.worker
	worker := func(m *memTrace, id, goid uint64, then bool) {
		b := w.els
		if then {
			b = w.then
		}
		m.add(id, 0, 0, 0, clock(int64(10*id)), blk(w.entry), wait(w.entry, trace.OpLock, int64(10*id+1), int64(10*id+2)), blk(w.cond), blk(b), blk(w.done), ret(w.entry), clock(int64(10*id+5)))
		g := &m.gs[len(m.gs)-1]
		g.FirstBlock, g.HasFirst, g.Creator, g.GoID = uint32(w.entry), true, "golang.org/x/sync/errgroup.(*Group).Go", goid
	}
	run := func(first, second uint64) *memTrace {
		m := newMem(p.g)
		m.add(1, 0, 0, 0, clock(1), blk(p.main.entry), blk(p.main.cond), blk(p.main.els), blk(p.main.done), ret(p.main.entry), clock(100))
		// Goroutine 20 has item 0 and takes the branch; 21 does not.
		worker(m, 2, first, first == 20)
		worker(m, 3, second, second == 20)
		return m
	}
	rep := mustCompare(t, run(20, 21), run(21, 20))
	if !rep.Summary.Same || rep.Summary.Matched != 3 {
		t.Fatalf("same %v, %d matched, %d sections; want the same runs", rep.Summary.Same, rep.Summary.Matched, len(rep.Sections))
	}
	for _, pr := range rep.Goroutines.Matched {
		if pr.A != 1 && pr.A == pr.B {
			t.Errorf("%s: goroutine %d of a paired with %d of b, which another goroutine created", pr.Spawn, pr.A, pr.B)
		}
	}
}
