package runtime

import (
	"fmt"
	"os"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Controlled scheduling. DIVERGO_SCHED=pct:D (D, the depth, 1 to 8; "pct"
// alone is depth 3) or DIVERGO_SCHED=walk, with DIVERGO_PERTURB=SEED, lets
// one recorded goroutine run at a time and chooses which at every sync
// operation. Under pct, by PCT (probabilistic concurrency testing,
// Burckhardt et al., ASPLOS 2010; what Fray, OOPSLA 2025, runs on the JVM):
//
//   - every goroutine gets a priority drawn from the seed and its spawn
//     identity (perturb.go) when it first passes the schedule hook;
//   - at the hook (before each sync operation, and first thing in a
//     started goroutine), the goroutine holding the run gives it up, and
//     the ready goroutine of highest priority takes it; the others wait
//     there;
//   - a goroutine about to block in Go (block, blocked.go) gives the run
//     up, and one that resumes (unblock) waits to be chosen again;
//   - at D-1 steps, drawn from the seed and the test's name among the
//     first K of the test (schedtest.go), the priority of the goroutine
//     at its hook drops below every initial one: a bug of depth D then
//     shows with probability at least 1/(n·K^(D-1)) per run, n
//     goroutines, K steps.
//
// Under walk, every handover draws the goroutine to run uniformly among
// the ready ones (schedtest.go): POS (partial order sampling, Yuan et al.,
// CAV 2018; Fray's default) with every two pending operations taken as
// racing, since the hook does not know the objects. A shallow bug of a
// short test, one that needs the run taken from a goroutine at one
// particular step of a few, shows in a few runs of ten, where PCT needs
// its change point on that step.
//
// A select among several ready cases takes one drawn from the goroutine's
// PRNG rather than Go's (ctlSelect, selforce.go's machinery); the clause is
// recorded as every select's is, so that a rerun's replay forces it.
//
// Seed S gives the same priorities, change points and draws in every
// run; what the scheduler cannot hold is what it does not see: a
// goroutine that blocks in code divergo did not instrument (a library's
// channel, I/O, testing's t.Run) keeps the run until the others have
// waited ctlPatience without a handover, then loses it until its next
// hook, and the outcome of a data race between two sync operations is the
// hardware's. Unset, the hook costs what it did: the branch on hooked.
//
// Under DIVERGO_REPLAY the recorded order decides, and DIVERGO_SCHED is
// ignored: a rerun of a controlled run replays its trace's order
// (replay.go), which the serialised run made the order the goroutines
// really went in.

// ctlPatience is how long goroutines wait at their hooks, with no
// handover, before the goroutine holding the run is taken to be blocked
// where divergo cannot see it. A goroutine that computes between two sync
// operations for longer than this runs beside the next one chosen; the
// order is still the priorities' wherever the program synchronizes. At
// 10 ms, a holder whose thread the kernel held back under a load of 8 on
// two cores lost the run now and then, and a seed gave two schedules.
const ctlPatience = 20 * time.Millisecond

// ctlSettle is how many times a goroutine yields at its hook before the
// handover (ctlHook).
const ctlSettle = 3

// ctlSpins is how many times a waiting goroutine yields before it parks:
// a handover usually comes within a few yields, and parked goroutines
// leave the cores to the one running.
const ctlSpins = 32

// ctlG is a goroutine's state under controlled scheduling.
type ctlG struct {
	prio    uint64 // 0 until its first hook; above ctl.depth at first, below when lowered
	waitObj uint64 // the lock it waits for, parked (schedlock.go); 0 for none
	// inSelect: a select began and keeps the run until ctlSelect has
	// looked at its cases, so that no other goroutine makes one ready
	// meanwhile (schedselect.go).
	inSelect bool
	goObjs   []uint64      // the channels it waits on in Go (schedwake.go)
	spawned  bool          // started through Spawn: counted in ctl.starting until its first hook
	ended    bool          // it ended: the locks it holds are never released (schedowner.go)
	lastObj  uint64        // the channel (or WaitGroup) of its last operation, when goroutines waited on it in Go
	waiters  int           // how many did, before the operation
	wake     chan struct{} // a handover to it, when it parked
	timer    *time.Timer   // its patience while parked, reused
}

// ctl is the controlled scheduler: set by readSched before any recorder
// exists; holder, ready and the counts change under mu.
var ctl struct {
	on      bool
	walk    bool // walk, not pct: a uniform draw at each handover
	sweep   int  // sweep:I's I+1 (schedsweep.go); 0 for none
	depth   int
	changes []int64 // steps of the test at which the goroutine at its hook is lowered, ascending
	draws   uint64  // walk's PRNG state, from the seed and the test's name
	order   []int   // walkPick's, reused

	drawStep int64  // the step of walkPick's last draw
	drawn    uint64 // its draws at that step

	mu      sync.Mutex
	holder  atomic.Pointer[G] // the goroutine allowed to run; nil: none
	ready   []*G              // goroutines waiting at a hook to be chosen
	parked  []*G              // goroutines waiting for a lock held (schedlock.go)
	inGo    []*G              // goroutines blocked in Go on channels (schedwake.go)
	owners  map[uint64][]*G   // each lock's holders (schedowner.go)
	steps   int64             // hook passes of the test so far (schedtest.go)
	lowered int               // change points passed
	epoch   atomic.Int64      // handovers so far

	starting atomic.Int64 // goroutines started that have not come to their first hook (schedwake.go)
}

// Depth bounds.
const (
	defaultDepth = 3
	maxDepth     = 8
)

// readSched reads DIVERGO_SCHED. A value that is not "pct", "pct:D",
// "walk" or "sweep:I" is reported once and ignored: the program runs as
// it would without.
func readSched() {
	ctl.on, ctl.walk, ctl.depth, ctl.changes, ctl.sweep = false, false, 0, nil, 0
	ctl.holder.Store(nil)
	ctl.ready, ctl.parked, ctl.inGo, ctl.owners, ctl.steps, ctl.lowered = nil, nil, nil, nil, 0, 0
	ctl.starting.Store(0)
	v := os.Getenv("DIVERGO_SCHED")
	if v == "" || replay.on {
		return
	}
	d, sweep, err := parseSched(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "divergo: DIVERGO_SCHED=%q: %v; not scheduling\n", v, err)
		return
	}
	ctl.on, ctl.walk, ctl.depth, ctl.sweep, hooked = true, d == 0, d, sweep+1, true
	ctlBeginTest(perturbSeed) // until a test starts (schedtest.go)
}

// parseSched parses "pct", "pct:D", "walk" (depth 0) or "sweep:I" (depth
// 2, sweep I; schedsweep.go). sweep is -1 but for a sweep.
func parseSched(v string) (depth, sweep int, err error) {
	if v == "walk" {
		return 0, -1, nil
	}
	name, arg, has := strings.Cut(v, ":")
	switch {
	case name == "sweep":
		i, err := strconv.Atoi(arg)
		if err != nil || i < 0 {
			return 0, -1, fmt.Errorf("sweep %q is not a run index from 0", arg)
		}
		return 2, i, nil
	case name != "pct":
		return 0, -1, fmt.Errorf("not pct, pct:DEPTH, walk or sweep:INDEX")
	case !has:
		return defaultDepth, -1, nil
	}
	d, err := strconv.Atoi(arg)
	if err != nil || d < 1 || d > maxDepth {
		return 0, -1, fmt.Errorf("depth %q is not from 1 to %d", arg, maxDepth)
	}
	return d, -1, nil
}

// initialPrio is the priority a goroutine of identity ident starts with:
// above every lowered one (1 to depth-1), distinct for distinct
// identities but for a collision of 62-bit hashes.
func initialPrio(ident uint64) uint64 {
	return uint64(maxDepth) + 1 + mix(ident^0x7072696f)>>2 // "prio"
}

// ctlHook is the schedule hook under controlled scheduling: the goroutine
// gives up the run, if it held it, joins the ready goroutines and waits to
// be chosen.
func (g *G) ctlHook() {
	g.sel.force, g.cg.inSelect = 0, false
	if g.cg.prio == 0 {
		g.cg.prio = g.firstPrio()
		if g.cg.spawned {
			ctl.starting.Add(-1) // it came (schedwake.go)
		}
	}
	g.ctlSettle()
	ctl.mu.Lock()
	// A step is a hook pass of the goroutine holding the run: those come
	// in the schedule's order, while a goroutine that arrives without it
	// (one just started) arrives when its thread gets there.
	if ctl.holder.Load() == g {
		ctl.steps++
		if !ctl.walk && ctl.lowered < len(ctl.changes) && ctl.steps >= ctl.changes[ctl.lowered] {
			ctl.lowered++
			g.cg.prio = uint64(ctl.depth - ctl.lowered)
		}
	}
	g.ctlJoinLocked()
	ctl.mu.Unlock()
	g.ctlAwait()
}

// Gosched replaces runtime.Gosched in instrumented code: under
// controlled scheduling a yield the program asks for is a place to choose
// the next goroutine too. Without it, a goroutine that yields to let
// another run (GoKer's kernels wait so for the goroutines they started)
// keeps the run, and the others wait for its next sync operation or the
// patience. Nothing is recorded: the trace and the replay's turns are
// those of the sync operations.
func (g *G) Gosched() {
	if ctl.on && !g.off {
		g.ctlHook()
	}
	goruntime.Gosched()
}

// ctlSettle lets the goroutines the holder's last operation woke, and
// those it started, join the ready ones before it hands over (at its hook,
// or as it blocks): without it, whether they compete for this handover
// would be a race between two threads. One yield runs such a goroutine
// when it is on this thread's queue; when another thread took it, a few
// more let it get there, and awaitWoken and awaitStarted wait for it
// (schedwake.go). Only the holder settles: a goroutine that does not hold
// the run makes no handover, and its yields would only delay its joining,
// racing the holder's.
func (g *G) ctlSettle() {
	if ctl.holder.Load() != g {
		return
	}
	for range ctlSettle {
		goruntime.Gosched()
	}
	if obj := g.cg.lastObj; obj != 0 {
		g.cg.lastObj = 0
		awaitWoken(obj, g.cg.waiters)
	}
	if ctl.starting.Load() > 0 {
		awaitStarted()
	}
}

// ctlClaim is Spawn's: a goroutine that starts another takes the run
// when nobody holds it. A test's goroutine (or main) has passed no hook
// before its first go statement, and holds no run: its child, which does
// at once, took the run then, and whether the child got to its hook
// before the parent got to its next was a race between two threads
// (testdata/schedflaky's TestProcessorDrains, 2 runs of 30 under one
// seed).
func (g *G) ctlClaim() {
	if ctl.holder.Load() != nil {
		return
	}
	ctl.mu.Lock()
	if ctl.holder.Load() == nil && !slices.Contains(ctl.ready, g) {
		if g.cg.prio == 0 {
			g.cg.prio = g.firstPrio()
		}
		ctl.holder.Store(g)
		ctl.epoch.Add(1)
	}
	ctl.mu.Unlock()
}

// ctlResume is unblock's part under controlled scheduling: a goroutine
// that resumes from a wait waits to be chosen again.
func (g *G) ctlResume() {
	g.cg.inSelect = false
	if g.cg.prio == 0 {
		g.cg.prio = g.firstPrio()
	}
	ctl.mu.Lock()
	g.ctlLeftGoLocked()
	g.ctlJoinLocked()
	ctl.mu.Unlock()
	g.ctlAwait()
}

// ctlJoinLocked makes g ready, giving up the run if it held it.
func (g *G) ctlJoinLocked() {
	if ctl.holder.Load() == g {
		ctl.holder.Store(nil)
	}
	ctl.ready = append(ctl.ready, g)
	if ctl.holder.Load() == nil {
		handoverLocked()
	}
}

// ctlEnded is unregister's: g ended, and gives up the run.
func (g *G) ctlEnded() {
	ctl.mu.Lock()
	g.cg.ended = true
	ctl.mu.Unlock()
	g.ctlRelease()
}

// ctlRelease gives up the run: g is about to block, or has ended.
func (g *G) ctlRelease() {
	if ctl.holder.Load() != g {
		return
	}
	ctl.mu.Lock()
	if ctl.holder.Load() == g {
		ctl.holder.Store(nil)
		handoverLocked()
	}
	ctl.mu.Unlock()
}

// handoverLocked gives the run to the ready goroutine of highest
// priority, the earliest ready among equals; under walk, to one drawn
// (walkPick).
func handoverLocked() {
	if len(ctl.ready) == 0 {
		return
	}
	best := 0
	if ctl.walk {
		best = walkPick()
	} else {
		for i, r := range ctl.ready {
			if r.cg.prio > ctl.ready[best].cg.prio {
				best = i
			}
		}
	}
	g := ctl.ready[best]
	ctl.ready = append(ctl.ready[:best], ctl.ready[best+1:]...)
	ctl.holder.Store(g)
	ctl.epoch.Add(1)
	if g.cg.wake != nil {
		select {
		case g.cg.wake <- struct{}{}:
		default:
		}
	}
}

// ctlAwait waits until g holds the run: yielding a few times, then parked
// on its wake channel. When no handover happens for ctlPatience, the
// holder is blocked where divergo cannot see it (or computing): it loses
// the run, and the next is chosen. The wait is recorded as a perturb
// event, divergo's time, as replay's waits are.
func (g *G) ctlAwait() {
	if ctl.holder.Load() == g {
		return
	}
	begin := now()
	last, since := ctl.epoch.Load(), nanotime()
	for i := 0; ctl.holder.Load() != g; i++ {
		if i < ctlSpins {
			goruntime.Gosched()
		} else {
			g.ctlPark(time.Duration(int64(ctlPatience) - (nanotime() - since)))
		}
		if e := ctl.epoch.Load(); e != last {
			last, since = e, nanotime()
			continue
		}
		if nanotime()-since >= int64(ctlPatience) {
			ctlStall(last)
			since = nanotime()
		}
	}
	end := now()
	g.put(opPerturb, 0, lo(uint64(begin)), hi(uint64(begin)), lo(uint64(end)), hi(uint64(end)))
}

// ctlPark parks g until a handover to it or for d.
func (g *G) ctlPark(d time.Duration) {
	if d <= 0 {
		return
	}
	if g.cg.wake == nil {
		ctl.mu.Lock() // handoverLocked reads wake under mu
		g.cg.wake = make(chan struct{}, 1)
		ctl.mu.Unlock()
		if ctl.holder.Load() == g {
			return
		}
	}
	if g.cg.timer == nil {
		g.cg.timer = time.NewTimer(d)
	} else {
		g.cg.timer.Reset(d)
	}
	select {
	case <-g.cg.wake:
	case <-g.cg.timer.C:
	}
}

// ctlStall takes the run from a holder that made no handover since epoch
// last. With none ready, the goroutines parked on locks try again: the
// unlock that frees them may be one divergo does not see.
func ctlStall(last int64) {
	ctl.mu.Lock()
	if ctl.epoch.Load() == last {
		ctl.holder.Store(nil)
		handoverLocked()
		if ctl.holder.Load() == nil {
			enableLocked(func(*G) bool { return true })
		}
	}
	ctl.mu.Unlock()
}
