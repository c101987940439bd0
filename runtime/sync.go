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

// tickets counts acquisitions per lock, for the lock TCP's outcome: the
// n-th acquisition of a mutex has ticket n.
var tickets sync.Map // uint64 (address) → *atomic.Uint64

func ticket(obj uint64) uint64 {
	c, ok := tickets.Load(obj)
	if !ok {
		c, _ = tickets.LoadOrStore(obj, new(atomic.Uint64))
	}
	return c.(*atomic.Uint64).Add(1)
}

// Lock acquires mu, recording whether it waited and the acquisition ticket.
func (g *G) Lock(site uint32, mu *sync.Mutex) { g.lock(site, mu, addr(mu)) }

// tryLocker is what acquiring for writing needs of a sync.Mutex or the
// write side of a sync.RWMutex.
type tryLocker interface {
	sync.Locker
	TryLock() bool
}

// lock acquires mu, whose identity is obj, trying first so that the clock is
// read twice only when the goroutine really waits.
func (g *G) lock(site uint32, mu tryLocker, obj uint64) {
	if g.off {
		mu.Lock()
		return
	}
	g.perturb()
	t := now()
	if mu.TryLock() {
		g.syncEv(trace.OpLock, site, obj, false, 0, t)
	} else {
		prev := g.block(trace.OpLock, site, obj, t)
		mu.Lock()
		g.unblock(prev)
		g.syncEv(trace.OpLock, site, obj, true, t, now())
	}
	g.Outcome(ticket(obj))
}

// unlock releases mu, recording the release first so that readers can name
// it as the releaser of whoever acquires next.
func (g *G) unlock(site uint32, mu tryLocker, obj uint64) {
	if !g.off {
		g.syncEv(trace.OpUnlock, site, obj, false, 0, now())
	}
	mu.Unlock()
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
		tk = ticket(obj)
	}
	g.Outcome(tk)
	return ok
}

// RWLock acquires mu for writing.
func (g *G) RWLock(site uint32, mu *sync.RWMutex) { g.lock(site, mu, addr(mu)) }

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
	g.Outcome(ticket(obj))
}

// RUnlock releases mu from reading.
func (g *G) RUnlock(site uint32, mu *sync.RWMutex) {
	if !g.off {
		g.syncEv(trace.OpRUnlock, site, addr(mu), false, 0, now())
	}
	mu.RUnlock()
}

// WGAdd adds n to wg.
func (g *G) WGAdd(site uint32, wg *sync.WaitGroup, n int) {
	if !g.off {
		g.perturb()
		g.syncEv(trace.OpWGAdd, site, addr(wg), false, 0, now())
	}
	wg.Add(n)
}

// WGDone marks one member of wg done: a release of wg's waiters.
func (g *G) WGDone(site uint32, wg *sync.WaitGroup) {
	if !g.off {
		g.perturb()
		g.syncEv(trace.OpWGDone, site, addr(wg), false, 0, now())
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
	prev := g.block(trace.OpWGWait, site, addr(wg), t)
	wg.Wait()
	g.unblock(prev)
	end := now()
	g.syncEv(trace.OpWGWait, site, addr(wg), longer(t, end, waitThreshold), t, end)
}

// CondWait waits on c (c.L must be held, as for c.Wait). It always waits.
func (g *G) CondWait(site uint32, c *sync.Cond) {
	if g.off {
		c.Wait()
		return
	}
	g.perturb()
	t := now()
	prev := g.block(trace.OpCondWait, site, addr(c), t)
	c.Wait()
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
	o.Do(func() { ran = true; g.unblock(prev); f() })
	if !ran {
		g.unblock(prev)
	}
	end := now()
	g.syncEv(trace.OpOnce, site, addr(o), !ran && longer(t, end, waitThreshold), t, end)
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
	t := now()
	// The channel of the case that will be chosen is not known yet.
	g.block(trace.OpSelect, site, 0, t)
	return t
}

// SelectEnd records a select that began at begin. It waited when it took
// longer than waking a goroutine does.
func (g *G) SelectEnd(site uint32, begin int64) {
	if g.off {
		return
	}
	g.unblock(pendingWait{})
	end := now()
	g.syncEv(trace.OpSelect, site, 0, longer(begin, end, waitThreshold), begin, end)
}

// SelectEndOn records a select that began at begin and chose the case that
// received from ch (sends false) or sent on it (sends true): the channel
// names the select's releaser. The instrumenter calls it only where ch can
// be evaluated again without effects.
func SelectEndOn[C any](g *G, site uint32, begin int64, ch C, sends bool) {
	if g.off {
		return
	}
	g.unblock(pendingWait{})
	end := now()
	aux := uint32(trace.OpSelect)
	if sends {
		aux |= 1 << 9
	}
	g.syncEvAux(aux, site, chanAddr(ch), longer(begin, end, waitThreshold), begin, end)
}
