package waittime

import (
	"fmt"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
)

// gstate is the analysis state of one goroutine.
type gstate struct {
	info trace.GoroutineInfo
	it   trace.EventIter // nil until the merge reaches the goroutine's start
	n    int             // events read, for messages
	// nsync counts the sync events read: the head's number is nsync-1
	// (trace.SyncRef).
	nsync uint64

	head    trace.Event // the next timestamped event, not yet applied
	hasHead bool
	key     int64 // heap key: the time head is applied at
	late    bool  // head is a wait: applied after release-side events of the same time
	// deferred: head is a wait put off to the end of the slack because no
	// release was timestamped before its end.
	deferred bool
	pos      int // index in the heap

	last int64 // time of the last timestamp (the start at first)
	// lastBlock is the last block the goroutine ran: perturbation steps
	// are keyed by it, so that classes tell apart delays at different
	// places (reports name no line for them).
	lastBlock int32

	// Blocks executed since the last timestamp, as (block, count) runs
	// deduplicated within a stretch; marks split the stretches at go
	// statements so the parent's path can be snapshotted there.
	pending []run
	runIdx  map[int32]int32
	marks   []mark
	// rep puts back the implied blocks between the recorded ones, as
	// compare does, so that each executed block gets its share of time.
	rep *replay.Replayer

	path  *cpath
	snaps map[uint64]*snap // partner → snapshot of path at their last common sync
	// spawnSnaps keeps, per child still around, the snapshot of path at the
	// go statement that started it: relatives that never synchronized
	// directly are compared from there.
	spawnSnaps map[uint64]*snap
	recs       []*release // this goroutine's releases still needed by a wait
	// pruneAt is the path size at which prune next looks for slots to drop.
	pruneAt int
	// holders are the goroutines whose snaps hold an entry for this one:
	// they drop it when this goroutine is gone.
	holders map[uint64]struct{}
	refs    int  // release records that point to this goroutine
	kids    int  // children not yet forgotten: their descendants may need spawnSnaps
	done    bool // its events are exhausted
	fn      int  // function of its first block, for names; -1 unknown
}

type run struct {
	block int32
	count int64
}

type mark struct {
	at    int    // len(pending) when the go statement ran
	child uint64 // the goroutine it started
}

func newGState(info trace.GoroutineInfo) *gstate {
	return &gstate{info: info, last: info.Start, pruneAt: minPrune, fn: -1, lastBlock: -1}
}

// alloc gives g its maps and path on first use: goroutines that have not
// started yet cost only their gstate.
func (g *gstate) alloc(a *analysis) {
	clock := &a.epoch
	if g.path != nil {
		return
	}
	g.runIdx = make(map[int32]int32)
	g.rep = replay.NewReplayer(a.paths)
	g.path = newPath(clock)
	g.snaps = make(map[uint64]*snap)
	g.spawnSnaps = make(map[uint64]*snap)
	g.holders = make(map[uint64]struct{})
}

