package perfetto

import "github.com/divergo/divergo/internal/trace"

// releasedBy lists, for each operation that can wait, the operations of
// another goroutine on the same object that can end the wait
// (docs/FORMAT.md, "Sync events and releasers").
var releasedBy = map[trace.Op][]trace.Op{
	trace.OpLock:     {trace.OpUnlock, trace.OpRUnlock},
	trace.OpRLock:    {trace.OpUnlock, trace.OpRUnlock},
	trace.OpTryLock:  {trace.OpUnlock, trace.OpRUnlock},
	trace.OpRecv:     {trace.OpSend, trace.OpClose, trace.OpSelect},
	trace.OpSend:     {trace.OpRecv, trace.OpSelect},
	trace.OpSelect:   {trace.OpSend, trace.OpRecv, trace.OpClose, trace.OpSelect},
	trace.OpWGWait:   {trace.OpWGDone},
	trace.OpCondWait: {trace.OpCondSignal, trace.OpCondBroadcast},
	trace.OpOnce:     {trace.OpOnce},
}

// releases reports whether an operation can end another goroutine's wait.
// A Once that waited ran nothing: the goroutine that ran the function
// released it.
func releases(op trace.Op, waited bool) bool {
	switch op {
	case trace.OpUnlock, trace.OpRUnlock, trace.OpSend, trace.OpRecv, trace.OpClose,
		trace.OpSelect, trace.OpWGDone, trace.OpCondSignal, trace.OpCondBroadcast:
		return true
	case trace.OpOnce:
		return !waited
	}
	return false
}

// ringSize is how many recent releases an object remembers: a wait is
// matched against releases at or before its end, processed in time order,
// so the latest few are all that can be its releaser.
const ringSize = 4

// release is a release-like operation on an object.
type release struct {
	g     *gstate
	op    trace.Op
	block uint32
	time  int64
	drawn bool // its zero-length slice is written
}

type object struct {
	recs []*release // oldest first, at most ringSize
}

// record remembers a release by g at time t.
func (rs *runState) record(g *gstate, ev trace.Event, t int64) {
	o := rs.objs[ev.Object]
	if o == nil {
		o = &object{}
		rs.objs[ev.Object] = o
	}
	if len(o.recs) == ringSize {
		copy(o.recs, o.recs[1:])
		o.recs = o.recs[:ringSize-1]
	}
	o.recs = append(o.recs, &release{g: g, op: ev.Op, block: ev.Block, time: t})
}

// releaser is the latest release of the waited object by another goroutine
// at or before end, of an operation that can end this wait.
func (rs *runState) releaser(g *gstate, ev trace.Event, end int64) *release {
	if ev.Object == 0 {
		return nil
	}
	o := rs.objs[ev.Object]
	if o == nil {
		return nil
	}
	ok := releasedBy[ev.Op]
	for i := len(o.recs) - 1; i >= 0; i-- {
		rec := o.recs[i]
		if rec.g == g || rec.time > end {
			continue
		}
		for _, op := range ok {
			if rec.op == op {
				return rec
			}
		}
	}
	return nil
}
