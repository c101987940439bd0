package waittime

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// analysis is the state of one run of Analyze.
type analysis struct {
	graph  *tbb.Graph
	opts   Options
	weight []float64 // per block: instructions, at least 1
	// paths are the implied paths of the graph, shared by the goroutines'
	// replayers (the analysis runs on one goroutine); steps is scratch for
	// one event's replayed steps.
	paths *replay.Paths
	steps []replay.Step

	gs    map[uint64]*gstate // live goroutines and dead ones still referenced
	infos map[uint64]*ginfo  // every goroutine, for names
	queue queue
	// pairs names every wait's releaser (trace.Pair, read before the
	// analysis); rels are the releases still needed, with the releaser's
	// path at the release.
	pairs *trace.Releasers
	rels  map[trace.SyncRef]*release
	objs  map[uint64]*object
	sites map[siteKey]*site

	// byGoID finds a goroutine by its Go id, files the program's source
	// files: for the wakers Go's execution trace names (woken.go).
	byGoID     map[uint64]*ginfo
	files      fileSet
	wokenWaits int

	blocked   int    // waits still blocked when the trace ended (FindBlocked lists them)
	perturbNs int64  // divergo's perturbation delays, all goroutines
	epoch     uint64 // counts applied events: when path slots change and snapshots are taken

	// scratch space reused by every wait
	long, short, expl []entry
	relLong, relShort []entry
	sums              []sides // by block × state, see sidesOf
	touched           []kind
	cands             []cand
}

