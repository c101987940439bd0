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
// main returns, on SIGINT or SIGTERM, on OsExit; checkpoint, below) ends
// that goroutine's stream with the pending wait as a sync event marked
// blocked (docs/FORMAT.md, "Goroutines still blocked").
//
// With DIVERGO_SIGNALS=off a deadlocked program dies of Go's fatal "all
// goroutines are asleep", and no Go code runs after that. The last
// instrumented goroutine to block therefore asks for a checkpoint: a
// checkpointer goroutine writes every live buffer, each ending with its
// pending wait, as tentative chunks at the end of the trace
// (trace.Writer.WriteTentative), which the next real write cuts off again.
// It is woken through a channel, so the goroutine that blocks pays a
// counter and a non-blocking send only when everyone else is blocked too;
// and Go declares the deadlock only once the checkpointer is asleep again,
// after it wrote. docs/BLOCKED.md weighs this against the alternatives.

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
//
// Sleeps are recorded but not counted as blocked for the checkpoint: a
// sleeping goroutine will go on, and Go never declares a deadlock while
// one sleeps.
func (g *G) block(op trace.Op, site uint32, obj uint64, begin int64) (prev pendingWait) {
	prev = g.wait
	g.wait = pendingWait{op, site, obj, begin}
	if sess.watch && op != trace.OpSleep {
		parked()
	}
	return prev
}

// unblock records that g resumed, restoring the wait block replaced.
func (g *G) unblock(prev pendingWait) {
	if sess.watch && g.wait.op != trace.OpSleep && g.wait.op != 0 {
		resumed()
	}
	g.wait = prev
}

// pendingOf reads the wait of a goroutine that may be running. The race is
// the one snapshot documents: a goroutine that resumes while it is read
// was not blocked for good, and the next write of its buffer supersedes
// what was read.
//
//go:norace
func pendingOf(g *G) pendingWait { return g.wait }

// appendBlocked appends w to words as a sync event still blocked at now.
func appendBlocked(words []uint32, w pendingWait, now int64) []uint32 {
	if w.op == 0 {
		return words
	}
	return append(words, opBit|opSync<<16|uint32(w.op)|1<<8|1<<10, w.site, lo(w.obj), hi(w.obj),
		lo(uint64(now)), hi(uint64(now)), lo(uint64(w.begin)), hi(uint64(w.begin)))
}

// The checkpoint's bookkeeping: how many recorders are live and how many
// of them are blocked (DIVERGO_SIGNALS=off only).
var (
	nLive    atomic.Int64
	nBlocked atomic.Int64
	ckptReq  = make(chan struct{}, 1)
	ckptOn   atomic.Bool // tentative chunks end the file
)

// parked counts a goroutine that blocks; the last one asks for a
// checkpoint.
func parked() {
	if nBlocked.Add(1) >= nLive.Load() {
		askCheckpoint()
	}
}

func askCheckpoint() {
	select {
	case ckptReq <- struct{}{}:
	default: // one is already asked for
	}
}

// resumed counts a goroutine that resumes. The first to resume after a
// checkpoint cuts it off: the program did not die there, and a trace cut
// short later (SIGKILL) must not end with waits that ended.
func resumed() {
	nBlocked.Add(-1)
	if ckptOn.Load() {
		dropCheckpoint()
	}
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

// checkpointer writes a checkpoint whenever every live recorder is blocked.
// It never takes more than about a twentieth of a core: after a checkpoint
// it sleeps twenty times as long as the checkpoint took (a program whose
// goroutines all wait for a ticker at once would otherwise rewrite every
// buffer at every tick). While it sleeps Go does not declare a deadlock,
// and a request made meanwhile is served when it wakes.
func checkpointer() {
	for range ckptReq {
		if nBlocked.Load() < nLive.Load() {
			continue
		}
		t := time.Now()
		if !checkpoint() {
			return
		}
		time.Sleep(20 * time.Since(t))
	}
}

// checkpoint writes every live buffer, with its pending wait, as tentative
// chunks. It returns false once the trace is complete.
func checkpoint() bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	// The queued buffers come first, in order: the writer goroutine
	// writes them.
	for (len(sess.jobs) > 0 || sess.inflight) && !sess.closed && !sess.failed {
		sess.idle.Wait()
	}
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
		ws := appendBlocked(snapshot(g), pendingOf(g), t)
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
