package waittime

import "github.com/divergo/divergo/internal/trace"

// stateOf is the blocked state of a wait in op.
func stateOf(op trace.Op) State {
	switch op {
	case trace.OpLock, trace.OpRLock, trace.OpTryLock, trace.OpUnlock, trace.OpRUnlock:
		return Mutex
	case trace.OpSend, trace.OpRecv, trace.OpClose:
		return Chan
	case trace.OpSelect:
		return Select
	case trace.OpWGAdd, trace.OpWGDone, trace.OpWGWait:
		return WG
	case trace.OpCondWait, trace.OpCondSignal, trace.OpCondBroadcast:
		return Cond
	case trace.OpOnce:
		return Once
	case trace.OpSleep:
		return Sleep
	}
	return Blocked
}

// release is a release-side event that ends some wait ([trace.Releasers]
// says which), with the releaser's path at that moment, kept until every
// wait it ended has been explained.
type release struct {
	ref   trace.SyncRef
	op    trace.Op
	g     *gstate
	time  int64
	block int32
	snap  *snap
	uses  int // waits still to explain with it
	idx   int // in g.recs
}

// recordRelease keeps g's release event ev (its sync event number n) when it
// ended some wait.
func (a *analysis) recordRelease(g *gstate, ev trace.Event, n uint64) {
	ref := trace.SyncRef{G: g.info.ID, N: n}
	uses := a.pairs.Uses(ref)
	if uses == 0 {
		return
	}
	rec := &release{ref: ref, op: trace.ReleaseOp(ev), g: g, time: ev.End, block: int32(ev.Block),
		snap: g.path.snapshot(nil), uses: uses, idx: len(g.recs)}
	g.recs = append(g.recs, rec)
	g.refs++
	a.rels[ref] = rec
}

// releaser is the kept release that ended g's wait (sync event number n):
// the one [trace.Pair] named. due is when that release is applied in the
// merge, for a wait that came first; 0 when there is none to wait for.
func (a *analysis) releaser(g *gstate, n uint64) (rec *release, due int64) {
	rel, ok := a.pairs.Of(trace.SyncRef{G: g.info.ID, N: n})
	if !ok {
		return nil, 0
	}
	if rec := a.rels[rel.SyncRef]; rec != nil {
		return rec, 0
	}
	return nil, rel.Time
}

// used drops rec once every wait it ended has been explained.
func (a *analysis) used(rec *release) {
	if rec.uses--; rec.uses > 0 {
		return
	}
	delete(a.rels, rec.ref)
	old := rec.g
	last := old.recs[len(old.recs)-1]
	old.recs[rec.idx], last.idx = last, rec.idx
	old.recs = old.recs[:len(old.recs)-1]
	old.refs--
	a.maybeFree(old)
}