// Analyze explains the waiting time of one trace. It reads every goroutine's
// events once, merged by time, and returns the sync sites ranked by total
// waiting time.
func Analyze(t Trace, opts Options) (*Report, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	g := t.Graph()
	if g == nil {
		return nil, errors.New("trace has no graph")
	}
	a := &analysis{
		graph:  g,
		opts:   opts,
		weight: make([]float64, len(g.Blocks)),
		paths:  replay.NewPaths(replay.NewProgram(g)),
		gs:     make(map[uint64]*gstate),
		infos:  make(map[uint64]*ginfo),
		rels:   make(map[trace.SyncRef]*release),
		objs:   make(map[uint64]*object),
		sites:  make(map[siteKey]*site),
	}
	for i, b := range g.Blocks {
		a.weight[i] = 1
		if b != nil && b.Instrs > 1 {
			a.weight[i] = float64(b.Instrs)
		}
	}
	// Releasers by causality (trace.Releasers: the rule the Perfetto
	// export and every other reader use), paired over the sync events in a
	// second merge kept pairAhead ahead of this one.
	a.pairs = trace.NewReleasers(t, opts.Slack)
	infos := slices.Clone(t.Goroutines())
	slices.SortFunc(infos, func(x, y trace.GoroutineInfo) int {
		switch {
		case x.ID < y.ID:
			return -1
		case x.ID > y.ID:
			return 1
		}
		return 0
	})
	for _, info := range infos {
		if _, dup := a.gs[info.ID]; dup {
			return nil, fmt.Errorf("goroutine %d is listed twice", info.ID)
		}
		g := newGState(info)
		a.gs[info.ID] = g
		a.infos[info.ID] = &ginfo{GoroutineInfo: info, fn: -1}
		if opts.GoTrace != nil && info.GoID != 0 {
			if a.byGoID == nil {
				a.byGoID = make(map[uint64]*ginfo)
				a.files = newFileSet(a.graph)
			}
			a.byGoID[info.GoID] = a.infos[info.ID]
		}
		// A goroutine's events are opened when the merge reaches its
		// start, so only goroutines alive at once hold a chunk in memory.
		g.key = info.Start
		heap.Push(&a.queue, g)
	}
	for _, info := range infos {
		if p := a.gs[info.Parent]; p != nil && info.Parent != info.ID {
			p.kids++
		}
	}
	for a.queue.Len() > 0 {
		g := heap.Pop(&a.queue).(*gstate)
		if g.it == nil {
			it, err := t.Events(g.info.ID)
			if err != nil {
				return nil, fmt.Errorf("opening events of goroutine %d: %w", g.info.ID, err)
			}
			g.it = it
			g.alloc(a)
			if err := a.step(g); err != nil {
				return nil, err
			}
			continue
		}
		if err := a.pairs.Advance(satAdd(g.key, max(pairAhead, 2*a.opts.Slack))); err != nil {
			return nil, err
		}
		if !a.apply(g) {
			heap.Push(&a.queue, g)
			continue
		}
		if err := a.step(g); err != nil {
			return nil, err
		}
	}
	rep := a.report()
	if p, ok := t.(interface{ Perturbed() (int64, bool) }); ok {
		rep.PerturbSeed, rep.Perturbed = p.Perturbed()
	}
	if a.blocked > 0 {
		if rep.Blocked, err = FindBlocked(t); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// step reads g up to its next timestamped event and queues it, or finishes g.
func (a *analysis) step(g *gstate) error {
	ok, err := a.advance(g)
	if err != nil {
		return err
	}
	if ok {
		heap.Push(&a.queue, g)
		return nil
	}
	end := g.last
	if g.info.Ended {
		end = g.info.End
	}
	a.distribute(g, end)
	a.infos[g.info.ID].fn = g.fn
	g.done = true
	g.it = nil
	a.maybeFree(g)
	return nil
}

// apply applies g's head event: the time up to it goes to the pending
// blocks, a wait is explained, a release is remembered. It returns false
// when it put the event off: a wait with no release before its end is
// looked at again once the events of the slack after it are in.
func (a *analysis) apply(g *gstate) bool {
	ev := g.head
	var rel *release
	if ev.Kind == trace.EvSync && ev.Waited && !ev.Blocked && ev.End >= ev.Begin && ev.Op != trace.OpSleep {
		var due int64
		rel, due = a.releaser(g, g.nsync-1)
		// The release that ended the wait was stamped before it, but
		// clocks and a select's stamp can put it a little after the end:
		// wait for it up to the slack.
		if rel == nil && due > 0 && !g.deferred && due <= ev.End+a.opts.Slack {
			g.deferred = true
			g.key = max(ev.End, due)
			return false
		}
	}
	g.deferred = false
	g.hasHead = false
	a.epoch++
	if g.fn >= 0 {
		a.infos[g.info.ID].fn = g.fn
	}
	switch ev.Kind {
	case trace.EvClock:
		a.distribute(g, ev.Time)
	case trace.EvPerturb:
		if d := ev.End - ev.Begin; d > 0 {
			g.path.add(stepKey{g.info.ID, g.here(), Perturb}, d)
			a.perturbNs += d
		}
		g.last = max(g.last, ev.End)
	case trace.EvSync:
		if ev.Waited {
			defer a.pairs.Forget(trace.SyncRef{G: g.info.ID, N: g.nsync - 1})
		}
		switch {
		case ev.Blocked:
			// It never ended: no waiting time, no releaser; listed apart.
			a.distribute(g, ev.Begin)
			a.blocked++
			return true
		case ev.Waited:
			a.distribute(g, ev.Begin)
			a.wait(g, ev, rel)
			g.last = max(g.last, ev.End)
		default:
			a.distribute(g, ev.End)
		}
		a.recordRelease(g, ev, g.nsync-1)
	}
	return true
}

// wait explains one wait of g: characterization, expansion into g's path,
// the new common synchronization, redundant step removal and classes.
func (a *analysis) wait(g *gstate, ev trace.Event, rel *release) {
	w := ev.End - ev.Begin
	if ev.Op == trace.OpSleep {
		g.path.add(stepKey{g.info.ID, int32(ev.Site), Sleep}, w)
		return
	}
	s := a.site(ev)
	s.waits++
	s.total += w
	if rel == nil {
		s.unmatched++
		s.unmatchedNs += w
		why := a.pairs.Why(trace.SyncRef{G: g.info.ID, N: g.nsync - 1})
		if why == trace.Named {
			why = trace.WhyLate
		}
		if s.why == nil {
			s.why = make(map[trace.Why]int)
		}
		s.why[why]++
		g.path.add(stepKey{g.info.ID, int32(ev.Site), stateOf(ev.Op)}, w)
		wokenBy := a.woken(s, g, ev, w)
		if a.opts.KeepWaits {
			s.instances = append(s.instances, Wait{GID: g.info.ID, Block: int(ev.Block), Site: int(ev.Site), Op: ev.Op.String(),
				Begin: ev.Begin, End: ev.End, Class: -1, Why: why.String(), WokenBy: wokenBy})
		}
		return
	}
	defer a.used(rel)
	r := rel.g
	a.long = r.path.diff(rel.snap, r.snaps[g.info.ID], a.long[:0])
	a.short = g.path.diff(nil, g.snaps[r.info.ID], a.short[:0])
	if g.snaps[r.info.ID] == nil && r.snaps[g.info.ID] == nil && !a.relatives(g, r, rel) {
		a.unrelated(g, r, ev, rel)
	}
	// From the release to the end of the wait the waiter was runnable but
	// not running: the scheduler's share of the wait, a step of its own.
	// It is negative when the release was stamped after the waiter woke
	// (the two read their clocks independently, and a release found in
	// the slack after the wait): the releaser's path then runs past the
	// end of the wait by that much.
	lat := ev.End - rel.time
	latency := entry{stepKey{g.info.ID, int32(ev.Site), Runnable}, lat}

	// Expansion: the waiter's path gets the characterization instead of a
	// waiting step, so later waits that include this one see computation.
	for _, e := range a.long {
		g.path.add(e.key, e.ns)
	}
	for _, e := range a.short {
		g.path.add(e.key, -e.ns)
	}

	// This wait is now the last common synchronization of the two. The
	// waiter's snapshot is taken before the latency enters its path, so
	// that it stands for the same moment as the releaser's, the release:
	// the next difference of the two paths then starts at one instant,
	// and adds up to the next wait. Taken after, it counted every earlier
	// latency of the pair once more (mutex waits of a few microseconds
	// were explained at 0%).
	g.snaps[r.info.ID] = g.path.snapshot(g.snaps[r.info.ID])
	g.path.add(latency.key, latency.ns)
	if lat != 0 {
		a.long = append(a.long, latency)
	}
	r.holders[g.info.ID] = struct{}{}
	r.snaps[g.info.ID] = copySnap(r.snaps[g.info.ID], rel.snap)
	g.holders[r.info.ID] = struct{}{}
	a.prune(g)

	a.expl = a.removeRedundant(a.long, a.short, w, a.expl[:0])
	c := s.classify(a.expl, w, a.opts.Threshold)
	if a.opts.KeepWaits {
		s.instances = append(s.instances, Wait{GID: g.info.ID, Block: int(ev.Block), Site: int(ev.Site), Op: ev.Op.String(),
			Begin: ev.Begin, End: ev.End, Releaser: r.info.ID, ReleaseOp: rel.op.String(),
			ReleaseBlock: int(rel.block), ReleaseSite: int(rel.site), ReleaseTime: rel.time, Class: c})
	}
}

// relatives handles a waiter and a releaser that never synchronized
// directly. Each path runs from its goroutine's start, which is no common
// point; their lowest common ancestor's go statements are. On each side, the
// path of every goroutine up the spawn chain until the ancestor's child, up
// to the go statement that started the next one down, is added; at the
// ancestor, its path between the two go statements is added to the side
// started later (or, when the ancestor is the waiter or the releaser, its
// own path is taken since the go statement). When a snapshot on the way is
// gone (a goroutine on the chain has finished), the paths stay as they are.
// It returns false when the two have no common ancestor.
func (a *analysis) relatives(g, r *gstate, rel *release) bool {
	cg, cr := a.chain(g.info.ID), a.chain(r.info.ID)
	ig, ir := -1, -1
	for i, x := range cg {
		if j := slices.Index(cr, x); j >= 0 {
			ig, ir = i, j
			break
		}
	}
	if ig < 0 {
		return false
	}
	p := a.gs[cg[ig]]
	if p == nil {
		return true
	}
	long, short := a.relLong[:0], a.relShort[:0]
	// up is the paths of a side's ancestors below p, each to the go
	// statement of the next one down.
	up := func(chain []uint64, n int, out []entry) ([]entry, bool) {
		for i := 1; i < n; i++ {
			q := a.gs[chain[i]]
			if q == nil || q.spawnSnaps[chain[i-1]] == nil {
				return out, false
			}
			out = q.path.diff(q.spawnSnaps[chain[i-1]], nil, out)
		}
		return out, true
	}
	var ok bool
	if long, ok = up(cr, ir, long); !ok {
		return true
	}
	if short, ok = up(cg, ig, short); !ok {
		return true
	}
	switch {
	case ig == 0: // g started r's side: g's own path since that go statement
		sp := p.spawnSnaps[cr[ir-1]]
		if sp == nil {
			return true
		}
		a.short = g.path.diff(nil, sp, a.short[:0])
	case ir == 0: // r started g's side
		sp := p.spawnSnaps[cg[ig-1]]
		if sp == nil {
			return true
		}
		a.long = r.path.diff(rel.snap, sp, a.long[:0])
	default: // both below p: its path between the two go statements
		sg, sr := p.spawnSnaps[cg[ig-1]], p.spawnSnaps[cr[ir-1]]
		if sg == nil || sr == nil {
			return true
		}
		var sum int64
		for i, v := range sg.vals {
			if i < len(sr.vals) {
				v -= sr.vals[i]
			}
			sum += v
		}
		for i := len(sg.vals); i < len(sr.vals); i++ {
			sum -= sr.vals[i]
		}
		if sum >= 0 { // g's side started later
			short = p.path.diff(sg, sr, short)
		} else {
			long = p.path.diff(sr, sg, long)
		}
	}
	a.long = append(a.long, long...)
	a.short = append(a.short, short...)
	a.relLong, a.relShort = long, short
	return true
}

// unrelated handles a waiter and a releaser with no common ancestor: one of
// them (or an ancestor) was started by code that is not instrumented, such
// as time.AfterFunc's goroutine or a net/http connection's, and has no
// spawn chain. Their only common point is the start of the one that
// started later, S: its path since its start is whole, while the other's
// path since S cannot be told from its path before S (no snapshot was
// taken then). The other side's time since S therefore enters as one step
// in state Outside, with no line: the waiter's, from S to the start of the
// wait, with the opposite sign (negative when it ran after S, positive
// when it was already waiting and the releaser did not exist yet); the
// releaser's, from S to the release. Without this the later goroutine was
// compared with the other's whole life (issue 12: 19,152% explained).
func (a *analysis) unrelated(g, r *gstate, ev trace.Event, rel *release) {
	s := max(g.info.Start, r.info.Start)
	if r.info.Start >= g.info.Start {
		// a.long is r's whole path to the release; g's path since s is
		// unknown.
		a.short = a.short[:0]
		if d := s - ev.Begin; d < 0 { // the waiter ran since s
			a.long = append(a.long, entry{stepKey{g.info.ID, int32(ev.Block), Outside}, d})
		} else { // the waiter waited while the releaser did not exist
			blk := rel.block
			if r.info.HasFirst {
				blk = int32(r.info.FirstBlock)
			}
			a.long = append(a.long, entry{stepKey{r.info.ID, blk, Outside}, d})
		}
		return
	}
	// a.short is g's whole path to the wait; r's path since s is unknown.
	a.long = append(a.long[:0], entry{stepKey{r.info.ID, rel.block, Outside}, rel.time - s})
}

// chain is a goroutine's id and its ancestors' up to the root.
func (a *analysis) chain(id uint64) []uint64 {
	var out []uint64
	for id != 0 && len(out) < maxChain {
		out = append(out, id)
		gi := a.infos[id]
		if gi == nil {
			break
		}
		id = gi.Parent
	}
	return out
}

// pairAhead is how far the pairing of releasers runs ahead of the
// analysis's merge, beyond the slack: a channel or Cond release is kept
// (with a snapshot of its goroutine's path) only for the waits the pairing
// has named when the analysis reaches it, and those are named by the time
// the pairing passes the release. Mutex, WaitGroup and Once waits are named
// by the latest release before their end: their objects keep their last
// few releases (ringSize). What the pairing holds is the waits of this much
// of the run.
const pairAhead = 1_000_000

// satAdd is a+b, at most the largest int64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// maxChain bounds spawn chains, so a corrupt parent cycle ends.
const maxChain = 1000

// maybeFree forgets a goroutine whose events are exhausted once no release
// record points to it and its children are forgotten (relatives needs the
// snapshots at their go statements); partners drop their snapshots of their
// syncs with it.
func (a *analysis) maybeFree(g *gstate) {
	if !g.done || g.refs > 0 || g.kids > 0 || a.gs[g.info.ID] != g {
		return
	}
	for h := range g.holders {
		if hs := a.gs[h]; hs != nil {
			delete(hs.snaps, g.info.ID)
			delete(hs.spawnSnaps, g.info.ID)
		}
	}
	for p := range g.snaps {
		if ps := a.gs[p]; ps != nil {
			delete(ps.holders, g.info.ID)
		}
	}
	delete(a.gs, g.info.ID)
	if p := a.gs[g.info.Parent]; p != nil && g.info.Parent != g.info.ID {
		p.kids--
		a.maybeFree(p)
	}
	g.path, g.snaps, g.spawnSnaps, g.holders, g.pending, g.runIdx, g.recs, g.rep = nil, nil, nil, nil, nil, nil, nil, nil
}

// queue is a min-heap of goroutines by the time of their head event; at
// equal times release-side events come before waits, and lower ids first.
type queue []*gstate

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	x, y := q[i], q[j]
	if x.key != y.key {
		return x.key < y.key
	}
	if x.late != y.late {
		return !x.late
	}
	return x.info.ID < y.info.ID
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i]; q[i].pos = i; q[j].pos = j }
func (q *queue) Push(x any)   { g := x.(*gstate); g.pos = len(*q); *q = append(*q, g) }
func (q *queue) Pop() any {
	old := *q
	g := old[len(old)-1]
	*q = old[:len(old)-1]
	return g
}
