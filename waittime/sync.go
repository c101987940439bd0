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

// ringSize is how many recent release-side events each object remembers:
// enough to step over a release timestamped just after the wait it ended.
const ringSize = 4

// release is a release-side event with the releaser's path at that moment.
type release struct {
	op    trace.Op
	g     *gstate
	time  int64
	block int32
	site  int32
	snap  *snap
	idx   int // in g.recs
}

// object is a mutex, channel, WaitGroup, ... seen in the trace.
type object struct {
	recs []*release // oldest first
}

func (a *analysis) recordRelease(g *gstate, ev trace.Event) {
	if ev.Object == 0 {
		return // no object (a select): nobody can be matched to it
	}
	o := a.objs[ev.Object]
	if o == nil {
		o = &object{}
		a.objs[ev.Object] = o
	}
	var rec *release
	if len(o.recs) == ringSize {
		rec = o.recs[0]
		copy(o.recs, o.recs[1:])
		o.recs = o.recs[:ringSize-1]
		old := rec.g
		last := old.recs[len(old.recs)-1]
		old.recs[rec.idx], last.idx = last, rec.idx
		old.recs = old.recs[:len(old.recs)-1]
		old.refs--
		a.maybeFree(old)
	} else {
		rec = &release{}
	}
	*rec = release{op: trace.ReleaseOp(ev), g: g, time: ev.End, block: int32(ev.Block), site: int32(ev.Site), snap: g.path.snapshot(rec.snap), idx: len(g.recs)}
	g.recs = append(g.recs, rec)
	g.refs++
	o.recs = append(o.recs, rec)
}

// releaser finds the release-side event that ended g's wait ev: the latest
// one before its end by another goroutine, else, when late, the earliest
// within the slack after it.
func (a *analysis) releaser(g *gstate, ev trace.Event, late bool) *release {
	o := a.objs[ev.Object]
	if o == nil || ev.Object == 0 {
		return nil
	}
	var after *release
	for i := len(o.recs) - 1; i >= 0; i-- {
		rec := o.recs[i]
		if rec.g == g || !trace.CanRelease(trace.ReleaseOp(ev), rec.op) {
			continue
		}
		if rec.time <= ev.End {
			return rec
		}
		if late && rec.time <= ev.End+a.opts.Slack {
			after = rec
		}
	}
	return after
}
