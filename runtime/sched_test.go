package runtime

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestParseSched(t *testing.T) {
	for _, c := range []struct {
		in           string
		depth, sweep int
		bad          bool
	}{
		{"pct", defaultDepth, -1, false},
		{"pct:1", 1, -1, false},
		{"pct:8", 8, -1, false},
		{"pct:0", 0, -1, true},
		{"pct:9", 0, -1, true},
		{"pct:x", 0, -1, true},
		{"walk", 0, -1, false},
		{"walk:2", 0, -1, true},
		{"sweep:0", 2, 0, false},
		{"sweep:17", 2, 17, false},
		{"sweep", 0, -1, true},
		{"sweep:-1", 0, -1, true},
		{"pos", 0, -1, true},
		{"", 0, -1, true},
	} {
		d, sw, err := parseSched(c.in)
		if (err != nil) != c.bad || d != c.depth || sw != c.sweep {
			t.Errorf("parseSched(%q) = %d, %d, %v; want %d, %d, bad %v", c.in, d, sw, err, c.depth, c.sweep, c.bad)
		}
	}
}

// TestChangePoints checks that a seed always gives the same change
// points, depth-1 of them, ascending, within 4096 steps, and that seeds
// spread them.
func TestChangePoints(t *testing.T) {
	seen := map[int64]bool{}
	for seed := range uint64(50) {
		for d := 1; d <= maxDepth; d++ {
			a, b := changePoints(seed, d), changePoints(seed, d)
			if !slices.Equal(a, b) {
				t.Fatalf("seed %d depth %d: %v then %v", seed, d, a, b)
			}
			if len(a) != d-1 || !slices.IsSorted(a) {
				t.Fatalf("seed %d depth %d: %v", seed, d, a)
			}
			for _, s := range a {
				if s < 1 || s > 4096 {
					t.Fatalf("seed %d depth %d: step %d out of range", seed, d, s)
				}
				seen[s] = true
			}
		}
	}
	if len(seen) < 100 {
		t.Errorf("50 seeds drew only %d distinct steps", len(seen))
	}
}

// ctlTest turns controlled scheduling on for a test, with main holding
// the run, and off at its end.
func ctlTest(t *testing.T, depth int, changes []int64) *G {
	t.Helper()
	main := newG(1, 1)
	main.cg.prio = 1 << 40
	ctl.on, ctl.depth, ctl.changes = true, depth, changes
	ctl.ready, ctl.steps, ctl.lowered = nil, 0, 0
	ctl.holder.Store(main)
	t.Cleanup(func() {
		ctl.on, ctl.depth, ctl.changes, ctl.ready = false, 0, nil, nil
		ctl.holder.Store(nil)
	})
	return main
}

// runReady starts one goroutine per priority, each passing the hook once,
// noting its priority and ending; once all of them wait, main gives up the
// run. It returns the order they ran in.
func runReady(t *testing.T, main *G, prios []uint64) []uint64 {
	t.Helper()
	var (
		mu    sync.Mutex
		order []uint64
		wg    sync.WaitGroup
	)
	for i, p := range prios {
		g := newG(uint64(i+2), uint64(i+2))
		g.cg.prio = p
		wg.Go(func() {
			g.ctlHook()
			mu.Lock()
			order = append(order, p)
			mu.Unlock()
			g.ctlRelease()
		})
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		ctl.mu.Lock()
		n := len(ctl.ready)
		ctl.mu.Unlock()
		if n == len(prios) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d goroutines ready", n, len(prios))
		}
	}
	main.ctlRelease()
	wg.Wait()
	return order
}

// TestCtlPriorities checks that the ready goroutines run one at a time,
// highest priority first.
func TestCtlPriorities(t *testing.T) {
	main := ctlTest(t, 1, nil)
	order := runReady(t, main, []uint64{3000, 1000, 4000, 2000, 5000})
	if want := []uint64{5000, 4000, 3000, 2000, 1000}; !slices.Equal(order, want) {
		t.Errorf("ran in %v, want %v", order, want)
	}
}

