package runtime

import (
	"fmt"
	"os"
	goruntime "runtime"
	"sync/atomic"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// Schedule replay. DIVERGO_REPLAY=FILE (a schedule divergo test wrote from
// a failing run's trace, trace.Schedule) makes every goroutine of the
// schedule wait, at the schedule hook (perturb.go) of each sync operation,
// for that operation's turn: the turns were numbered in the order the
// recorded run's operations began, and a global counter says which turn
// is next. A goroutine takes its turn by moving the counter past it, then
// does its operation: an operation that blocks (a receive waiting for the
// send of a later turn) has already let the next turn go.
//
// The replaying run must never hang, nor notice otherwise:
//   - a hook pass of a goroutine the schedule does not name proceeds at
//     once; a pass of one it names, beyond the passes it made there, is
//     one the recorded run made after its last turn (or never), and waits
//     for the end of the schedule, or until the counter has stood still
//     for replayPatience (awaitEnd): let through at once, the workers of a
//     test whose outcome is read before they finish did their work before
//     the read in 3 of 20 replays on a loaded machine;
//   - a goroutine whose turn has not come while the counter stood still
//     for replayPatience skips the turn the counter stands at: it is of an
//     operation this run does not make (or not yet), which proceeds at
//     once when it comes (awaitTurn);
//   - waiting spins with Gosched, as delay does, on the goroutine's own
//     stack: no goroutine, timer or channel is added, and a program
//     deadlocked without divergo is still reported so once every goroutine
//     has given up waiting (docs/BLOCKED.md); a select whose clause is
//     forced waits on a timer of the patience (selforce.go), and the report
//     then comes once it has fired.
//
// A goroutine's identity (perturb.go) names it in every run; the schedule
// names goroutines by spawn structure, and readReplay computes the
// identities they have in this run.

// replayPatience is how long a goroutine waits for its turn while no turn
// is taken before it gives up. A turn that is coming follows the one
// before within the recorded run's gap between them, which for
// testdata/flaky's tests is well under a millisecond but the length of a
// sleep or a timer when the recorded run waited for one (5 ms in
// TestGroupForget, 10 ms in TestFakeClockTicks): the patience is above
// those and small enough that a run whose turns never come loses only a
// few times it.
const replayPatience = 50 * time.Millisecond

// turnKey is the k-th hook pass of the goroutine of identity ident.
type turnKey struct {
	ident uint64
	k     uint32
}

// replay is the schedule being replayed: set once by readReplay, before
// any recorder exists, and only read afterwards, but for next.
var replay struct {
	on     bool
	turns  map[turnKey]int64 // each pass's turn, from 0
	passes map[uint64]uint32 // per identity of the schedule, how many passes it made
	owner  []int32           // each turn's goroutine, an index of the schedule's
	cases  []uint8           // each turn's select clause, from 1; 0 for none (nil when no turn has one)
	absent []atomic.Bool     // per goroutine of the schedule: a turn of it was skipped since it last came
	next   atomic.Int64      // the next turn to take
	skips  atomic.Int32      // turns skipped since the last one taken
	stuck  atomic.Int64      // the counter, plus one, where a pass after the end gave up waiting
}

// readReplay reads the schedule DIVERGO_REPLAY names. A file that cannot
// be read or is not a schedule is reported once and ignored: the program
// runs as it would without. A child process (child.go) does not replay:
// the schedule is of its parent's goroutines.
func readReplay(child bool) {
	replay.on, replay.turns, replay.passes, replay.owner, replay.absent, replay.cases = false, nil, nil, nil, nil, nil
	replay.next.Store(0)
	replay.skips.Store(0)
	replay.stuck.Store(0)
	hooked = perturbOn
	path := os.Getenv("DIVERGO_REPLAY")
	if path == "" || child {
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "divergo: DIVERGO_REPLAY: %v; not replaying\n", err)
		return
	}
	s, err := trace.ParseSchedule(data)
	if err != nil {
		fmt.Fprintf(os.Stderr, "divergo: DIVERGO_REPLAY=%s: %v; not replaying\n", path, err)
		return
	}
	replay.turns, replay.passes = replayTurns(s, perturbSeed)
	replay.owner = make([]int32, len(s.Turns))
	for pos, t := range s.Turns {
		replay.owner[pos] = int32(t.G)
		if t.Case != 0 {
			if replay.cases == nil {
				replay.cases = make([]uint8, len(s.Turns))
			}
			replay.cases[pos] = uint8(t.Case)
		}
	}
	replay.absent = make([]atomic.Bool, len(s.Gs))
	replay.on, hooked = true, true
}

// replayTurns maps the hook passes of s, by the identities its goroutines
// have under seed, to their turns, and counts each identity's passes. A
// pass named twice (two goroutines of one identity, which the mixing
// makes about impossible) keeps its first turn.
func replayTurns(s *trace.Schedule, seed uint64) (map[turnKey]int64, map[uint64]uint32) {
	idents := make([]uint64, len(s.Gs))
	for i, g := range s.Gs {
		switch {
		case g.Parent > 0:
			idents[i] = childIdent(idents[g.Parent-1], g.Site, g.Ordinal)
		case g.Test != "":
			idents[i] = testIdent(seed, g.Test)
		default:
			idents[i] = rootIdent(seed)
		}
	}
	turns := make(map[turnKey]int64, len(s.Turns))
	passes := make(map[uint64]uint32, len(s.Gs))
	for _, id := range idents {
		passes[id] = 0
	}
	for pos, t := range s.Turns {
		k := turnKey{idents[t.G], t.K}
		if _, dup := turns[k]; !dup {
			turns[k] = int64(pos)
		}
		passes[k.ident] = max(passes[k.ident], t.K+1)
	}
	return turns, passes
}