// advance reads events up to the next timestamped one, which becomes head,
// and spreads the time up to it over the blocks read on the way. It returns
// false at the end of the goroutine's events.
//
// The time is spread now, when the previous timestamp has just been
// applied, rather than when head is: a go statement among those blocks
// takes its snapshot of g's path there (spawned), and the goroutine it
// started, which began after the previous timestamp, may wait and be
// released before head's time comes in the merge. Spreading later left
// such a wait without the snapshot, comparing whole paths from the
// goroutines' starts (issue 12: "go A; spin; go B; <-done" was explained
// at -770785%). No other goroutine reads g's path between two of g's
// timestamps except through snapshots taken at g's own events, so
// spreading early changes nothing else.
func (a *analysis) advance(g *gstate) (bool, error) {
	for {
		if !g.it.Next() {
			if err := g.it.Err(); err != nil {
				return false, fmt.Errorf("reading goroutine %d after event %d: %w", g.info.ID, g.n, err)
			}
			return false, nil
		}
		ev := g.it.Event()
		g.n++
		switch ev.Kind {
		case trace.EvBlock:
			b := a.graph.Block(int(ev.Block))
			if b == nil {
				return false, fmt.Errorf("goroutine %d event %d: block %d is not in the graph", g.info.ID, g.n, ev.Block)
			}
			if g.fn < 0 {
				g.fn = b.Func
			}
			a.steps = g.rep.Block(int32(ev.Block), a.steps[:0])
			g.ran(a.steps)
		case trace.EvExit:
			// The blocks from the last one recorded to the return.
			a.steps = g.rep.Exit(int32(ev.Block), a.steps[:0])
			g.ran(a.steps)
		case trace.EvSpawn:
			g.marks = append(g.marks, mark{len(g.pending), ev.Child})
			clear(g.runIdx) // blocks after the go statement form a new stretch
		case trace.EvSync:
			g.nsync++
			if a.graph.Block(int(ev.Block)) == nil {
				return false, fmt.Errorf("goroutine %d event %d: %s at block %d, which is not in the graph", g.info.ID, g.n, ev.Op, ev.Block)
			}
			g.head, g.hasHead = ev, true
			g.key, g.late = ev.End, ev.Waited && ev.Op != trace.OpSleep
			if ev.Blocked { // still blocked when the trace ended
				g.key, g.late = ev.Begin, false
			}
			ran := ev.End
			if ev.Waited {
				ran = ev.Begin
			}
			a.distribute(g, ran)
			return true, nil
		case trace.EvClock:
			g.head, g.hasHead = ev, true
			g.key, g.late = ev.Time, false
			a.distribute(g, ev.Time)
			return true, nil
		case trace.EvPerturb:
			// Up to Begin the goroutine ran its blocks; from Begin to End
			// divergo delayed it (applied as a step of its own).
			g.head, g.hasHead = ev, true
			g.key, g.late = max(ev.End, ev.Begin), false
			a.distribute(g, ev.Begin)
			return true, nil
		case trace.EvOutcome:
			// It takes no time of its own and does not synchronize.
		default:
			return false, fmt.Errorf("goroutine %d event %d: unknown event kind %d", g.info.ID, g.n, ev.Kind)
		}
	}
}

// ran adds the blocks of replayed steps to the pending ones.
func (g *gstate) ran(steps []replay.Step) {
	for _, st := range steps {
		if st.Kind == replay.Exit {
			continue
		}
		g.lastBlock = st.Block
		if i, ok := g.runIdx[st.Block]; ok {
			g.pending[i].count++
		} else {
			g.runIdx[st.Block] = int32(len(g.pending))
			g.pending = append(g.pending, run{st.Block, 1})
		}
	}
}

// distribute spreads the time from the last timestamp to now over the
// pending blocks in proportion to count × instructions, and takes the
// snapshots of go statements on the way.
func (a *analysis) distribute(g *gstate, now int64) {
	elapsed := int64(0)
	if g.last >= 0 && now > g.last {
		elapsed = now - g.last
	}
	var total float64
	for _, r := range g.pending {
		total += float64(r.count) * a.weight[r.block]
	}
	if total == 0 && elapsed > 0 && g.lastBlock >= 0 {
		// No block began since the last timestamp: the goroutine ran the
		// rest of the block it was in (the statements after a lock, up
		// to the unlock in the same block). Dropping the time made the
		// goroutine's path shorter than its life, and explanations that
		// compare paths since a common point did not add up.
		g.pending = append(g.pending, run{g.lastBlock, 1})
		total = a.weight[g.lastBlock]
	}
	var cum float64
	var given int64
	m := 0
	for i, r := range g.pending {
		for m < len(g.marks) && g.marks[m].at == i {
			a.spawned(g, g.marks[m].child, g.last+given)
			m++
		}
		cum += float64(r.count) * a.weight[r.block]
		d := int64(float64(elapsed)*cum/total+0.5) - given
		given += d
		g.path.add(stepKey{g.info.ID, r.block, Running}, d)
	}
	for ; m < len(g.marks); m++ {
		a.spawned(g, g.marks[m].child, g.last+given)
	}
	g.pending, g.marks = g.pending[:0], g.marks[:0]
	clear(g.runIdx)
	if now > g.last {
		g.last = now
	}
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
	if parent.last >= 0 && c.info.Start > at && a.graph.Block(int(c.info.SiteBlock)) != nil {
		c.path.add(stepKey{child, int32(c.info.Site), Runnable}, c.info.Start-at)
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
	p.compact(func(i int) bool {
		k := p.keys[i]
		return p.mod[i] >= oldest || k.g == g.info.ID || a.gs[k.g] != nil
	}, snaps)
	g.pruneAt = max(minPrune, 2*len(p.keys))
}

// here is the block g is in for steps that are no block's: the last block
// it ran, else its first, else block 0 (a perturbation in a child's Start
// comes before its first block). Reports name no line for them.
func (g *gstate) here() int32 {
	switch {
	case g.lastBlock >= 0:
		return g.lastBlock
	case g.info.HasFirst:
		return int32(g.info.FirstBlock)
	}
	return 0
}
