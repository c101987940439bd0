package runtime

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/divergo/divergo/internal/trace"
)

// waitThreshold decides, for operations without a non-blocking variant
// (WaitGroup.Wait, select, Once.Do), whether the goroutine waited: parking
// and waking a goroutine takes longer than this, an operation that finds
// its condition already true much less.
const waitThreshold = 2 * time.Microsecond

// syncEv records a sync operation. Acquire-like operations that waited
// carry begin; everything carries end, the time the operation completed
// (for a release, the time just before it released).
func (g *G) syncEv(op trace.Op, site uint32, obj uint64, waited bool, begin, end int64) {
	g.syncEvAux(uint32(op), site, obj, waited, begin, end)
}

// syncEvAux is syncEv with the opcode's aux bits given: the op, and bit 9
// for a select whose chosen case sends.
//
// The words are stored directly, not through put: every send and receive
// comes here, and put's variadic copy cost about 6 ns of each
// (BenchmarkSendRecv, a send and a receive: 146 -> 134 ns).
func (g *G) syncEvAux(aux uint32, site uint32, obj uint64, waited bool, begin, end int64) {
	if g.off {
		return
	}
	g.passTurn()
	k := 6 // the opcode and its payload
	if waited {
		k, aux = 8, aux|1<<8
	}
	if len(g.buf)-g.n < k {
		g.room(k)
	}
	// Eight words fit below cap (reserve); the last two are free space
	// when the operation did not wait.
	w := g.buf[g.n : g.n+8 : g.n+8]
	w[0], w[1], w[2], w[3] = opBit|opSync<<16|aux, site, lo(obj), hi(obj)
	w[4], w[5], w[6], w[7] = lo(uint64(end)), hi(uint64(end)), lo(uint64(begin)), hi(uint64(begin))
	g.n += k
}

func addr[T any](p *T) uint64 { return uint64(uintptr(unsafe.Pointer(p))) }

// Lock acquires mu, recording whether it waited and the acquisition ticket.
func (g *G) Lock(site uint32, mu *sync.Mutex) {
	if g.lock(site, mu, addr(mu)) {
		g.Outcome(ticket(mu))
	}
}

// tryLocker is what acquiring for writing needs of a sync.Mutex or the
// write side of a sync.RWMutex.
type tryLocker interface {
	sync.Locker
	TryLock() bool
}

// lock acquires mu, whose identity is obj, trying first so that the clock is
// read twice only when the goroutine really waits. It reports whether it
// recorded the acquisition; the caller then records the ticket.
func (g *G) lock(site uint32, mu tryLocker, obj uint64) bool {
	if g.off {
		mu.Lock()
		return false
	}
	g.perturb()
	t := now()
	if mu.TryLock() {
		g.syncEv(trace.OpLock, site, obj, false, 0, t)
	} else {
		prev := g.block(trace.OpLock, site, obj, t)
		if _, rw := mu.(*sync.RWMutex); ctl.on && !rw {
			g.ctlLockWait(mu.TryLock, mu.Lock, obj) // the scheduler's choice (schedlock.go)
		} else {
			mu.Lock()
		}
		g.unblock(prev)
		g.syncEv(trace.OpLock, site, obj, true, t, now())
	}
	if ctl.on {
		ctlOwned(g, obj) // schedowner.go
	}
	return true
}

// unlock releases mu, recording the release first so that readers can name
// it as the releaser of whoever acquires next.
func (g *G) unlock(site uint32, mu tryLocker, obj uint64) {
	if !g.off {
		g.syncEv(trace.OpUnlock, site, obj, false, 0, now())
	}
	mu.Unlock()
	if ctl.on {
		ctlUnlocked(g, obj)
	}
}

// Unlock releases mu.
func (g *G) Unlock(site uint32, mu *sync.Mutex) { g.unlock(site, mu, addr(mu)) }

// TryLock tries to acquire mu. Its outcome is the ticket, or 0 when it
// failed.
func (g *G) TryLock(site uint32, mu *sync.Mutex) bool {
	if g.off {
		return mu.TryLock()
	}
	g.perturb()
	obj := addr(mu)
	t := now()
	ok := mu.TryLock()
	g.syncEv(trace.OpTryLock, site, obj, false, 0, t)
	var tk uint64
	if ok {
		tk = ticket(mu)
		if ctl.on {
			ctlOwned(g, obj) // schedowner.go
		}
	}
	g.Outcome(tk)
	return ok
}

// RWLock acquires mu for writing.
func (g *G) RWLock(site uint32, mu *sync.RWMutex) {
	if g.lock(site, mu, addr(mu)) {
		g.Outcome(ticket(mu))
	}
}

