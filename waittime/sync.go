package waittime

import (
	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
)

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

// release is a release-side event that ends some wait ([replay.Releasers]
// says which), with the releaser's path at that moment, kept until every
// wait it ended has been explained.
type release struct {
	ref   replay.SyncRef
	op    trace.Op
	g     *gstate
	time  int64
	block int32
	site  int32
	snap  *snap
	uses  int  // waits named by the pairing and still to explain with it
	held  bool // in its object's ring of recent releases
	idx   int  // in g.recs
}

// ringSize is how many recent releases of a mutex, WaitGroup, Once or Cond
// are kept whether or not a wait was named for them yet: their waits are
// named by the latest release before the wait's end, which the pairing
// knows only once it passes that end, while a channel's waits are named as
// soon as the release is paired. The analysis applies waits at their end,
// so the release they name is one of the object's last few.
const ringSize = 4

// object is a mutex, WaitGroup, Once or Cond: its recent releases.
type object struct {
	recs []*release // oldest first
}

// latestRule reports whether the releases of op end waits named by the
// latest release before their end (docs/FORMAT.md).
func latestRule(op trace.Op) bool {
	switch op {
	case trace.OpUnlock, trace.OpRUnlock, trace.OpWGDone, trace.OpOnce, trace.OpCondSignal, trace.OpCondBroadcast:
		return true
	}
	return false
}

// recordRelease keeps g's release event ev (its sync event number n) when it
// ended some wait, or may have.
func (a *analysis) recordRelease(g *gstate, ev trace.Event, n uint64) {
	ref := replay.SyncRef{G: g.info.ID, N: n}
	uses := a.pairs.Uses(ref)
	a.pairs.ForgetRelease(ref)
	ring := ev.Object != 0 && latestRule(ev.Op) && !(ev.Op == trace.OpOnce && ev.Waited)
	if uses == 0 && !ring {
		return
	}
	rec := &release{ref: ref, op: replay.ReleaseOp(ev), g: g, time: ev.End, block: int32(ev.Block), site: int32(ev.Site),
		snap: g.path.snapshot(nil), uses: uses, held: ring, idx: len(g.recs)}
	g.recs = append(g.recs, rec)
	g.refs++
	a.rels[ref] = rec
	if !ring {
		return
	}
	o := a.objs[ev.Object]
	if o == nil {
		o = &object{}
		a.objs[ev.Object] = o
	}
	if len(o.recs) == ringSize {
		old := o.recs[0]
		o.recs = append(o.recs[:0], o.recs[1:]...)
		old.held = false
		a.drop(old)
	}
	o.recs = append(o.recs, rec)
}

// releaser is the kept release that ended g's wait (sync event number n):
// the one the pairing named. due is when that release is applied in the
// merge, for a wait that came first; 0 when there is none to wait for.
func (a *analysis) releaser(g *gstate, n uint64) (rec *release, due int64) {
	rel, ok := a.pairs.Of(replay.SyncRef{G: g.info.ID, N: n})
	if !ok {
		return nil, 0
	}
	if rec := a.rels[rel.SyncRef]; rec != nil {
		return rec, 0
	}
	return nil, rel.Time
}

// used counts one wait explained with rec.
func (a *analysis) used(rec *release) {
	if rec.uses > 0 {
		rec.uses--
	}
	a.drop(rec)
}

// drop forgets rec once no wait named for it is left and its object's ring
// let it go.
func (a *analysis) drop(rec *release) {
	if rec.uses > 0 || rec.held {
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
