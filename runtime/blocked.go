package runtime

import (
	"sync/atomic"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// A wait that never ends never reaches the trace the usual way: sync
// events are written when the operation returns. So each recorder also
// keeps the wait it is in, if any (pendingWait: the operation, its site,
// the object and when it began), set just before the goroutine blocks and
// cleared when it resumes: a few plain stores on the blocking path only
// (an operation that succeeds at its first try never sets it). Whatever
// writes a goroutine's buffer while the goroutine still runs (finish, when
// main returns, on OsExit or an unrecovered panic; checkpoint, below) ends
// that goroutine's stream with the pending wait as a sync event marked
// blocked (docs/FORMAT.md, "Goroutines still blocked").
//
// A deadlocked program dies of Go's fatal "all goroutines are asleep", and
// no Go code runs after that. A checkpointer goroutine (hidden from the
// program, hidden.go) therefore looks every pollEvery whether every live
// recorder is blocked; when they are, it writes every live buffer, each
// ending with its pending wait, as tentative chunks at the end of the trace
// (trace.Writer.WriteTentative), which the next real write cuts off again,
// and then waits on a channel, with no timer pending, so that Go can
// declare the deadlock. The first goroutine to resume (or to start) after
// a checkpoint cuts it off and wakes the checkpointer: the blocking path
// pays one load of a flag, not a shared counter (docs/BLOCKED.md has the
// measurements). docs/BLOCKED.md weighs this against the alternatives. It
// returns when the trace is complete.

// pendingWait is the wait a goroutine is blocked in; op 0 when none.
type pendingWait struct {
	op    trace.Op
	site  uint32
	obj   uint64
	begin int64 // stamp
}

// block records that g is about to block in op on obj since begin, and
// returns the wait it replaces (a select's, while a case's operand runs
// instrumented code), for unblock.
func (g *G) block(op trace.Op, site uint32, obj uint64, begin int64) (prev pendingWait) {
	g.passTurn() // before waiting: the turn's releaser may come after it
	if ctl.on && !g.cg.inSelect {
		g.ctlSettle()  // a handover: those it woke or started join first
		g.ctlRelease() // the others run while it waits (sched.go)
	}
	prev = g.wait
	g.wait = pendingWait{op, site, obj, begin}
	if g.slot != nil {
		g.publishWait()
	}
	if sess.watch && ckptWaits.Load() {
		resumed() // this block may be the one that makes them all blocked
	}
	return prev
}

// unblock records that g resumed, restoring the wait block replaced.
func (g *G) unblock(prev pendingWait) {
	g.wait = prev
	if g.slot != nil {
		g.publishWait()
	}
	if sess.watch && ckptWaits.Load() {
		resumed()
	}
	if ctl.on {
		g.ctlResume() // waits to be chosen again (sched.go)
	}
}

// markTimedOut marks a test's root goroutine as running when the test
// binary's timeout came, in its slot, where the recovery finds it
// (testing.go). Another goroutine writes it, the timer's: a field of its
// own, which the goroutine never writes.
//
//go:norace
func markTimedOut(s *slotRec) { s.timedOut = 1 }

// publishWait copies g's wait into its slot, where a reader finds it after
// any death (arena_linux.go).
func (g *G) publishWait() {
	s, w := g.slot, g.wait
	s.waitOp, s.waitSite, s.waitObj, s.waitBegin = uint32(w.op), w.site, w.obj, w.begin
}

// pendingOf reads the wait of a goroutine that may be running. The race is
// the one snapshot documents: a goroutine that resumes while it is read
// was not blocked for good, and the next write of its buffer supersedes
// what was read.
//
//go:norace
func pendingOf(g *G) pendingWait { return g.wait }

// blockedWords is how many words appendBlocked appends at most.
const blockedWords = 8

// appendBlocked appends w to words as a sync event still blocked at now.
func appendBlocked(words []uint32, w pendingWait, now int64) []uint32 {
	if w.op == 0 {
		return words
	}
	return append(words, opBit|opSync<<16|uint32(w.op)|1<<8|1<<10, w.site, lo(w.obj), hi(w.obj),
		lo(uint64(now)), hi(uint64(now)), lo(uint64(w.begin)), hi(uint64(w.begin)))
}

// pollEvery is how often the checkpointer looks whether every goroutine is
// blocked: Go's deadlock report comes at most this much later.
const pollEvery = 10 * time.Millisecond

// The checkpoint's state.
var (
	ckptWake  = make(chan struct{}, 1)
	ckptWaits atomic.Bool // the checkpointer waits for a goroutine to resume
	ckptOn    atomic.Bool // tentative chunks end the file
)

// resumed is called by a goroutine that resumes, or starts, while the
// checkpointer waits: the program did not die at the checkpoint, and a
// trace cut short later (SIGKILL) must not end with waits that ended.
func resumed() {
	if !ckptWaits.CompareAndSwap(true, false) {
		return
	}
	dropCheckpoint() // under sess.mu: after a checkpoint being written
	wakeCheckpointer()
}

func dropCheckpoint() {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	for sess.inflight {
		sess.idle.Wait()
	}
	if ckptOn.Load() && sess.w != nil && !sess.failed && !sess.closed {
		if err := sess.w.DropTentative(); err != nil {
			failLocked(err)
		}
	}
	ckptOn.Store(false)
}

// checkpointer writes a checkpoint whenever every live recorder is blocked,
// then waits, with no timer, for one to resume. It looks every pollEvery,
// but never keeps a timer pending while nothing happens: a program whose
// goroutines are blocked where the recorder cannot see it (a receive in
// code that is not instrumented) must still be reported deadlocked by Go,
// not hang. So when no recorder wrote anything since its last look, it
// also waits until a goroutine blocks, resumes or starts.
//
// It takes no more than about a twentieth of a core: after a checkpoint it
// looks again only after twenty times as long as the checkpoint took (a
// program whose goroutines all wait for a ticker at once would otherwise
// rewrite every buffer at every tick).
func checkpointer() {
	defer func() {
		sess.mu.Lock()
		sess.watching = false
		sess.idle.Broadcast()
		sess.mu.Unlock()
	}()
	marks := map[*G]uint64{}
	var cpu cpuWatch
	for {
		time.Sleep(pollEvery)
		busy := cpu.busy()
		if traceDone() {
			return
		}
		if allBlocked() {
			t := time.Now()
			ckptWaits.Store(true)
			if !checkpoint() {
				return
			}
			d := time.Since(t)
			if !allBlocked() {
				resumed() // one resumed before the flag was up: nobody else will
			}
			waitResumed()
			time.Sleep(20 * d)
			continue
		}
		if !progressed(marks) {
			if busy {
				continue // computing in code that records nothing
			}
			ckptWaits.Store(true)
			if progressed(marks) || allBlocked() {
				resumed() // one moved before the flag was up
			}
			waitResumed()
		}
	}
}

// traceDone reports whether the trace is complete, or no longer written.
func traceDone() bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.closed || sess.failed
}