// RWUnlock releases mu from writing.
func (g *G) RWUnlock(site uint32, mu *sync.RWMutex) { g.unlock(site, mu, addr(mu)) }

// RLock acquires mu for reading.
func (g *G) RLock(site uint32, mu *sync.RWMutex) {
	if g.off {
		mu.RLock()
		return
	}
	g.perturb()
	obj := addr(mu)
	t := now()
	if mu.TryRLock() {
		g.syncEv(trace.OpRLock, site, obj, false, 0, t)
	} else {
		prev := g.block(trace.OpRLock, site, obj, t)
		mu.RLock()
		g.unblock(prev)
		g.syncEv(trace.OpRLock, site, obj, true, t, now())
	}
	if ctl.on {
		ctlOwned(g, obj)
	}
	g.Outcome(ticket(mu))
}

// RUnlock releases mu from reading.
func (g *G) RUnlock(site uint32, mu *sync.RWMutex) {
	if !g.off {
		g.syncEv(trace.OpRUnlock, site, addr(mu), false, 0, now())
	}
	mu.RUnlock()
	if ctl.on {
		ctlUnlocked(g, addr(mu))
	}
}

// WGAdd adds n to wg. Under replay (replay.go) an Add of a positive n
// passes its turn on once the counter has moved, not when it is recorded:
// a Wait whose turn is next would otherwise overtake it and return at once.
func (g *G) WGAdd(site uint32, wg *sync.WaitGroup, n int) {
	if g.off {
		wg.Add(n)
		return
	}
	g.perturb()
	turn := g.turn
	if n > 0 {
		g.turn = 0
	}
	g.syncEv(trace.OpWGAdd, site, addr(wg), false, 0, now())
	wg.Add(n)
	if n > 0 {
		g.turn = turn
		g.passTurn()
	}
}

// WGDone marks one member of wg done: a release of wg's waiters.
func (g *G) WGDone(site uint32, wg *sync.WaitGroup) {
	if !g.off {
		g.perturb()
		g.syncEv(trace.OpWGDone, site, addr(wg), false, 0, now())
	}
	if ctl.on && wgCounter(wg) == 1 {
		g.ctlNoteWaiters(addr(wg)) // the Done that wakes its waiters (schedwake.go)
	}
	wg.Done()
}

// WGWait waits for wg.
func (g *G) WGWait(site uint32, wg *sync.WaitGroup) {
	if g.off {
		wg.Wait()
		return
	}
	g.perturb()
	t := now()
	// A Wait that will not wait keeps its turn until it has returned:
	// passed on before (block), the Adds whose turns come after it can
	// overtake it, when its thread is held up, and make it wait.
	kept := g.turn
	if kept != 0 && wgCounter(wg) == 0 {
		g.turn = 0
	} else {
		kept = 0
	}
	prev := g.block(trace.OpWGWait, site, addr(wg), t)
	if ctl.on {
		g.ctlBlockedInGo(addr(wg)) // schedwake.go
	}
	tw := now() // block may have cut a checkpoint: not part of the wait
	wg.Wait()
	end := now()
	g.unblock(prev)
	if kept != 0 {
		g.turn = kept // passed on by syncEv
	}
	g.syncEv(trace.OpWGWait, site, addr(wg), longer(tw, end, waitThreshold), t, end)
}

// wgCounter reads wg's counter: the high 32 bits of its state, the
// first word of a sync.WaitGroup (TestWGCounter checks the layout).
func wgCounter(wg *sync.WaitGroup) int32 {
	return int32((*atomic.Uint64)(unsafe.Pointer(wg)).Load() >> 32)
}

// CondWait waits on c (c.L must be held, as for c.Wait). It always waits.
func (g *G) CondWait(site uint32, c *sync.Cond) {
	if g.off {
		c.Wait()
		return
	}
	g.perturb()
	t := now()
	// c.Wait unlocks c.L: that releases whoever waits to lock it, so it
	// is recorded as an unlock of the mutex (its reacquisition is part of
	// the wait and takes no ticket).
	switch l := c.L.(type) {
	case *sync.Mutex:
		g.syncEv(trace.OpUnlock, site, addr(l), false, 0, t)
		if ctl.on {
			ctlUnlocked(g, addr(l)) // they try again as c.Wait unlocks (schedlock.go)
		}
	case *sync.RWMutex:
		g.syncEv(trace.OpUnlock, site, addr(l), false, 0, t)
		if ctl.on {
			ctlUnlocked(g, addr(l))
		}
	}
	prev := g.block(trace.OpCondWait, site, addr(c), t)
	c.Wait()
	if ctl.on { // c.Wait locked c.L again (schedowner.go)
		switch l := c.L.(type) {
		case *sync.Mutex:
			ctlOwned(g, addr(l))
		case *sync.RWMutex:
			ctlOwned(g, addr(l))
		}
	}
	g.unblock(prev)
	g.syncEv(trace.OpCondWait, site, addr(c), true, t, now())
}

