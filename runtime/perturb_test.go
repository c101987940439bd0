package runtime

import (
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

func decisions(state uint64, n int) []action {
	out := make([]action, n)
	for i := range out {
		out[i] = decide(&state)
	}
	return out
}

// TestDecidePure checks that a goroutine's decisions are a function of the
// seed and its spawn identity only, and that they do vary with both.
func TestDecidePure(t *testing.T) {
	root := rootIdent(7)
	tests := []struct {
		name string
		a, b uint64
		same bool
	}{
		{"same seed", rootIdent(7), rootIdent(7), true},
		{"same child", childIdent(root, 3, 1), childIdent(root, 3, 1), true},
		{"other seed", rootIdent(7), rootIdent(8), false},
		{"other ordinal", childIdent(root, 3, 1), childIdent(root, 3, 2), false},
		{"other site", childIdent(root, 3, 1), childIdent(root, 4, 1), false},
		{"other parent", childIdent(root, 3, 1), childIdent(rootIdent(8), 3, 1), false},
		{"child and parent", childIdent(root, 3, 1), root, false},
	}
	for _, tt := range tests {
		a, b := decisions(tt.a, 64), decisions(tt.b, 64)
		if got := reflect.DeepEqual(a, b); got != tt.same {
			t.Errorf("%s: sequences equal = %v, want %v", tt.name, got, tt.same)
		}
	}
	// Every kind of decision is drawn, and sleeps stay within bounds.
	var none, yields, sleeps int
	for _, a := range decisions(root, 1000) {
		switch {
		case a.sleep > 0:
			sleeps++
			if a.sleep > maxPerturbSleep {
				t.Errorf("sleep %v beyond %v", a.sleep, maxPerturbSleep)
			}
		case a.yield:
			yields++
		default:
			none++
		}
	}
	if none < 400 || yields < 150 || sleeps < 150 {
		t.Errorf("1000 decisions: %d none, %d yields, %d sleeps; want about 500, 250, 250", none, yields, sleeps)
	}
}

func TestReadPerturb(t *testing.T) {
	for _, tt := range []struct {
		env  string
		on   bool
		seed int64
	}{{"", false, 0}, {"42", true, 42}, {"-3", true, -3}, {"x1", false, 0}} {
		t.Setenv("DIVERGO_PERTURB", tt.env)
		readPerturb()
		if seed, on := PerturbSeed(); on != tt.on || seed != tt.seed {
			t.Errorf("DIVERGO_PERTURB=%q: seed %d on %v, want %d %v", tt.env, seed, on, tt.seed, tt.on)
		}
	}
	t.Setenv("DIVERGO_PERTURB", "")
	readPerturb()
}

// TestPerturbIdentity checks that recorders get the identity of their spawn
// path, whatever their goroutine and recorder ids.
func TestPerturbIdentity(t *testing.T) {
	startSession(t)
	t.Setenv("DIVERGO_PERTURB", "5")
	t.Cleanup(readPerturb)
	g := Main(testGraphJSON(t), bMain)
	if g.ident != rootIdent(5) {
		t.Fatalf("main's identity %x, want %x", g.ident, rootIdent(5))
	}
	var wg sync.WaitGroup
	idents := make([]uint64, 3)
	grand := make([]uint64, 3)
	for i := range idents {
		c := g.Spawn(bSpawn)
		wg.Add(1)
		go func() {
			defer wg.Done()
			cg := c.Start()
			defer c.Done()
			idents[i] = cg.ident
			gc := cg.Spawn(bWorkerL)
			done := make(chan struct{})
			go func() {
				defer close(done)
				ggc := gc.Start()
				defer gc.Done()
				grand[i] = ggc.ident
			}()
			<-done
		}()
	}
	wg.Wait()
	g.Exit(bMain)
	for i := range idents {
		want := childIdent(rootIdent(5), bSpawn, uint32(i+1))
		if idents[i] != want {
			t.Errorf("child %d: identity %x, want %x", i+1, idents[i], want)
		}
		if w := childIdent(want, bWorkerL, 1); grand[i] != w {
			t.Errorf("grandchild of %d: identity %x, want %x", i+1, grand[i], w)
		}
	}
}

// lockOrder runs a Figure 1a-like race under seed: two goroutines take one
// lock; it returns which took it first.
func lockOrder(t *testing.T, seed int) string {
	t.Setenv("DIVERGO_PERTURB", strconv.Itoa(seed))
	first, _ := lockRace(t)
	return first
}

// lockRace runs the race of lockOrder under the environment set, in a
// session of its own; it returns which goroutine took the lock first and
// the trace's path.
func lockRace(t *testing.T) (string, string) {
	resetSession()
	path := t.TempDir() + "/t.dvt"
	t.Setenv("DIVERGO_TRACE", path)
	g := Main(testGraphJSON(t), bMain)
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		order []string
	)
	// ended: each goroutine's Done has returned, so that the next seed's
	// session does not start while this one's goroutines still
	// unregister (the race detector saw Main's new session and a Done of
	// the last one touch sess.live together).
	var ended sync.WaitGroup
	for _, name := range []string{"a", "b"} {
		c := g.Spawn(bSpawn)
		g.WGAdd(bSpawn, &wg, 1)
		ended.Add(1)
		go func() {
			defer ended.Done()
			cg := c.Start()
			defer c.Done()
			cg.Lock(bWorker, &mu)
			order = append(order, name)
			cg.Unlock(bWorker, &mu)
			cg.WGDone(bWorker, &wg)
		}()
	}
	g.WGWait(bDone, &wg)
	ended.Wait()
	g.Exit(bMain)
	return order[0], path
}