// waitTurn is the schedule hook under replay: it waits for the
// goroutine's next pass's turn, which the operation then passes on
// (passTurn) once it has taken effect or is about to block. Passing the
// turn on in the hook would let the next turn's goroutine, spinning,
// overtake an operation that had its turn but not yet done it (a replayed
// lock race came back 8 times in 10 under load). A wait is recorded as a
// perturb event, for the reasons perturbSlow records its delays.
func (g *G) waitTurn() {
	g.passTurn() // an operation whose hook had no wrapper after it
	g.sel.force = 0
	k := g.passes
	g.passes++
	pos, ok := replay.turns[turnKey{g.ident, k}]
	if !ok {
		if n, named := replay.passes[g.ident]; named && k >= n && replay.next.Load() < int64(len(replay.owner)) {
			begin := now()
			awaitEnd(replayPatience)
			end := now()
			g.put(opPerturb, 0, lo(uint64(begin)), hi(uint64(begin)), lo(uint64(end)), hi(uint64(end)))
		}
		return
	}
	if a := &replay.absent[replay.owner[pos]]; a.Load() {
		a.Store(false) // it came: its turns are waited for again
	}
	if replay.next.Load() < pos {
		begin := now()
		awaitTurn(pos, replayPatience)
		end := now()
		g.put(opPerturb, 0, lo(uint64(begin)), hi(uint64(begin)), lo(uint64(end)), hi(uint64(end)))
	}
	g.turn = pos + 1
	if replay.cases != nil {
		g.sel.force = replay.cases[pos] // SelectBegin's pass: the clause to force
	}
}

// passTurn passes on the turn the goroutine holds, if any: the wrappers
// call it where an operation took effect (syncEvAux; for a release, just
// before it does) or is about to block (block), and a goroutine's start
// right after its hook. Off replay it is one predictable branch.
func (g *G) passTurn() {
	if g.turn != 0 {
		takeTurn(g.turn - 1)
		g.turn = 0
	}
}

// awaitTurn yields until turn pos is next. A turn that does not come
// while the counter stands still for the patience is skipped, one turn at
// a time: of the goroutines waiting, each may time out, but only one moves
// the counter, and the others see it move, so that those waiting keep
// their order. The skipped turn's goroutine is then absent: its next
// turns are skipped at once, until it comes to a turn of its own (a
// goroutine this run never starts costs one patience, not one per turn).
// Each skip in a row halves the patience, down to a quarter of it, so
// that a run missing several goroutines does not wait the full patience
// for each; not below: a goroutine whose turn is next may not run for
// milliseconds on a loaded machine, and skipping its turn then would lose
// the order. It reports whether no turn was skipped.
func awaitTurn(pos int64, patience time.Duration) bool {
	cur := replay.next.Load()
	since := nanotime()
	inOrder := true
	for cur < pos {
		goruntime.Gosched()
		c := replay.next.Load()
		if c == cur {
			absent := c < int64(len(replay.owner)) && replay.absent[replay.owner[c]].Load()
			wait := int64(patience) >> min(replay.skips.Load(), 2)
			if !absent && nanotime()-since <= wait {
				continue
			}
			if replay.next.CompareAndSwap(cur, cur+1) && !absent {
				replay.skips.Add(1)
				if cur < int64(len(replay.owner)) {
					replay.absent[replay.owner[cur]].Store(true)
				}
			}
			inOrder = false
			c = replay.next.Load()
		}
		cur, since = c, nanotime()
	}
	return inOrder
}

// awaitEnd yields until every turn of the schedule is taken, or the
// counter has stood still for the patience: a pass after the schedule's
// end has no turn, and it neither skips a turn nor marks one absent. Its
// goroutine may hold a lock that a turn still to come needs (a cond.Wait
// the recorded run made only after its trace ended): it then goes on once
// the others have waited the patience, and the order of the turns is kept.
// Once one gave up, the passes after the end go at once until the counter
// moves, so that a loop of them costs one patience, not one per pass.
func awaitEnd(patience time.Duration) {
	end := int64(len(replay.owner))
	cur := replay.next.Load()
	if replay.stuck.Load() == cur+1 {
		return
	}
	since := nanotime()
	for cur < end {
		goruntime.Gosched()
		if c := replay.next.Load(); c != cur {
			cur, since = c, nanotime()
		} else if nanotime()-since > int64(patience) {
			replay.stuck.Store(cur + 1)
			return
		}
	}
}

// takeTurn moves the counter past turn pos, unless it was skipped already.
func takeTurn(pos int64) {
	for {
		c := replay.next.Load()
		if c > pos {
			return
		}
		if replay.next.CompareAndSwap(c, pos+1) {
			replay.skips.Store(0)
			return
		}
	}
}
