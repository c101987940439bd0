package runtime

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// takeTurns runs one goroutine per slice of turns, each taking its turns
// in order, and returns the order the turns were taken in.
func takeTurns(t *testing.T, turns [][]int64, patience time.Duration) []int64 {
	t.Helper()
	replay.next.Store(0)
	replay.skips.Store(0)
	var (
		mu    sync.Mutex
		order []int64
		wg    sync.WaitGroup
	)
	for _, mine := range turns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, pos := range mine {
				awaitTurn(pos, patience)
				mu.Lock()
				order = append(order, pos)
				mu.Unlock()
				takeTurn(pos)
			}
		}()
	}
	wg.Wait()
	return order
}

// TestTurnsInOrder checks that goroutines take their turns in the order of
// the turns, whatever the order the scheduler runs them in.
func TestTurnsInOrder(t *testing.T) {
	const gs, each = 4, 50
	turns := make([][]int64, gs)
	for pos := range int64(gs * each) {
		g := (pos*7 + pos/3) % gs // not round robin: runs of one goroutine too
		turns[g] = append(turns[g], pos)
	}
	order := takeTurns(t, turns, time.Minute)
	for i, pos := range order {
		if pos != int64(i) {
			t.Fatalf("turn %d taken %d-th: %v", pos, i, order)
		}
	}
}

// TestTurnsMissing checks that turns no goroutine takes stall the others
// only for the patience: the goroutine waiting gives up, and those that
// remain keep their order.
func TestTurnsMissing(t *testing.T) {
	turns := [][]int64{{0, 3, 6, 9}, {1, 4, 10}, {2, 8, 11}} // 5 and 7 never come
	t0 := time.Now()
	// A patience far above the time a loaded machine leaves a thread
	// unscheduled: the order checked is the waiting goroutines'.
	order := takeTurns(t, turns, 500*time.Millisecond)
	took := time.Since(t0)
	if len(order) != 10 {
		t.Fatalf("%d turns taken, want 10: %v", len(order), order)
	}
	// 6 waits for 5 and skips it; 8 waits for 7 and skips it.
	if want := []int64{0, 1, 2, 3, 4, 6, 8, 9, 10, 11}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	if took > 10*time.Second {
		t.Errorf("two missing turns held the others %v", took)
	}
}

// TestTurnsLate checks that a goroutine whose turn was skipped (another
// gave up waiting for it) proceeds at once when it comes.
func TestTurnsLate(t *testing.T) {
	replay.next.Store(5)
	t0 := time.Now()
	awaitTurn(2, time.Minute)
	takeTurn(2)
	if got := replay.next.Load(); got != 5 {
		t.Errorf("a late turn moved the counter back to %d", got)
	}
	if took := time.Since(t0); took > time.Second {
		t.Errorf("a skipped turn waited %v", took)
	}
}

// TestReplayLockOrder records the two goroutines of lockRace under seeds
// until the one that takes the lock first in most plain runs comes second,
// then replays that run's schedule unperturbed: the other must take the
// lock first every time.
func TestReplayLockOrder(t *testing.T) {
	t.Cleanup(resetSession)
	t.Cleanup(func() {
		os.Unsetenv("DIVERGO_REPLAY")
		os.Unsetenv("DIVERGO_PERTURB")
		readReplay(false)
		readPerturb()
	})
	firsts := func() map[string]int {
		n := map[string]int{}
		for range 10 {
			first, _ := lockRace(t)
			n[first]++
		}
		return n
	}
	t.Setenv("DIVERGO_PERTURB", "")
	plain := firsts()
	rare := "a"
	if plain["a"] > plain["b"] {
		rare = "b"
	}
	var path string
	for seed := 1; seed <= 60 && path == ""; seed++ {
		t.Setenv("DIVERGO_PERTURB", strconv.Itoa(seed))
		if first, p := lockRace(t); first == rare {
			path = p
		}
	}
	if path == "" {
		t.Fatalf("in 60 seeds %s never took the lock first", rare)
	}
	sched := filepath.Join(t.TempDir(), "fail.sched")
	writeSchedule(t, path, "", sched)
	t.Setenv("DIVERGO_PERTURB", "")
	t.Setenv("DIVERGO_REPLAY", sched)
	replayed := firsts()
	t.Logf("%s first in %d of 10 plain runs, %d of 10 replayed", rare, plain[rare], replayed[rare])
	if replayed[rare] < 10 {
		t.Errorf("the replayed order came back in %d of 10 runs", replayed[rare])
	}
}