// TestCtlChangePoint checks that the goroutine holding the run at a
// change point drops below every other: of g (9000) and h (100), h runs
// first once g, at step 1, is lowered.
func TestCtlChangePoint(t *testing.T) {
	ctlTest(t, 2, []int64{1}) // the first step is lowered
	g, h := newG(2, 2), newG(3, 3)
	g.cg.prio, h.cg.prio = 9000, 100
	ctl.holder.Store(g)
	ran := make(chan uint64, 2)
	var wg sync.WaitGroup
	wg.Go(func() {
		h.ctlHook() // not holding the run: no step
		ran <- 100
		h.ctlRelease()
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		ctl.mu.Lock()
		n := len(ctl.ready)
		ctl.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("h never got ready")
		}
	}
	wg.Go(func() {
		g.ctlHook() // step 1: lowered to 1, and h is chosen
		ran <- 9000
		g.ctlRelease()
	})
	wg.Wait()
	if g.cg.prio != 1 {
		t.Errorf("priority after the change point %d, want 1", g.cg.prio)
	}
	if a, b := <-ran, <-ran; a != 100 || b != 9000 {
		t.Errorf("ran %d then %d, want the lowered 9000 last", a, b)
	}
}

// TestCtlStall checks that a holder that never comes back to a hook (a
// goroutine blocked where divergo cannot see) holds the others for about
// the patience, not for ever.
func TestCtlStall(t *testing.T) {
	ctlTest(t, 1, nil) // main never gives the run up
	g := newG(2, 2)
	g.cg.prio = 10
	t0 := time.Now()
	done := make(chan struct{})
	go func() {
		g.ctlHook()
		g.ctlRelease()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting goroutine never got the run")
	}
	if took := time.Since(t0); took < ctlPatience {
		t.Errorf("took the run after %v, before the patience %v", took, ctlPatience)
	}
}

// TestCtlLockOrder checks that which waiter an unlock lets in is the
// scheduler's: of two goroutines waiting for a held mutex, the one of
// higher priority takes it first, whichever began to wait first.
func TestCtlLockOrder(t *testing.T) {
	for _, prios := range [][2]uint64{{100, 200}, {200, 100}} {
		main := ctlTest(t, 1, nil)
		var mu sync.Mutex
		mu.Lock()
		var (
			omu   sync.Mutex
			order []uint64
			wg    sync.WaitGroup
		)
		for i, p := range prios {
			g := newG(uint64(i+2), uint64(i+2))
			g.cg.prio = p
			wg.Go(func() {
				g.ctlHook()
				if !mu.TryLock() {
					g.ctlRelease()
					g.ctlLockWait(mu.TryLock, mu.Lock, addr(&mu))
					g.ctlResume()
				}
				omu.Lock()
				order = append(order, p)
				omu.Unlock()
				mu.Unlock()
				ctlUnlocked(g, addr(&mu))
				g.ctlRelease()
			})
			for { // the first parks before the second starts
				ctl.mu.Lock()
				n := len(ctl.parked) + len(ctl.ready)
				ctl.mu.Unlock()
				if n == i+1 {
					break
				}
				main.ctlRelease() // let it run to its lock
				time.Sleep(time.Millisecond)
			}
		}
		ctl.holder.Store(main)
		mu.Unlock()
		ctlUnlocked(main, addr(&mu))
		main.ctlRelease()
		wg.Wait()
		if order[0] != 200 {
			t.Errorf("priorities %v: took the lock in order %v, want 200 first", prios, order)
		}
	}
}

// TestDeadLock checks which locks the scheduler takes for never released:
// held by the waiter itself, by a goroutine that ended, or by one parked
// on a lock only the waiter can release; not one held by a goroutine that
// may yet release it.
func TestDeadLock(t *testing.T) {
	ctlTest(t, 1, nil)
	g, h, done := newG(2, 2), newG(3, 3), newG(4, 4)
	done.cg.ended = true
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	ctlOwnedLocked(g, 10)
	ctlOwnedLocked(done, 11)
	ctlOwnedLocked(h, 12)
	ctlOwnedLocked(g, 13)
	for _, c := range []struct {
		obj   uint64
		hWait uint64
		dead  bool
	}{
		{10, 0, true},  // g's own
		{11, 0, true},  // an ended goroutine's
		{12, 0, false}, // h runs: it may release it
		{12, 13, true}, // h waits for g's 13: a cycle
		{14, 0, false}, // nobody holds it
	} {
		h.cg.waitObj = c.hWait
		if got := deadLockLocked(g, c.obj); got != c.dead {
			t.Errorf("lock %d, h waiting on %d: dead %v, want %v", c.obj, c.hWait, got, c.dead)
		}
	}
	ctlDisownLocked(g, 10)
	if deadLockLocked(g, 10) {
		t.Error("a lock g released is still dead")
	}
}
