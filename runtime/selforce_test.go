package runtime

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// choose is a select as the instrumenter writes it, of a receive from a,
// a receive from b, a send on out and a default; it returns the clause
// taken (from 0) and what a receive got. The channels go both ways, as
// most do: the stand-in must have the operand's type, not SelRecv's.
func choose(g *G, a, b chan int, out chan int) (clause, v int, ok bool) {
	t := g.SelectBegin(bWorker)
	if g.Forcing() {
		g.SelectForce(SelRecv(a), SelRecv(b), SelSend(out, 7), SelDefault())
	}
	select {
	case v, ok := <-Case(g, 0, a):
		SelectEndOn(g, bWorker, t, a, false, 0)
		return 0, v, ok
	case v, ok = <-Case(g, 1, b):
		SelectEndOn(g, bWorker, t, b, false, 1)
		return 1, v, ok
	case Case(g, 2, out) <- 7:
		SelectEndOn(g, bWorker, t, out, true, 2)
		return 2, 0, false
	default:
		g.SelectEnd(bWorker, t, 3)
		return 3, 0, false
	}
}

// rounds runs n selects of choose, every case ready but in every fifth
// round, where none is, and returns the clauses taken.
func rounds(g *G, n int) []int {
	a, b, out := make(chan int, 1), make(chan int, 1), make(chan int, 1)
	var taken []int
	for i := range n {
		for len(a) > 0 {
			<-a
		}
		for len(b) > 0 {
			<-b
		}
		for len(out) > 0 {
			<-out
		}
		if i%5 == 4 {
			out <- 0
		} else {
			a <- 1
			b <- 2
		}
		c, _, _ := choose(g, a, b, out)
		taken = append(taken, c)
	}
	return taken
}

// TestSelectForced records a run's selects among ready cases, makes the
// schedule of its trace, and replays it: every select takes the clause
// the recorded run took (at random among three ready cases), and records
// it again.
func TestSelectForced(t *testing.T) {
	path := replaySession(t)
	const n = 40
	g := Main(testGraphJSON(t), bMain)
	recorded := rounds(g, n)
	g.Exit(bMain)
	seen := map[int]bool{}
	for _, c := range recorded {
		seen[c] = true
	}
	if len(seen) < 3 {
		// Three ready cases 32 times, and the default: Go's select took the same case every time.
		t.Fatalf("the recorded run took clauses %v: nothing to force", recorded)
	}
	sched := filepath.Join(t.TempDir(), "s")
	s := writeSchedule(t, path, "", sched)
	cases := 0
	for _, tu := range s.Turns {
		if tu.Case != 0 {
			cases++
		}
	}
	if cases != n {
		t.Fatalf("the schedule has %d select clauses, want %d", cases, n)
	}

	path = startSession(t)
	t.Setenv("DIVERGO_REPLAY", sched)
	g = Main(testGraphJSON(t), bMain)
	replayed := rounds(g, n)
	g.Exit(bMain)
	if !slices.Equal(replayed, recorded) {
		t.Errorf("replayed clauses %v, recorded %v", replayed, recorded)
	}
	_, gs := readTrace(t, path)
	var again []int
	for _, e := range gs["main"].events {
		if e.Kind == trace.EvSync && e.Op == trace.OpSelect {
			again = append(again, int(e.Case)-1)
		}
	}
	if !slices.Equal(again, recorded) {
		t.Errorf("the replay recorded clauses %v, want %v", again, recorded)
	}
}

// TestSelectForcedNeverReady forces a clause whose channel is never ready:
// the select waits the patience, then takes what is ready, as the select
// would have. A forced receive from a closed channel gets what the select
// would have got: zero, not ok.
func TestSelectForcedNeverReady(t *testing.T) {
	replaySession(t)
	file := filepath.Join(t.TempDir(), "s")
	if err := os.WriteFile(file, []byte("divergo schedule 2\nmain\nturns\n1 0 1\n1 1 1\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DIVERGO_REPLAY", file)
	g := Main(testGraphJSON(t), bMain)
	a, b, out := make(chan int), make(chan int, 1), make(chan int)
	b <- 5
	t0 := time.Now()
	c, v, ok := choose(g, a, b, out)
	took := time.Since(t0)
	if c != 1 || v != 5 || !ok {
		t.Errorf("clause %d got %d, %t; want clause 1 got 5", c, v, ok)
	}
	if took < replayPatience || took > 20*replayPatience {
		t.Errorf("the select fell back after %v, want about %v", took, replayPatience)
	}
	close(a)
	b <- 6
	if c, v, ok := choose(g, a, b, out); c != 0 || v != 0 || ok {
		t.Errorf("forced on a closed channel: clause %d got %d, %t; want clause 0 got 0, false", c, v, ok)
	}
	if len(b) != 1 {
		t.Error("the forced select received from another case's channel")
	}
	g.Exit(bMain)
}

// TestAwaitCaseWhileTurnsMove: a forced case waits past the patience while
// turns are taken (the run goes on and may yet make it ready), and gives
// up one patience after they stop.
func TestAwaitCaseWhileTurnsMove(t *testing.T) {
	saved := replay.owner
	replay.owner = make([]int32, 1<<20)
	replay.next.Store(0)
	t.Cleanup(func() { replay.owner = saved; replay.next.Store(0) })
	const patience = 100 * time.Millisecond
	ch := make(chan int)
	go func() {
		for range 20 { // twice the patience of turns, each well within it
			time.Sleep(patience / 10)
			replay.next.Add(1)
		}
		ch <- 9
	}()
	recv, ok, took := awaitCase(SelRecv(ch), patience)
	if !took || !ok || recv.Int() != 9 {
		t.Fatalf("got %v, %t, taken %t: want 9 once the turns brought it", recv, ok, took)
	}
	t0 := time.Now()
	if _, _, took := awaitCase(SelRecv(ch), patience); took {
		t.Fatal("a case never ready was taken")
	}
	if d := time.Since(t0); d < patience {
		t.Errorf("gave up after %v, before the patience %v", d, patience)
	}
}