// wakeCheckpointer wakes the checkpointer if it waits for a goroutine to
// resume: finish calls it, so that it sees the trace complete and returns.
func wakeCheckpointer() {
	select {
	case ckptWake <- struct{}{}:
	default:
	}
}

// progressed reports whether any live recorder wrote since the last call,
// by the position of its buffer, read as snapshot reads it.
func progressed(marks map[*G]uint64) bool {
	sess.regMu.Lock()
	defer sess.regMu.Unlock()
	moved := len(marks) != len(sess.live)
	for g := range sess.live {
		if m := mark(g); marks[g] != m {
			marks[g], moved = m, true
		}
	}
	if len(marks) > len(sess.live) {
		for g := range marks {
			if _, ok := sess.live[g]; !ok {
				delete(marks, g)
			}
		}
	}
	return moved
}

// mark is where g's stream is: its chunk count and buffer position.
//
//go:norace
func mark(g *G) uint64 { return g.seq<<32 ^ uint64(g.n) }

// allBlocked reports whether every live recorder is blocked in a sync
// operation (a sleep does not count: it ends by itself).
func allBlocked() bool {
	sess.regMu.Lock()
	defer sess.regMu.Unlock()
	if len(sess.live) == 0 {
		return false
	}
	for g := range sess.live {
		if op := pendingOf(g).op; op == 0 || op == trace.OpSleep {
			return false
		}
	}
	return true
}

// checkpoint writes every live buffer, with its pending wait, as tentative
// chunks. It returns false once the trace is complete.
func checkpoint() bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	// The queued buffers come first, in order: the writer goroutine
	// writes them.
	awaitWrittenLocked()
	if sess.closed || sess.failed {
		return false
	}
	if sess.w == nil {
		return true
	}
	sess.regMu.Lock()
	live := make([]*G, 0, len(sess.live))
	for g := range sess.live {
		live = append(live, g)
	}
	sess.regMu.Unlock()
	t := now()
	var cs []*trace.Chunk
	for _, g := range live {
		if g.ended {
			continue
		}
		// The count first, then the buffer, as finish reads them: read
		// the other way round, room could swap in a larger buffer between
		// the two reads and the copy would take words never written.
		n := writtenOf(g)
		ws := appendBlocked(snapshot(bufferOf(g), n), pendingOf(g), t)
		if len(ws) == 0 {
			continue
		}
		c := new(trace.Chunk)
		cv := newStampConv(g.floor)
		encode(ws, c, &cv)
		chunkHead(g, c, ws, false, 0, &cv)
		cs = append(cs, c)
	}
	if err := sess.w.WriteTentative(cs); err != nil {
		failLocked(err)
		return false
	}
	ckptOn.Store(len(cs) > 0)
	return true
}
