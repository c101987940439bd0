package perfetto

import (
	"fmt"
	"math"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
)

// maxPending bounds the events kept while waiting for the next timestamp.
// The runtime stamps every chunk, so real traces stay far below it; a trace
// that does not gets the excess drawn at the last timestamp.
const maxPending = 1 << 16

// pend is a step seen since the goroutine's last timestamp: a step of the
// replay (a block, probed or implied, a call or a return) when st.Kind is
// set, else the event ev (outcome, spawn).
type pend struct {
	st  replay.Step
	ev  trace.Event
	tok int64 // index among the goroutine's tokens, as compare counts them
	cum int64 // instructions of the blocks before it since the timestamp
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

	it     trace.EventIter
	loaded bool
	ev     trace.Event // the next event, when loaded
	key    int64       // heap order: time of the next event
	prio   uint8       // 0 for releases, so that they precede waits at equal times

	t0      int64 // last timestamp
	cum     int64
	pending []pend
	ntok    int64

	// rep puts the implied blocks back and follows calls, as compare does,
	// so that their instructions take their share of time and tokens are
	// counted alike on both sides of a diff.
	rep   *replay.Replayer
	steps []replay.Step // scratch for one event's steps

	frames []frame
	out    []slot

	marks []mark
	mi    int
	open  int // index of the open mark, -1 for none
}

// begin starts the goroutine's track.
func (g *gstate) begin() {
	g.t0 = max(g.info.Start, 0)
	g.marks = g.rs.marks[g.info.ID]
	args := []arg{num("goroutine", int64(g.info.ID)), num("goid", int64(g.info.GoID)), str("path", g.info.Path)}
	if p, ok := g.rs.gs[g.info.Parent]; ok {
		args = append(args, str("parent", p.who()))
	}
	if !g.info.Ended {
		args = append(args, boolean("ended", false))
	}
	g.rs.w.enc.emit(&event{ph: 'B', name: fmt.Sprintf("goroutine %d", g.info.ID), cat: "goroutine", pid: g.rs.pid, tid: g.tid, ts: g.t0, args: args})
	g.out = append(g.out, slot{kind: 'g', cat: "goroutine"})
}

// step takes the goroutine's next event.
func (g *gstate) step(ev trace.Event) {
	switch ev.Kind {
	case trace.EvClock:
		g.stamp(ev.Time)
	case trace.EvSync:
		t := ev.End
		if ev.Waited {
			t = ev.Begin
		}
		g.stamp(t)
		tok := g.ntok
		g.ntok++
		g.apply(&pend{ev: ev, tok: tok}, g.t0)
	case trace.EvBlock, trace.EvExit:
		if ev.Kind == trace.EvBlock {
			g.steps = g.rep.Block(int32(ev.Block), g.steps[:0])
		} else {
			g.steps = g.rep.Exit(int32(ev.Block), g.steps[:0])
		}
		for _, st := range g.steps {
			g.pend(pend{st: st})
			if st.Kind != replay.Exit {
				g.cum += g.rs.block[st.Block].instrs
			}
		}
	default:
		g.pend(pend{ev: ev})
	}
}

// pend keeps a token until the next timestamp.
func (g *gstate) pend(p pend) {
	if len(g.pending) == maxPending {
		g.stamp(g.t0)
	}
	p.tok, p.cum = g.ntok, g.cum
	g.pending = append(g.pending, p)
	g.ntok++
}

// stamp spreads the time from the last timestamp to t over the events seen
// since, by instruction counts, and draws them.
func (g *gstate) stamp(t int64) {
	t = max(t, g.t0)
	span := float64(t - g.t0)
	for i := range g.pending {
		p := &g.pending[i]
		at := g.t0
		if g.cum > 0 {
			at += int64(math.Round(span * float64(p.cum) / float64(g.cum)))
		}
		g.apply(p, min(at, t))
	}
	g.pending, g.cum, g.t0 = g.pending[:0], 0, t
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
	args := []arg{str("site", trace.SiteName(g.rs.g, ev.Block)), num("ordinal", int64(ev.Ordinal)), num("child", int64(ev.Child))}
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

// sync draws a wait, with an arrow from its releaser, and remembers
// releases for the waits they end.
func (g *gstate) sync(ev trace.Event, at int64) {
	end := at
	if ev.Waited {
		end = max(ev.End, at)
		g.wait(ev, at, end)
		g.t0 = end
	}
	// A wait still blocked when the trace ended released nobody.
	if ev.Object != 0 && !ev.Blocked && trace.Releases(ev.Op, ev.Waited) {
		g.rs.record(g, ev, end)
	}
}

func (g *gstate) wait(ev trace.Event, begin, end int64) {
	enc := g.rs.w.enc
	site := g.rs.site(ev.Block)
	args := []arg{str("op", ev.Op.String()), str("site", site), num("waited_ns", end-begin)}
	if ev.Object != 0 {
		args = append(args, str("object", fmt.Sprintf("%#x", ev.Object)))
	}
	rel := g.rs.releaser(g, ev, end)
	switch {
	case rel != nil:
		args = append(args, str("releaser", rel.g.who()), str("released_by", rel.op.String()+" @ "+g.rs.site(rel.block)))
	case ev.Op == trace.OpSleep:
		args = append(args, str("releaser", "timer"))
	default:
		args = append(args, str("releaser", "unknown"))
	}
	g.ensureFrames(-1)
	enc.emit(&event{ph: 'X', name: ev.Op.String() + " @ " + site, cat: "wait", pid: g.rs.pid, tid: g.tid, ts: begin, dur: end - begin, args: args})
	if rel == nil {
		return
	}
	if !rel.drawn {
		rel.drawn = true
		enc.emit(&event{ph: 'X', name: rel.op.String() + " @ " + g.rs.site(rel.block), cat: "release", pid: g.rs.pid, tid: rel.g.tid, ts: rel.time, dur: 0,
			args: []arg{str("object", fmt.Sprintf("%#x", ev.Object))}})
	}
	id := g.rs.w.flowID()
	enc.emit(&event{ph: 's', name: "release", cat: "release", pid: g.rs.pid, tid: rel.g.tid, ts: rel.time, id: id, hasID: true})
	// Inside the wait slice, so that it binds to the wait and not to what
	// follows it.
	fts := max(begin, end-1, rel.time)
	enc.emit(&event{ph: 'f', name: "release", cat: "release", pid: g.rs.pid, tid: g.tid, ts: fts, id: id, hasID: true, bp: 'e'})
}

// finish ends the goroutine's track at its end, or at its last timestamp
// when it did not end.
func (g *gstate) finish() {
	end := g.t0
	if g.info.Ended {
		end = max(end, g.info.End)
	}
	g.stamp(end)
	g.marksAt(math.MaxInt64, end)
	for len(g.frames) > 0 {
		g.popFrame(end)
	}
	for len(g.out) > 0 {
		g.endSlot(end)
	}
	g.it = nil
	g.pending = nil
}
