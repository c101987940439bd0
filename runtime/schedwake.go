package runtime

import (
	goruntime "runtime"
	"slices"
	"time"
)

// Wake-ups under controlled scheduling. A goroutine blocked in Go on a
// channel (a receive, a send, a select none of whose cases was ready) or
// a WaitGroup is woken by Go when the goroutine holding the run operates
// on that channel (or makes the group's count zero),
// and joins the ready ones when its thread reaches unblock. Whether it
// gets there before the holder's next handover is a race between two
// threads, and a seed would give two schedules. So the holder, at its next
// hook, waits for the goroutines blocked on the channel its last operation
// was on to join (awaitWoken), for at most ctlWakeWait: a send wakes one
// receiver of several, and the others stay blocked. A goroutine just
// started is the same race: the holder waits, as long, for the goroutines
// started (Spawn) that have not reached their first hook (ctl.starting).

// ctlWakeWait bounds how long the holder waits for a goroutine its last
// channel operation woke, or one it started. Half a millisecond let a seed
// give two schedules in about 1 run of 200 under a load of 8 to 12 on two
// cores, 2 ms in 1 of 50 at a load of 6 to 10 (e2e's TestSchedSameReport).
const ctlWakeWait = 10 * time.Millisecond

// awaitStarted waits, for at most ctlWakeWait, until every goroutine
// started has come to its first hook.
func awaitStarted() {
	deadline := nanotime() + int64(ctlWakeWait)
	for ctl.starting.Load() > 0 && nanotime() <= deadline {
		goruntime.Gosched()
	}
}

// ctlBlockedInGo notes that g, holding no run, blocks in Go on the
// channels objs (one for a send or receive, a select's cases').
func (g *G) ctlBlockedInGo(objs ...uint64) {
	ctl.mu.Lock()
	g.cg.goObjs = append(g.cg.goObjs[:0], objs...)
	ctl.inGo = append(ctl.inGo, g)
	ctl.mu.Unlock()
}

// ctlLeftGo is unblock's: g no longer waits in Go. Under ctl.mu.
func (g *G) ctlLeftGoLocked() {
	if len(g.cg.goObjs) == 0 {
		return
	}
	g.cg.goObjs = g.cg.goObjs[:0]
	if i := slices.Index(ctl.inGo, g); i >= 0 {
		ctl.inGo = slices.Delete(ctl.inGo, i, i+1)
	}
}

// ctlNoteWaiters notes, before an operation on obj that may wake
// goroutines blocked in Go on it, how many are: the holder's next hook
// waits for one of them to join (awaitWoken).
func (g *G) ctlNoteWaiters(obj uint64) {
	ctl.mu.Lock()
	n := waitersLocked(obj)
	ctl.mu.Unlock()
	g.cg.lastObj, g.cg.waiters = 0, n
	if n > 0 {
		g.cg.lastObj = obj
	}
}

// waitersLocked counts the goroutines blocked in Go on obj. Under ctl.mu.
func waitersLocked(obj uint64) int {
	n := 0
	for _, w := range ctl.inGo {
		if slices.Contains(w.cg.goObjs, obj) {
			n++
		}
	}
	return n
}

// awaitWoken waits, for at most ctlWakeWait, until fewer than before
// goroutines blocked in Go wait on obj, the channel (or WaitGroup) of the
// holder's last operation: the one it woke has joined. A send wakes one
// receiver of several, so it waits for one, not for all; an operation
// that woke none (a receive that found the buffer full of sends whose
// senders did not block) costs the bound.
func awaitWoken(obj uint64, before int) {
	deadline := nanotime() + int64(ctlWakeWait)
	for {
		ctl.mu.Lock()
		n := waitersLocked(obj)
		ctl.mu.Unlock()
		if n < before || nanotime() > deadline {
			return
		}
		goruntime.Gosched()
	}
}
