package perfetto

import "github.com/divergo/divergo/internal/trace"

// ringSize is how many recent releases an object remembers: a wait is
// matched against releases at or before its end, processed in time order,
// so the latest few are all that can be its releaser.
const ringSize = 4

// release is a release-like operation on an object.
type release struct {
	g     *gstate
	op    trace.Op
	block uint32
	site  uint32
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
	o.recs = append(o.recs, &release{g: g, op: trace.ReleaseOp(ev), block: ev.Block, site: ev.Site, time: t})
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
	for i := len(o.recs) - 1; i >= 0; i-- {
		rec := o.recs[i]
		if rec.g != g && rec.time <= end && trace.CanRelease(trace.ReleaseOp(ev), rec.op) {
			return rec
		}
	}
	return nil
}
