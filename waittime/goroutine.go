package waittime

import (
	"math"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
)

// gstate is the analysis state of one goroutine.
type gstate struct {
	info trace.GoroutineInfo
	key  uint64 // of its steps: its id, or its group's (groups.go)
	// ran are the kinds of step a goroutine of a group ran, counted once
	// per goroutine in analysis.groupRan.
	ran map[kind]struct{}
	// lane is the goroutine in the merge (replay.Timeline), from the
	// merge's reaching its start to the end of its events: its head, the
	// number of its sync events and the block it is in.
	lane *replay.Lane
	// deferred: head is a wait put off to the end of the slack because no
	// release was timestamped before its end.
	deferred bool

	path  *cpath
	snaps map[uint64]*snap // partner → snapshot of path at their last common sync
	// spawnSnaps keeps, per child still around, the snapshot of path at the
	// go statement that started it: relatives that never synchronized
	// directly are compared from there.
	spawnSnaps map[uint64]*snap
	recs       []*release // this goroutine's releases still needed by a wait
	// acq is its path when it last acquired a lock, acqAt when, acqObj
	// which: where an unrelated waiter's explanation of that lock starts
	// (analysis.unrelated).
	acq    *snap
	acqAt  int64
	acqObj uint64
	// pruneAt is the path size at which prune next looks for slots to drop.
	pruneAt int
	// holders are the goroutines whose snaps hold an entry for this one:
	// they drop it when this goroutine is gone.
	holders map[uint64]struct{}
	refs    int  // release records that point to this goroutine
	kids    int  // children not yet forgotten: their descendants may need spawnSnaps
	done    bool // its events are exhausted
	fn      int  // function of its first block, for names; -1 unknown

	// gt are its blocks in Go's execution trace, gtNext the first not yet
	// taken: for its waits inside code that is not instrumented
	// (libwaits.go).
	gt     []gotrace.Wake
	gtNext int
}

// run is a block's time within a stretch, summed over its executions
// between two go statements.
type run struct {
	block int32
	ns    int64
}

func newGState(info trace.GoroutineInfo) *gstate {
	return &gstate{info: info, pruneAt: minPrune, fn: -1}
}

// alloc gives g its maps and path on first use: goroutines that have not
// started yet cost only their gstate.
func (g *gstate) alloc(a *analysis) {
	clock := &a.epoch
	if g.path != nil {
		return
	}
	g.path = newPath(clock)
	g.snaps = make(map[uint64]*snap)
	g.spawnSnaps = make(map[uint64]*snap)
	g.holders = make(map[uint64]struct{})
}

// Ran adds the time of the blocks g ran since its last timestamp, spread
// by the timeline (replay.Stretch.Spread, the rule of docs/FORMAT.md,
// "Durations"), to its path, and takes the snapshots of go statements on
// the way, at their interpolated instants.
//
// The timeline spreads a stretch as soon as it has read the timestamp
// that ends it, when the previous timestamp has just been applied, rather
// than when that timestamp is: a go statement among those blocks takes
// its snapshot of g's path there (spawned), and the goroutine it started,
// which began after the previous timestamp, may wait and be released
// before the next timestamp's time comes in the merge. Spreading later
// left such a wait without the snapshot, comparing whole paths from the
// goroutines' starts ("go A; spin; go B; <-done" was explained
// at -770785%). No other goroutine reads g's path between two of g's
// timestamps except through snapshots taken at g's own events, so
// spreading early changes nothing else.
func (a *analysis) Ran(l *replay.Lane) error {
	g := l.X.(*gstate)
	items := l.Items()
	// Time blocked inside a library in this stretch is no block's: the
	// blocks get the rest, spread as before, and the library's calls
	// their share (libwaits.go).
	lib := a.libStretch(g, items, l.T0())
	if lib.lib != 0 {
		clear(a.seen)
	}
	for _, it := range items {
		switch it.Step.Kind {
		case 0:
			if ev := l.Event(it); ev.Kind == trace.EvSpawn {
				a.goStatement(g, lib, ev.Child, it.At)
			}
		case replay.Block, replay.Call:
			if b := a.graph.Block(int(it.Step.Block)); g.fn < 0 && b != nil {
				g.fn = b.Func
			}
			if lib.lib != 0 {
				a.seen[it.Step.Block] = struct{}{} // for libFlush
			}
			dur := lib.scale(it.Dur)
			lib.at += dur
			a.addRun(it.Step.Block, dur)
		}
	}
	a.flushRuns(g)
	a.libFlush(g, lib, math.MaxInt64)
	return nil
}

// goStatement takes g's snapshot for the go statement that started child,
// which the timeline put at at. The go statement came before the child
// started: blocks inside a library that began after that are g's path
// since it, whatever the spread says, and so is the time the spread gave
// the blocks before it past the child's start (pullBack).
func (a *analysis) goStatement(g *gstate, lib *stretchLib, child uint64, at int64) {
	start := int64(math.MaxInt64)
	if c := a.gs[child]; c != nil {
		start = c.info.Start
	}
	a.libFlush(g, lib, min(lib.at, start))
	at = lib.instant(at)
	moved := a.moved[:0]
	if at > start {
		moved = a.pullBack(at-start, moved)
		for _, m := range moved {
			at -= m.ns
		}
	}
	a.flushRuns(g)
	a.spawned(g, child, at)
	// The blocks keep their time: what was taken counts after the go
	// statement.
	for _, m := range moved {
		a.addRun(m.block, m.ns)
	}
	a.moved = moved
}

