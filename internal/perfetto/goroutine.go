package perfetto

import (
	"fmt"
	"math"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
)

// pend is a token to draw: a step of the replay (a block, probed or
// implied, a call or a return) when st.Kind is set, else the event ev
// (outcome, spawn, sync).
type pend struct {
	st  replay.Step
	ev  trace.Event
	tok int64 // index among the goroutine's tokens, as compare counts them
}

// frame is an open function call.
type frame struct {
	fn      int32
	entry   uint32
	start   int64
	emitted bool // its B event is written
}

// slot is an entry of the stack of B events written and not yet ended.
type slot struct {
	kind  byte   // 'g' the goroutine, 'f' a frame, 's' a divergent section
	frame int    // index in frames for 'f'; for 's', how many frames were open when it began
	cat   string // of the B event, repeated on the E: some parsers want a cat on every event
}

// gstate is one goroutine being drawn.
type gstate struct {
	rs   *runState
	info trace.GoroutineInfo
	tid  int

	// lane is the goroutine in the merge (replay.Timeline), which replays
	// its blocks (implied ones put back and calls followed, as compare
	// does, so that tokens are counted alike on both sides of a diff) and
	// gives them their times.
	lane  *replay.Lane
	nsync uint64 // sync events drawn (replay.SyncRef)
	ntok  int64

	frames []frame
	out    []slot

	marks []mark
	mi    int
	open  int // index of the open mark, -1 for none
}

// begin starts the goroutine's track.
func (g *gstate) begin() {
	t0 := g.lane.T0()
	g.marks = g.rs.marks[g.info.ID]
	args := []arg{num("goroutine", int64(g.info.ID)), num("goid", int64(g.info.GoID)), str("path", g.info.Path)}
	if p, ok := g.rs.gs[g.info.Parent]; ok {
		args = append(args, str("parent", p.who()))
	}
	if !g.info.Ended {
		args = append(args, boolean("ended", false))
	}
	g.rs.w.enc.emit(&event{ph: 'B', name: fmt.Sprintf("goroutine %d", g.info.ID), cat: "goroutine", pid: g.rs.pid, tid: g.tid, ts: t0, args: args})
	g.out = append(g.out, slot{kind: 'g', cat: "goroutine"})
}

// apply draws token p at time at.
func (g *gstate) apply(p *pend, at int64) {
	g.marksAt(p.tok, at)
	switch p.st.Kind {
	case replay.Call:
		g.frames = append(g.frames, frame{fn: g.rs.block[p.st.Block].fn, entry: uint32(p.st.Block), start: at})
		return
	case replay.Exit:
		if len(g.frames) > 0 {
			g.popFrame(at)
		}
		return
	case replay.Block:
		return
	}
	switch p.ev.Kind {
	case trace.EvSpawn:
		g.spawn(p.ev, at)
	case trace.EvSync:
		g.sync(p.ev, at)
	}
}

func (g *gstate) frameName(f *frame) (string, []arg) {
	fn := g.rs.g.Func(int(f.fn))
	if fn == nil {
		return "?", nil
	}
	return g.rs.short[f.fn], []arg{str("func", fn.Name), str("pos", fn.Pos.FileLine()), str("time", "estimated")}
}

// popFrame ends the innermost frame at time at.
func (g *gstate) popFrame(at int64) {
	n := len(g.frames) - 1
	f := &g.frames[n]
	enc := g.rs.w.enc
	if f.emitted {
		for len(g.out) > 0 {
			s := g.out[len(g.out)-1]
			g.endSlot(at)
			if s.kind == 'f' && s.frame == n {
				break
			}
		}
	} else if d := at - f.start; d >= g.rs.w.minFrame {
		// Its callers' B events go first: a viewer given two slices that
		// start at the same time nests them in file order.
		g.ensureFrames(n)
		name, args := g.frameName(f)
		enc.emit(&event{ph: 'X', name: name, cat: "frame", pid: g.rs.pid, tid: g.tid, ts: f.start, dur: d, args: args})
	}
	g.frames = g.frames[:n]
}

// ensureFrames writes the B events of the first n open frames not yet
// written (all of them for n < 0), so that what is drawn next nests inside
// them, in time and in file order.
func (g *gstate) ensureFrames(n int) {
	if n < 0 || n > len(g.frames) {
		n = len(g.frames)
	}
	for i := range g.frames[:n] {
		f := &g.frames[i]
		if f.emitted {
			continue
		}
		name, args := g.frameName(f)
		g.rs.w.enc.emit(&event{ph: 'B', name: name, cat: "frame", pid: g.rs.pid, tid: g.tid, ts: f.start, args: args})
		f.emitted = true
		g.out = append(g.out, slot{kind: 'f', frame: i, cat: "frame"})
	}
}

// endSlot writes the E event of the innermost open slice. A frame ended
// before its return (a divergent section closed around it) is written again
// from here on if something inside it needs drawing.
func (g *gstate) endSlot(at int64) {
	s := g.out[len(g.out)-1]
	g.out = g.out[:len(g.out)-1]
	g.rs.w.enc.emit(&event{ph: 'E', cat: s.cat, pid: g.rs.pid, tid: g.tid, ts: at})
	switch s.kind {
	case 'f':
		g.frames[s.frame].emitted = false
		g.frames[s.frame].start = at
	case 's':
		g.open = -1
		// Frames that began inside the section and go on after it are
		// drawn, if at all, from here: their start is inside a slice
		// already ended.
		for i := s.frame; i < len(g.frames); i++ {
			if f := &g.frames[i]; !f.emitted {
				f.start = max(f.start, at)
			}
		}
	}
}

