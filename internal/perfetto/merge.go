package perfetto

import (
	"container/heap"
	"fmt"
	"math"

	"github.com/divergo/divergo/internal/trace"
)

// run draws every goroutine of the run, their events merged by time so that
// each wait is drawn after every release that could have ended it.
func (rs *runState) run() error {
	// Releasers by causality, paired in a merge of their own kept the
	// pairing's slack ahead of this one: a wait is drawn when the merge
	// reaches its end, and its releaser is final once the pairing has
	// passed that end by the slack.
	rs.pairs = trace.NewReleasers(rs.r, 0)
	rs.metadata()
	h := make(gheap, 0, len(rs.order))
	for _, g := range rs.order {
		// Not loaded before its start: only goroutines alive at a time
		// hold a chunk in memory.
		g.key = g.info.Start
		g.prio = 1
		h = append(h, g)
	}
	heap.Init(&h)
	for h.Len() > 0 {
		if err := rs.w.enc.err; err != nil {
			return err // the output failed: reading on is pointless
		}
		g := h[0]
		if err := rs.pairs.Advance(satAdd(g.key, 2*trace.DefaultPairSlack)); err != nil {
			return err
		}
		if !g.loaded {
			g.loaded = true
			it, err := rs.r.Events(g.info.ID)
			if err != nil {
				return err
			}
			g.it = it
			g.begin()
		} else {
			g.step(g.ev)
		}
		more, err := g.advance()
		if err != nil {
			return fmt.Errorf("goroutine %d (%s): %w", g.info.ID, g.info.Path, err)
		}
		if !more {
			g.finish()
			heap.Pop(&h)
			continue
		}
		heap.Fix(&h, 0)
	}
	return nil
}

// advance reads the goroutine's next event and sets its place in the merge.
func (g *gstate) advance() (bool, error) {
	if !g.it.Next() {
		return false, g.it.Err()
	}
	ev := g.it.Event()
	g.ev = ev
	key, prio := g.t0, uint8(1)
	switch ev.Kind {
	case trace.EvClock:
		key = ev.Time
	case trace.EvPerturb:
		key = ev.End
	case trace.EvSync:
		key = ev.End
		if !ev.Waited && trace.Releases(ev.Op, false) {
			prio = 0
		}
	}
	// A goroutine's own timestamps only grow; should one not, keep the
	// merge order sane rather than trust it.
	g.key, g.prio = max(key, g.key), prio
	return true, nil
}

// gheap orders goroutines by the time of their next event, releases
// first at equal times.
type gheap []*gstate

func (h gheap) Len() int { return len(h) }
func (h gheap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.key != b.key {
		return a.key < b.key
	}
	if a.prio != b.prio {
		return a.prio < b.prio
	}
	return a.info.ID < b.info.ID
}
func (h gheap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *gheap) Push(x any)   { *h = append(*h, x.(*gstate)) }
func (h *gheap) Pop() any {
	old := *h
	g := old[len(old)-1]
	*h = old[:len(old)-1]
	return g
}

// satAdd is a+b, at most the largest int64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