// addRun adds d to the time of block b in this stretch's runs.
func (a *analysis) addRun(b int32, d int64) {
	if i, ok := a.runIdx[b]; ok {
		a.runs[i].ns += d
		return
	}
	a.runIdx[b] = int32(len(a.runs))
	a.runs = append(a.runs, run{b, d})
}

// pullBack takes up to d of the time the runs not yet flushed hold, from
// the last block back, and appends what it took of each block to moved.
//
// The timeline spreads a stretch's time over its blocks in proportion
// (docs/FORMAT.md, "Durations"), so a go statement's instant is an
// estimate. A child cannot start before its go statement: when it did by
// that estimate (the parent was descheduled after the go statement, and
// the blocks before it were given time that came after), the parent's
// snapshot would hold the difference, and every wait of the child's
// compared against the parent would be explained that much too long
// (errgroupfan under load: 14 µs more than a 4.45 µs wait). The time
// taken goes back to the same blocks after the go statement, so that
// every block keeps the time the spread gave it, as in every other reader
// (e2e's TestReadersAgree).
func (a *analysis) pullBack(d int64, moved []run) []run {
	taken := int64(0)
	for i := len(a.runs) - 1; i >= 0 && taken < d; i-- {
		t := min(a.runs[i].ns, d-taken)
		if t == 0 {
			continue
		}
		a.runs[i].ns -= t
		taken += t
		moved = append(moved, run{a.runs[i].block, t})
	}
	return moved
}

// flushRuns adds the summed runs to g's path, in the order the blocks first
// ran, and empties them.
func (a *analysis) flushRuns(g *gstate) {
	for _, r := range a.runs {
		a.own(g, stepKey{g.key, r.block, Running}, r.ns)
		if a.opts.OnRunning != nil {
			a.opts.OnRunning(g.info.ID, int(r.block), r.ns)
		}
	}
	a.runs = a.runs[:0]
	clear(a.runIdx)
}

// spawned records the go statement of parent that started child, at time
// at (interpolated like block durations): their common synchronization.
// The time from the go statement to the child's start is scheduler latency,
// a runnable step of the child at the go statement's site.
func (a *analysis) spawned(parent *gstate, child uint64, at int64) {
	c := a.gs[child]
	if c == nil {
		return // gone: it released no one still waiting
	}
	c.alloc(a)
	parent.snaps[child] = parent.path.snapshot(parent.snaps[child])
	parent.spawnSnaps[child] = parent.path.snapshot(parent.spawnSnaps[child])
	c.holders[parent.info.ID] = struct{}{}
	if c.info.Start > at && a.graph.Block(int(c.info.SiteBlock)) != nil {
		a.own(c, stepKey{c.key, int32(c.info.Site), Runnable}, c.info.Start-at)
	}
}

// minPrune is the smallest path prune looks at (a variable for tests).
var minPrune = 256

// prune drops from g's path the steps of goroutines that are gone and that
// have not changed since the oldest snapshot g still holds: they are equal
// in every snapshot and now, so they can appear in no difference. Without
// it, a goroutine that joins a new goroutine each round (fork-join) would
// carry every worker's steps forever and copy them at each snapshot.
//
// A partner g never synchronized with directly compares against g's whole
// path since its start; pruned steps are missing from that path. They are
// steps of finished goroutines that stopped changing before all of g's
// remembered synchronizations, far from any wait still to come.
func (a *analysis) prune(g *gstate) {
	p := g.path
	if len(p.keys) < g.pruneAt {
		return
	}
	oldest := a.epoch
	snaps := make([]*snap, 0, len(g.snaps)+len(g.recs))
	for _, s := range g.snaps {
		oldest = min(oldest, s.epoch)
		snaps = append(snaps, s)
	}
	for _, s := range g.spawnSnaps {
		oldest = min(oldest, s.epoch)
		snaps = append(snaps, s)
	}
	for _, r := range g.recs {
		oldest = min(oldest, r.snap.epoch)
		snaps = append(snaps, r.snap)
	}
	if g.acq != nil {
		oldest = min(oldest, g.acq.epoch)
		snaps = append(snaps, g.acq)
	}
	p.compact(func(i int) bool {
		k := p.keys[i]
		return p.mod[i] >= oldest || k.g == g.key || a.gs[k.g] != nil
	}, snaps)
	g.pruneAt = max(minPrune, 2*len(p.keys))
}

// here is the block g is in for steps that are no block's: the last block
// it ran, else its first, else block 0 (a perturbation in a child's Start
// comes before its first block). Reports name no line for them.
func (g *gstate) here() int32 {
	switch {
	case g.lane != nil && g.lane.Last() != replay.NoBlock:
		return g.lane.Last()
	case g.info.HasFirst:
		return int32(g.info.FirstBlock)
	}
	return 0
}
