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

func lookup(goid uint64) *G {
	hi := goid >> pageBits
	if hi >= topSize {
		g, _ := overflow.Load(goid)
		gg, _ := g.(*G)
		return gg
	}
	p := table[hi].Load()
	if p == nil {
		return nil
	}
	return p[goid&(pageSize-1)].Load()
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
