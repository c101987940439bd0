package runtime

import (
	goruntime "runtime"
	"time"
)

// Locks under controlled scheduling. Go hands a mutex to its waiters in
// its own order (FIFO, or to a goroutine that arrives while it spins), so
// which waiter an unlock woke would be Go's choice, not the scheduler's. A
// sync.Mutex that is held therefore does not block in Go: its goroutine gives up
// the run and waits disabled (ctl.parked) until an instrumented unlock of
// the same object enables it, and then tries again when the scheduler
// chooses it. The goroutine to take the lock next is the one of highest
// priority among the enabled waiters.
//
// An RWMutex waits in Go, both ways: a writer waiting in Go keeps new
// readers out, and a writer parked here would not, which let
// GoKer's Cockroach16167 (a reader taking the lock again while a writer
// waits) never deadlock under the scheduler.
//
// An unlock divergo does not see (uninstrumented code, the one inside
// Cond.Wait) enables nothing: once no handover has happened for
// ctlPatience every parked goroutine is enabled and tries again. A lock
// still not taken after ctlGiveUp waits in Go: a program deadlocked on
// it dies of Go's report, as it does without divergo.

// ctlGiveUp is how long a lock is tried under the scheduler before its
// goroutine waits for it in Go. Short enough that a goroutine deadlocked
// on a lock is blocked in Go, where Go's goroutine leak profile and its
// deadlock report see it, by the time GoKer's kernels look (100 ms after
// the bug's start); long enough for the two or three patiences a lock
// waits for an unlock divergo does not see.
const ctlGiveUp = 60 * time.Millisecond

// ctlLockWait takes a lock that was held when tried, whose object is obj:
// try takes it without blocking, lock blocks in Go. The goroutine has
// given up the run (block); it returns with the lock, and unblock then
// waits for the run again.
func (g *G) ctlLockWait(try func() bool, lock func(), obj uint64) {
	start := nanotime()
	for {
		for range 3 { // an unlock under way, Cond.Wait's own among them
			if try() {
				return
			}
			goruntime.Gosched()
		}
		ctl.mu.Lock()
		if nanotime()-start > int64(ctlGiveUp) || deadLockLocked(g, obj) {
			ctl.mu.Unlock()
			g.ctlRelease()
			lock() // Go's, and Go's to report if it never comes (schedowner.go)
			return
		}
		if ctl.holder.Load() == g {
			ctl.holder.Store(nil)
		}
		g.cg.waitObj = obj
		ctl.parked = append(ctl.parked, g)
		if ctl.holder.Load() == nil {
			handoverLocked()
		}
		ctl.mu.Unlock()
		g.ctlAwait()
	}
}

// ctlUnlocked enables the goroutines waiting for the lock obj: the
// scheduler chooses among them, and the others, at the next handover.
func ctlUnlocked(g *G, obj uint64) {
	ctl.mu.Lock()
	ctlDisownLocked(g, obj)
	enableLocked(func(w *G) bool { return w.cg.waitObj == obj })
	ctl.mu.Unlock()
}

// enableLocked moves the parked goroutines which says to the ready ones,
// in the order they parked.
func enableLocked(which func(*G) bool) {
	kept := ctl.parked[:0]
	for _, w := range ctl.parked {
		if which(w) {
			w.cg.waitObj = 0
			ctl.ready = append(ctl.ready, w)
		} else {
			kept = append(kept, w)
		}
	}
	clear(ctl.parked[len(kept):])
	ctl.parked = kept
	if ctl.holder.Load() == nil {
		handoverLocked()
	}
}