// TestPerturbInterleavings checks that different seeds really explore
// different interleavings: over a few seeds, each goroutine of the race
// wins the lock at least once.
func TestPerturbInterleavings(t *testing.T) {
	t.Cleanup(resetSession)
	t.Cleanup(readPerturb)
	seen := map[string][]int{}
	for seed := 1; seed <= 40 && len(seen) < 2; seed++ {
		first := lockOrder(t, seed)
		seen[first] = append(seen[first], seed)
	}
	if len(seen) < 2 {
		t.Fatalf("40 seeds, one lock order only: %v", seen)
	}
	t.Logf("first to lock, by seed: %v", seen)
}

// TestPerturbRecorded checks that a perturbed run records the seed in the
// trace's header and each delay as a perturb event, so that readers give
// its time to divergo rather than to the blocks around it.
func TestPerturbRecorded(t *testing.T) {
	path := startSession(t)
	t.Cleanup(readPerturb)
	t.Setenv("DIVERGO_PERTURB", "7")
	g := Main(testGraphJSON(t), bMain)
	var mu sync.Mutex
	for range 200 {
		g.Lock(bWorker, &mu)
		g.Unlock(bWorker, &mu)
	}
	g.Exit(bMain)
	r, gs := readTrace(t, path)
	if seed, ok := r.Perturbed(); seed != 7 || !ok {
		t.Errorf("header says perturbed %v with seed %d, want seed 7", ok, seed)
	}
	n := 0
	for _, e := range gs["main"].events {
		if e.Kind == trace.EvPerturb {
			n++
			if e.End < e.Begin {
				t.Errorf("perturb event ends before it begins: %+v", e)
			}
		}
	}
	// Half of the 200 decisions delay: a yield or a sleep.
	if n < 50 || n > 150 {
		t.Errorf("%d perturb events in 200 locks, want about 100", n)
	}
}

// TestDelay checks that a perturbation's delay lasts about what was drawn,
// not the timer granularity of a parked goroutine.
func TestDelay(t *testing.T) {
	best := time.Hour
	for range 20 {
		t0 := time.Now()
		delay(20 * time.Microsecond)
		best = min(best, time.Since(t0))
	}
	if best < 20*time.Microsecond || best > 500*time.Microsecond {
		t.Errorf("delay(20µs) took %v at best, want 20 to 500 µs", best)
	}
}