// spawn draws a go statement and an arrow to the child's track.
func (g *gstate) spawn(ev trace.Event, at int64) {
	enc := g.rs.w.enc
	child := g.rs.gs[ev.Child]
	name := "go ?"
	args := []arg{str("site", g.rs.site(ev.Site, ev.Block)), num("ordinal", int64(ev.Ordinal)), num("child", int64(ev.Child))}
	if child != nil {
		name = "go " + child.info.Path
		// The child cannot have started before the go statement; the
		// interpolated time can say so, the child's clock cannot.
		at = max(min(at, child.info.Start), g.info.Start)
	}
	enc.emit(&event{ph: 'i', name: name, cat: "spawn", pid: g.rs.pid, tid: g.tid, ts: at, scope: 't', args: args})
	if child == nil {
		return
	}
	id := g.rs.w.flowID()
	enc.emit(&event{ph: 's', name: "go", cat: "spawn", pid: g.rs.pid, tid: g.tid, ts: at, id: id, hasID: true})
	// A nanosecond into the child's goroutine slice, bound to the enclosing
	// slice: at its very start, whether it binds would depend on how a
	// viewer orders events of equal times.
	fts := max(child.info.Start, at)
	if child.info.Ended && child.info.End > fts {
		fts++
	}
	enc.emit(&event{ph: 'f', name: "go", cat: "spawn", pid: g.rs.pid, tid: child.tid, ts: fts, id: id, hasID: true, bp: 'e'})
}

// sync draws a wait, with an arrow from its releaser.
func (g *gstate) sync(ev trace.Event, at int64) {
	ref := replay.SyncRef{G: g.info.ID, N: g.nsync}
	g.nsync++
	if ev.Waited {
		// The timeline resumes the goroutine's time at the same end.
		g.wait(ev, ref, at, max(ev.End, at))
	}
}

func (g *gstate) wait(ev trace.Event, ref replay.SyncRef, begin, end int64) {
	rs := g.rs
	enc := rs.w.enc
	site := rs.site(ev.Site, ev.Block)
	args := []arg{str("op", ev.Op.String()), str("site", site), num("waited_ns", end-begin)}
	if ev.Object != 0 {
		args = append(args, str("object", fmt.Sprintf("%#x", ev.Object)))
	}
	rel, ok := rs.pairs.Of(ref)
	why := rs.pairs.Why(ref)
	rs.pairs.Forget(ref)
	if ev.Blocked {
		// Still blocked when the trace ended: drawn to the end with no
		// arrow, as wait lists it apart, even when a receive stamped
		// later took its value (it had not run again).
		ok, why = false, replay.WhyUnfinished
	}
	r := rs.gs[rel.G]
	switch {
	case ok && r != nil:
		args = append(args, str("releaser", r.who()), str("released_by", rel.Op.String()+" @ "+rs.site(rel.Site, rel.Block)))
	case ev.Op == trace.OpSleep:
		args = append(args, str("releaser", "timer"))
	default:
		args = append(args, str("releaser", "unknown"), str("why", why.String()))
	}
	g.ensureFrames(-1)
	enc.emit(&event{ph: 'X', name: ev.Op.String() + " @ " + site, cat: "wait", pid: rs.pid, tid: g.tid, ts: begin, dur: end - begin, args: args})
	if !ok || r == nil {
		return
	}
	// The release's slice is drawn once; drawn counts the other waits it
	// ended, so that the entry goes with the last.
	if left, seen := rs.drawn[rel.SyncRef]; seen {
		if left <= 1 {
			delete(rs.drawn, rel.SyncRef)
		} else {
			rs.drawn[rel.SyncRef] = left - 1
		}
	} else {
		if n := rs.pairs.Uses(rel.SyncRef); n > 0 {
			rs.drawn[rel.SyncRef] = n // this wait's share was forgotten above
		}
		enc.emit(&event{ph: 'X', name: rel.Op.String() + " @ " + rs.site(rel.Site, rel.Block), cat: "release", pid: rs.pid, tid: r.tid, ts: rel.Time, dur: 0,
			args: []arg{str("object", fmt.Sprintf("%#x", ev.Object))}})
	}
	if rel.Time > end {
		// Stamped after the wait's end (clocks a little apart, within
		// the pairing's slack): named, but an arrow back in time would
		// bind to nothing.
		return
	}
	id := rs.w.flowID()
	enc.emit(&event{ph: 's', name: "release", cat: "release", pid: rs.pid, tid: r.tid, ts: rel.Time, id: id, hasID: true})
	// Inside the wait slice, so that it binds to the wait and not to what
	// follows it.
	fts := max(begin, end-1, rel.Time)
	enc.emit(&event{ph: 'f', name: "release", cat: "release", pid: rs.pid, tid: g.tid, ts: fts, id: id, hasID: true, bp: 'e'})
}

// finish ends the goroutine's track at its end, or at its last timestamp
// when it did not end.
func (g *gstate) finish() {
	// The timeline has spread the last stretch up to the end, or to the
	// last timestamp when the goroutine did not end.
	end := g.lane.T0()
	g.marksAt(math.MaxInt64, end)
	for len(g.frames) > 0 {
		g.popFrame(end)
	}
	for len(g.out) > 0 {
		g.endSlot(end)
	}
	g.lane = nil
}