// writeSchedule writes the schedule of test (or main's) from the trace at
// path to out.
func writeSchedule(t *testing.T, path, test, out string) *trace.Schedule {
	t.Helper()
	r, err := trace.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := r.Schedule(test)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return s
}

// replaySession starts a recording session, as startSession does, whose
// replay (DIVERGO_REPLAY, read when the recording starts) ends with the
// test.
func replaySession(t *testing.T) string {
	t.Helper()
	path := startSession(t)
	t.Cleanup(func() {
		os.Unsetenv("DIVERGO_REPLAY")
		readReplay(false)
	})
	return path
}

// TestHookPassesCounted checks that the schedule of a trace counts the
// hook passes of each goroutine as the runtime does, for every wrapper:
// a replay keys turns by that count.
func TestHookPassesCounted(t *testing.T) {
	path := replaySession(t)
	// A schedule of no turns: the hook counts every pass, and none waits.
	empty := filepath.Join(t.TempDir(), "empty.sched")
	if err := os.WriteFile(empty, []byte("divergo schedule 1\nmain\nturns\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DIVERGO_REPLAY", empty)
	g := Main(testGraphJSON(t), bMain)
	var (
		mu   sync.Mutex
		rw   sync.RWMutex
		wg   sync.WaitGroup
		once sync.Once
		stop atomic.Bool
	)
	cond := sync.NewCond(&mu)
	go func() { // uninstrumented: wakes the cond.Wait below
		for !stop.Load() {
			mu.Lock()
			cond.Signal()
			mu.Unlock()
			time.Sleep(100 * time.Microsecond)
		}
	}()
	var childPasses uint32
	ended := goWorker(g, func(w *G) {
		ch := make(chan int, 1)
		Send(w, bWorkerL, ch, 1)
		Recv(w, bWorkerL, ch)
		childPasses = w.passes
	})
	<-ended
	ch := make(chan int, 2)
	before := g.passes
	Send(g, bWorker, ch, 1)
	Send(g, bWorker, ch, 2)
	Recv(g, bWorker, ch)
	_, _ = Recv2(g, bWorker, ch)
	g.Lock(bWorker, &mu)
	g.Unlock(bWorker, &mu)
	g.TryLock(bWorker, &mu)
	g.Unlock(bWorker, &mu)
	g.RWLock(bWorker, &rw)
	g.RWUnlock(bWorker, &rw)
	g.RLock(bWorker, &rw)
	g.RUnlock(bWorker, &rw)
	g.WGAdd(bWorker, &wg, 1)
	g.WGDone(bWorker, &wg)
	g.WGWait(bWorker, &wg)
	g.Lock(bWorker, &mu)
	g.CondWait(bWorker, cond)
	g.Unlock(bWorker, &mu)
	stop.Store(true)
	g.CondSignal(bWorker, cond)
	g.CondBroadcast(bWorker, cond)
	g.OnceDo(bWorker, &once, func() {})
	g.Sleep(bWorker, time.Microsecond)
	g.SelectEnd(bWorker, g.SelectBegin(bWorker), 0)
	Close(g, bWorker, ch)
	mainPasses := g.passes
	g.Exit(bMain)
	if mainPasses-before != 18 {
		t.Errorf("the wrappers passed the hook %d times, want 18", mainPasses-before)
	}

	s := writeSchedule(t, path, "", filepath.Join(t.TempDir(), "s"))
	per := map[int]uint32{}
	for _, tu := range s.Turns {
		if tu.K != per[tu.G] {
			t.Errorf("goroutine %d: turn %d, want %d", tu.G, tu.K, per[tu.G])
		}
		per[tu.G]++
	}
	if len(s.Gs) != 2 || s.Gs[0].Parent != 0 || s.Gs[1].Parent != 1 || s.Gs[1].Site != bSpawn || s.Gs[1].Ordinal != 1 {
		t.Fatalf("goroutines %+v, want main and its child at site %d", s.Gs, bSpawn)
	}
	if per[0] != mainPasses || per[1] != childPasses {
		t.Errorf("schedule counts %d and %d passes, the runtime %d and %d", per[0], per[1], mainPasses, childPasses)
	}
}

// TestScheduleFile checks that a schedule reads back as written, and that
// a file that is not one is refused in a line.
func TestScheduleFile(t *testing.T) {
	s := &trace.Schedule{
		Gs:    []trace.SchedG{{Test: "TestX/sub case"}, {Parent: 1, Site: 4, Ordinal: 2}, {}},
		Turns: []trace.Turn{{G: 1, K: 0}, {G: 0, K: 0}, {G: 2, K: 0}, {G: 1, K: 1}},
	}
	var b bytes.Buffer
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	got, err := trace.ParseSchedule(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Gs, s.Gs) || !slices.Equal(got.Turns, s.Turns) {
		t.Errorf("read back %+v, want %+v", got, s)
	}
	turns, _ := replayTurns(got, 9)
	child := childIdent(testIdent(9, "TestX/sub case"), 4, 2)
	if turns[turnKey{child, 1}] != 3 || turns[turnKey{rootIdent(9), 0}] != 2 {
		t.Errorf("turns by identity %v", turns)
	}
	for _, bad := range []string{"", "divergo schedule 1\n", "divergo schedule 1\ngo 1 2 3\nturns\n", "divergo schedule 1\nmain\nturns\n2 0\n", "x"} {
		if _, err := trace.ParseSchedule([]byte(bad)); err == nil {
			t.Errorf("%q read as a schedule", bad)
		}
	}
}

// TestReplayMissingGoroutine replays a schedule whose first turns are of a
// goroutine this run never starts, interleaved with main's: main waits
// for them one patience in all, not one each.
func TestReplayMissingGoroutine(t *testing.T) {
	path := replaySession(t)
	sched := "divergo schedule 1\nmain\ngo 1 99 1\nturns\n"
	for k := range 20 {
		sched += "2 " + strconv.Itoa(k) + "\n"
		if k == 9 {
			sched += "1 0\n"
		}
	}
	sched += "1 1\n"
	file := filepath.Join(t.TempDir(), "s")
	if err := os.WriteFile(file, []byte(sched), 0o666); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DIVERGO_REPLAY", file)
	g := Main(testGraphJSON(t), bMain)
	var mu sync.Mutex
	t0 := time.Now()
	g.Lock(bWorker, &mu)
	g.Unlock(bWorker, &mu)
	g.Lock(bWorker, &mu)
	g.Unlock(bWorker, &mu)
	took := time.Since(t0)
	g.Exit(bMain)
	// One skip, then the missing goroutine's other turns at once.
	if limit := replayPatience * 3; took > limit {
		t.Errorf("20 missing turns held main %v, more than %v", took, limit)
	}
	if took < replayPatience {
		t.Errorf("main went on after %v: it did not wait for the missing turns", took)
	}
	_, gs := readTrace(t, path)
	n := 0
	for _, e := range gs["main"].events {
		if e.Kind == trace.EvPerturb {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d waits recorded, want 2 (a lock's for each run of missing turns)", n)
	}
}

// TestWGCounter checks wgCounter against the WaitGroup's own count: it
// reads sync.WaitGroup's state word, which a Go release may lay out anew.
func TestWGCounter(t *testing.T) {
	var wg sync.WaitGroup
	for _, c := range []struct{ add, want int32 }{{0, 0}, {3, 3}, {-1, 2}, {-2, 0}} {
		wg.Add(int(c.add))
		if got := wgCounter(&wg); got != c.want {
			t.Fatalf("after Add(%d): counter %d, want %d", c.add, got, c.want)
		}
	}
}

// TestAwaitEnd checks that a pass after the schedule's end waits for the
// last turn, gives up when the counter stands still for the patience,
// and then goes at once until the counter moves.
func TestAwaitEnd(t *testing.T) {
	owner, next := replay.owner, replay.next.Load()
	t.Cleanup(func() {
		replay.owner = owner
		replay.next.Store(next)
		replay.stuck.Store(0)
	})
	replay.owner = make([]int32, 3)
	replay.stuck.Store(0)
	replay.next.Store(1)
	go func() {
		time.Sleep(20 * time.Millisecond)
		takeTurn(1)
		takeTurn(2)
	}()
	t0 := time.Now()
	awaitEnd(time.Minute)
	if took, got := time.Since(t0), replay.next.Load(); got != 3 || took < 10*time.Millisecond {
		t.Errorf("awaitEnd returned after %v with the counter at %d, want after the last turn, 3", took, got)
	}
	replay.next.Store(1)
	t0 = time.Now()
	awaitEnd(30 * time.Millisecond)
	if took := time.Since(t0); took < 30*time.Millisecond || took > 10*time.Second {
		t.Errorf("a counter standing still held awaitEnd %v, want the patience", took)
	}
	t0 = time.Now()
	awaitEnd(time.Minute)
	if took := time.Since(t0); took > 10*time.Second {
		t.Errorf("after one gave up, awaitEnd waited %v", took)
	}
	if got := replay.next.Load(); got != 1 {
		t.Errorf("awaitEnd moved the counter to %d", got)
	}
}
