package waittime

import (
	"errors"
	"slices"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// analysis is the state of one run of Analyze.
type analysis struct {
	graph *tbb.Graph
	opts  Options
	// paths are the implied paths of the graph, shared by the goroutines'
	// replayers (the analysis runs on one goroutine).
	paths *replay.Paths

	gs    map[uint64]*gstate // live goroutines and dead ones still referenced
	infos map[uint64]*ginfo  // every goroutine, for names
	// groups are the goroutines whose steps share a key (groups.go).
	groups map[uint64]*group
	// groupRan counts per group and kind of step the goroutines that ran
	// it: a report's goroutine count for a group's step.
	groupRan map[stepKey]int
	// pairs names every wait's releaser (replay.Releasers, run ahead of
	// the merge by the timeline); rels are the releases still needed,
	// with the releaser's path at the release.
	pairs *replay.Releasers
	rels  map[replay.SyncRef]*release
	objs  map[uint64]*object
	sites map[siteKey]*site

	// byGoID finds a goroutine by its Go id, files the program's source
	// files: for the wakers Go's execution trace names (woken.go).
	byGoID     map[uint64]*ginfo
	files      fileSet
	wokenWaits int
	// libSites are the waits inside code that is not instrumented, at
	// the program's calls (libwaits.go); libCalls those calls, the places
	// of their steps, libIdx their indexes, libRuns scratch for a
	// stretch's blocks in them.
	libSites map[libKey]*libSite
	libCalls []libCall
	libIdx   map[libCall]int32
	// frameBlock is blockAt's answer for each stack frame looked up.
	frameBlock map[gotrace.Frame]int
	libRuns    []libRun
	stretch    stretchLib

	// lines are the sampled lines of blocks (lines.go), from
	// Options.CPUProfile: reports split a block's running time over them.
	lines map[int32][]lineCount
	// defers finds the defer statements of deferred calls' frames.
	defers *deferLines

	blocked   int    // waits still blocked when the trace ended (FindBlocked lists them)
	perturbNs int64  // divergo's perturbation delays, all goroutines
	epoch     uint64 // counts applied events: when path slots change and snapshots are taken

	// runs is scratch for one stretch: its blocks' times summed per block
	// between go statements, in the order the blocks first ran.
	runs   []run
	runIdx map[int32]int32
	// seen: the blocks of the stretch run so far, for libFlush; moved:
	// scratch for pullBack.
	seen  map[int32]struct{}
	moved []run

	// scratch space reused by every wait
	long, short, expl []entry
	relLong, relShort []entry
	sums              []sides // by block × state, see sidesOf
	touched           []kind
	cands             []cand
	sortTmp           []entry // mergeEntries' scratch
}

// Analyze explains the waiting time of one trace. It reads every goroutine's
// events once, merged by time (replay.Timeline, the order every reader
// uses), and returns the sync sites ranked by total waiting time.
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
		paths:  replay.NewPaths(replay.NewProgram(g)),
		gs:     make(map[uint64]*gstate),
		infos:  make(map[uint64]*ginfo),
		rels:   make(map[replay.SyncRef]*release),
		objs:   make(map[uint64]*object),
		sites:  make(map[siteKey]*site),
		runIdx: make(map[int32]int32),
		seen:   make(map[int32]struct{}),
		defers: newDeferLines(opts.SourceRoot),
	}
	a.lines = lineShares(g, opts.CPUProfile, a.defers)
	// Releasers by causality (replay.Releasers: the rule the Perfetto
	// export and every other reader use), paired over the sync events in a
	// second merge the timeline keeps ahead of its own.
	a.pairs = replay.NewReleasers(t, opts.Slack)
	tl, err := replay.NewTimeline(t, a.paths, a.pairs, opts.Slack)
	if err != nil {
		return nil, err
	}
	for _, info := range t.Goroutines() {
		a.gs[info.ID] = newGState(info)
		a.infos[info.ID] = &ginfo{GoroutineInfo: info, fn: -1}
		if opts.GoTrace != nil && info.GoID != 0 {
			if a.byGoID == nil {
				a.byGoID = make(map[uint64]*ginfo)
				a.files = newFileSet(a.graph)
			}
			a.byGoID[info.GoID] = a.infos[info.ID]
		}
	}
	a.assignKeys(trace.ByID(t.Goroutines()))
	for _, info := range t.Goroutines() {
		if p := a.gs[info.Parent]; p != nil && info.Parent != info.ID {
			p.kids++
		}
	}
	if err := tl.Run(a); err != nil {
		return nil, err
	}
	rep := a.report()
	if p, ok := t.(interface{ Perturbed() (int64, bool) }); ok {
		rep.PerturbSeed, rep.Perturbed = p.Perturbed()
	}
	if a.blocked > 0 || opts.GoTrace != nil {
		if rep.Blocked, err = FindBlockedWith(t, opts.GoTrace); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// Open starts a goroutine when the merge reaches its start.
func (a *analysis) Open(l *replay.Lane) error {
	g := a.gs[l.Info.ID]
	g.lane = l
	l.X = g
	g.alloc(a)
	a.libOpen(g)
	return nil
}

// Close finishes a goroutine whose events are exhausted.
func (a *analysis) Close(l *replay.Lane) error {
	g := l.X.(*gstate)
	a.infos[g.info.ID].fn = g.fn
	g.gt = nil
	g.done = true
	g.lane = nil
	a.maybeFree(g)
	return nil
}

// Apply applies g's head event: a wait is explained, a release is
// remembered. It returns false when it put the event off: a wait with no
// release before its end is looked at again once the events of the slack
// after it are in.
func (a *analysis) Apply(l *replay.Lane) (bool, error) {
	g := l.X.(*gstate)
	ev := l.Head
	n := l.NSync - 1
	var rel *release
	if ev.Kind == trace.EvSync && ev.Waited && !ev.Blocked && ev.End >= ev.Begin && ev.Op != trace.OpSleep {
		var due int64
		rel, due = a.releaser(g, n)
		// The release that ended the wait was stamped before it, but
		// clocks and a select's stamp can put it a little after the end:
		// wait for it up to the slack.
		if rel == nil && due > 0 && !g.deferred && due <= ev.End+a.opts.Slack {
			g.deferred = true
			l.PutOff(max(ev.End, due))
			return false, nil
		}
	}
	g.deferred = false
	a.epoch++
	if g.fn >= 0 {
		a.infos[g.info.ID].fn = g.fn
	}
	switch ev.Kind {
	case trace.EvPerturb:
		if d := ev.End - ev.Begin; d > 0 {
			a.own(g, stepKey{g.key, g.here(), Perturb}, d)
			a.perturbNs += d
		}
	case trace.EvSync:
		if ev.Waited {
			defer a.pairs.Forget(replay.SyncRef{G: g.info.ID, N: n})
		}
		switch {
		case ev.Blocked:
			// It never ended: no waiting time, no releaser; listed apart.
			a.blocked++
			return true, nil
		case ev.Waited:
			a.wait(g, ev, rel)
		}
		if ev.Op == trace.OpLock || ev.Op == trace.OpRLock {
			g.acq, g.acqAt, g.acqObj = g.path.snapshot(g.acq), ev.End, ev.Object
		}
		a.recordRelease(g, ev, n)
	}
	return true, nil
}

// wait explains one wait of g: characterization, expansion into g's path,
// the new common synchronization, redundant step removal and classes.
func (a *analysis) wait(g *gstate, ev trace.Event, rel *release) {
	w := ev.End - ev.Begin
	if ev.Op == trace.OpSleep {
		a.own(g, stepKey{g.key, int32(ev.Site), Sleep}, w)
		return
	}
	s := a.site(ev)
	s.waits++
	s.total += w
	if rel == nil {
		s.unmatched++
		s.unmatchedNs += w
		ref := replay.SyncRef{G: g.info.ID, N: g.lane.NSync - 1}
		why := a.pairs.Why(ref)
		// A wait the pairing named but whose release the merge had not
		// kept (it came more than the slack after the wait: a send that
		// itself waited is stamped when its goroutine resumes) still
		// names its releaser, as the Perfetto export does; it is not
		// explained, having no path of the releaser to compare.
		named, isNamed := a.pairs.Of(ref)
		if why == replay.Named {
			why = replay.WhyLate
		}
		if s.why == nil {
			s.why = make(map[replay.Why]int)
		}
		s.why[why]++
		a.own(g, stepKey{g.key, int32(ev.Site), stateOf(ev.Op)}, w)
		wokenBy := a.woken(s, g, ev, w)
		if a.opts.KeepWaits {
			in := Wait{GID: g.info.ID, Block: int(ev.Block), Site: int(ev.Site), Op: ev.Op.String(),
				Begin: ev.Begin, End: ev.End, Class: -1, Why: why.String(), waker: wokenBy}
			if isNamed {
				in.Releaser, in.ReleaseOp, in.ReleaseBlock, in.ReleaseSite, in.ReleaseTime = named.G, named.Op.String(), int(named.Block), int(named.Site), named.Time
			}
			s.instances = append(s.instances, in)
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
	latency := entry{stepKey{g.key, int32(ev.Site), Runnable}, lat}

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
	a.own(g, latency.key, latency.ns)
	if lat != 0 {
		a.long = append(a.long, latency)
	}
	r.holders[g.info.ID] = struct{}{}
	r.snaps[g.info.ID] = copySnap(r.snaps[g.info.ID], rel.snap)
	g.holders[r.info.ID] = struct{}{}
	a.prune(g)

	// divergo's delays stay in the paths (snapshots and expansion need
	// them whole) but are taken out of the two sides before they are
	// compared: the wait is explained as the program's, and their net
	// share of it is the class's PerturbNs, in no step.
	long, short, ours := withoutPerturb(a.long, a.short, w)
	a.long, a.short = long, short
	a.expl = a.removeRedundant(a.long, a.short, w-ours, a.expl[:0])
	c := s.classify(a.expl, w, ours, a.opts.Threshold)
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
// compared with the other's whole life (19,152% explained).
func (a *analysis) unrelated(g, r *gstate, ev trace.Event, rel *release) {
	s := max(g.info.Start, r.info.Start)
	if r.info.Start >= g.info.Start {
		// a.long is r's whole path to the release; g's path since s is
		// unknown.
		a.short = a.short[:0]
		if d := s - ev.Begin; d < 0 { // the waiter ran since s
			a.long = append(a.long, entry{stepKey{g.key, int32(ev.Block), Outside}, d})
		} else { // the waiter waited while the releaser did not exist
			blk := rel.block
			if r.info.HasFirst {
				blk = int32(r.info.FirstBlock)
			}
			a.long = append(a.long, entry{stepKey{r.key, blk, Outside}, d})
		}
		return
	}
	// a.short is g's whole path to the wait; r's path since s is unknown,
	// but when r released a lock it had acquired, its path since the
	// acquisition is known: the lines it ran holding the lock (an RLock in
	// a net/http handler waiting for a writer's critical section), with
	// r's time between s and the acquisition outside, negative when r
	// acquired before g existed.
	if r.acq != nil && r.acqObj == ev.Object && ev.Object != 0 && r.acqAt <= rel.time && r.acq.epoch <= rel.snap.epoch {
		a.long = r.path.diff(rel.snap, r.acq, a.long[:0])
		if d := r.acqAt - s; d != 0 {
			a.long = append(a.long, entry{stepKey{r.key, rel.block, Outside}, d})
		}
		return
	}
	a.long = append(a.long[:0], entry{stepKey{r.key, rel.block, Outside}, rel.time - s})
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
	g.path, g.snaps, g.spawnSnaps, g.holders, g.recs, g.ran, g.acq = nil, nil, nil, nil, nil, nil, nil
}
