package runtime

import (
	"sync"
	"sync/atomic"
)

// The goroutine table maps goids to recorders without a lock: a fixed top
// level of pages, each page allocated on first use and installed with a
// compare-and-swap. Readers do two atomic loads (plain loads on amd64 and
// arm64). Goids beyond the table go to a sync.Map.
const (
	pageBits = 12
	pageSize = 1 << pageBits
	topSize  = 1 << 16 // goids below 1<<28
)

type page [pageSize]atomic.Pointer[G]

var (
	table    [topSize]atomic.Pointer[page]
	overflow sync.Map // uint64 → *G
)

// lookup returns goid's recorder, or nil. It inlines: enter calls it at
// every function entry, where a frame of its own cost about as much as the
// lookup (with curGoid's, BenchmarkEnter 8.6 -> 7.1 ns). Goids beyond the
// table take a call, through callGoid for the reason B says.
func lookup(goid uint64) *G {
	if hi := goid >> pageBits; hi < topSize {
		if p := table[hi].Load(); p != nil {
			return p[goid&(pageSize-1)].Load()
		}
		return nil
	}
	return callGoid(goid, lookupOverflow)
}

// callGoid calls f(goid): see B.
func callGoid(goid uint64, f func(uint64) *G) *G { return f(goid) }

// lookupOverflow is lookup for a goid beyond the table.
func lookupOverflow(goid uint64) *G {
	g, _ := overflow.Load(goid)
	gg, _ := g.(*G)
	return gg
}

func store(goid uint64, g *G) {
	hi := goid >> pageBits
	if hi >= topSize {
		if g == nil {
			overflow.Delete(goid)
		} else {
			overflow.Store(goid, g)
		}
		return
	}
	p := table[hi].Load()
	if p == nil {
		if g == nil {
			return
		}
		table[hi].CompareAndSwap(nil, new(page))
		p = table[hi].Load()
	}
	p[goid&(pageSize-1)].Store(g)
}