// CondSignal wakes one waiter of c.
func (g *G) CondSignal(site uint32, c *sync.Cond) {
	if !g.off {
		g.perturb()
		g.syncEv(trace.OpCondSignal, site, addr(c), false, 0, now())
	}
	c.Signal()
}

// CondBroadcast wakes every waiter of c.
func (g *G) CondBroadcast(site uint32, c *sync.Cond) {
	if !g.off {
		g.perturb()
		g.syncEv(trace.OpCondBroadcast, site, addr(c), false, 0, now())
	}
	c.Broadcast()
}

// OnceDo calls o.Do(f). It waited when another goroutine was running f.
// Its outcome, the once TCP's, is 1 when this goroutine ran f and 0 when
// it did not: which goroutine runs f is the schedule's choice, and a run
// whose f is not instrumented shows it nowhere else.
func (g *G) OnceDo(site uint32, o *sync.Once, f func()) {
	if g.off {
		o.Do(f)
		return
	}
	g.perturb()
	ran := false
	t := now()
	// Blocked until another goroutine's f returns, unless this one runs f.
	prev := g.block(trace.OpOnce, site, addr(o), t)
	tw := now() // as in WGWait
	// The runner's event is written after f returns, and one that did
	// not wait keeps only its end: a clock at f's start says when it took
	// the Once, which a replay's schedule orders its turn by
	// (trace.Reader.Schedule), not by the end, after f ran, which put a
	// goroutine that waited for f first and made it the runner.
	o.Do(func() { ran = true; g.unblock(prev); g.put(opClock, 0, lo(uint64(t)), hi(uint64(t))); f() })
	end := now()
	if !ran {
		g.unblock(prev)
	}
	g.syncEv(trace.OpOnce, site, addr(o), !ran && longer(tw, end, waitThreshold), t, end)
	var out uint64
	if ran {
		out = 1
	}
	g.Outcome(out)
}

// Sleep sleeps for d: a wait with no releaser.
func (g *G) Sleep(site uint32, d time.Duration) {
	if g.off {
		time.Sleep(d)
		return
	}
	t := now()
	prev := g.block(trace.OpSleep, site, 0, t)
	time.Sleep(d)
	g.unblock(prev)
	g.syncEv(trace.OpSleep, site, 0, d > 0, t, now())
}

// SelectBegin is called just before a select statement; its result goes
// to SelectEnd.
func (g *G) SelectBegin(site uint32) int64 {
	if g.off {
		return 0
	}
	g.perturb()
	if ctl.on {
		// The scheduler picks among ready cases, and keeps the run while
		// it looks at them (schedselect.go).
		g.sel.force, g.cg.inSelect = selCtl, true
	}
	// The channel of the case that will be chosen is not known yet. The
	// select begins after block, which may have cut a checkpoint
	// (blocked.go): that is no part of a wait.
	g.block(trace.OpSelect, site, 0, now())
	return now()
}

// SelectEnd records a select that began at begin and chose clause c (from
// 0 in source order, the default counted). It waited when it took longer
// than waking a goroutine does. One that did not wait is stamped with
// begin, like every operation that did not wait: the time read before it,
// so that a send or receive it made never seems to come after the
// receiver or sender it released had woken.
func (g *G) SelectEnd(site uint32, begin int64, c int) {
	if g.off {
		return
	}
	g.selectEnd(uint32(trace.OpSelect), site, 0, begin, c)
}

// SelectEndOn records a select that began at begin and chose clause c, the
// case that received from ch (sends false) or sent on it (sends true): the
// channel names the select's releaser. The instrumenter calls it only
// where ch can be evaluated again without effects.
func SelectEndOn[C any](g *G, site uint32, begin int64, ch C, sends bool, c int) {
	if g.off {
		return
	}
	aux := uint32(trace.OpSelect)
	if sends {
		aux |= 1 << 9
	}
	g.selectEnd(aux, site, chanAddr(ch), begin, c)
}

// selectEnd records the select's event, the clause in aux bits 11 to 15
// (none past trace.MaxCase), and ends any forcing of its clause.
func (g *G) selectEnd(aux, site uint32, obj uint64, begin int64, c int) {
	end := now()
	g.unblock(pendingWait{}) // after end: as block in SelectBegin
	if g.sel.pick != 0 {
		g.sel.forced()
	}
	if c >= 0 && c < trace.MaxCase {
		aux |= uint32(c+1) << 11
	}
	waited := longer(begin, end, waitThreshold)
	if !waited {
		end = begin
	}
	g.syncEvAux(aux, site, obj, waited, begin, end)
}
