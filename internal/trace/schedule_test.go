package trace

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestScheduleOrder builds the schedule of a constructed trace: main's
// goroutines, parents before children, the orphan left out; each
// goroutine's hook passes counted as the runtime counts them (a child's
// start first, releases of locks and sleeps not at all); the turns in the
// order their operations began (Begin for a wait, End otherwise), a tie
// keeping goroutine and pass order; a select's turn with the clause it
// chose.
func TestScheduleOrder(t *testing.T) {
	sync := func(op Op, begin, end int64) Event {
		return Event{Kind: EvSync, Op: op, Site: 3, Block: 0, Waited: begin != 0, Begin: begin, End: end}
	}
	gs := []GoroutineEvents{
		{ID: 1, Start: 0, End: 50, Events: []Event{
			sync(OpLock, 0, 2), sync(OpUnlock, 0, 3), sync(OpRecv, 4, 40), sync(OpSleep, 41, 45), sync(OpClose, 0, 46),
		}},
		{ID: 2, Parent: 1, Site: 1, Ordinal: 1, Start: 5, End: 31, Events: []Event{
			{Kind: EvSync, Op: OpSelect, Site: 3, Case: 2, End: 7}, sync(OpLock, 8, 30),
		}},
		{ID: 3, Parent: 2, Site: 1, Ordinal: 1, Start: 9, End: 10, Events: []Event{
			sync(OpWGDone, 0, 9),
		}},
		{ID: 4, Start: 0, End: 2, Events: []Event{sync(OpLock, 0, 1)}}, // an orphan
	}
	path := filepath.Join(t.TempDir(), "t.dvt")
	if err := WriteFile(path, testGraph(t), gs); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := r.Schedule("")
	if err != nil {
		t.Fatal(err)
	}
	wantGs := []SchedG{{}, {Parent: 1, Site: 1, Ordinal: 1}, {Parent: 2, Site: 1, Ordinal: 1}}
	if !slices.Equal(s.Gs, wantGs) {
		t.Errorf("goroutines %+v, want %+v", s.Gs, wantGs)
	}
	wantTurns := []Turn{
		{G: 0, K: 0},          // main's lock at 2
		{G: 0, K: 1},          // main's receive, waiting from 4
		{G: 1, K: 0},          // the child's start at 5
		{G: 1, K: 1, Case: 2}, // its select at 7, of its second clause
		{G: 1, K: 2},          // its lock, waiting from 8
		{G: 2, K: 0},          // the grandchild's start at 9
		{G: 2, K: 1},          // its wg.Done at 9
		{G: 0, K: 2},          // main's close at 46 (its unlock and sleep have no hook)
	}
	if !slices.Equal(s.Turns, wantTurns) {
		t.Errorf("turns %v, want %v", s.Turns, wantTurns)
	}
	if _, err := r.Schedule("TestNone"); err == nil {
		t.Error("the schedule of a test not in the trace was made")
	}
}

// TestScheduleText: a schedule reads back as written, a select's clause
// included; a version 1 file (no clauses) still reads; a clause out of
// range does not.
func TestScheduleText(t *testing.T) {
	s := &Schedule{
		Gs:    []SchedG{{Test: "TestX"}, {Parent: 1, Site: 4, Ordinal: 2}},
		Turns: []Turn{{G: 0, K: 0}, {G: 1, K: 0}, {G: 1, K: 1, Case: 3}, {G: 0, K: 1}},
	}
	var b strings.Builder
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	got, err := ParseSchedule([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Gs, s.Gs) || !slices.Equal(got.Turns, s.Turns) {
		t.Errorf("read back %+v, want %+v\n%s", got, s, b.String())
	}
	v1 := "divergo schedule 1\nmain\nturns\n1 0\n1 1\n"
	if got, err := ParseSchedule([]byte(v1)); err != nil || len(got.Turns) != 2 || got.Turns[1] != (Turn{G: 0, K: 1}) {
		t.Errorf("version 1: %+v, %v", got, err)
	}
	for _, bad := range []string{"1 0 0", "1 0 32", "1 0 2 1", "1 0 x"} {
		if _, err := ParseSchedule([]byte("divergo schedule 2\nmain\nturns\n" + bad + "\n")); err == nil {
			t.Errorf("turn %q read without error", bad)
		}
	}
}

// TestScheduleOnceRunner: a Once's runner records its event after the
// function it ran, with only that end; its turn is the time it took the
// Once, the clock the runtime writes as the function starts, so that a
// goroutine that waited for the function does not come first (and run it
// in the replay). One that found the function run keeps its end, a clock
// before it notwithstanding.
func TestScheduleOnceRunner(t *testing.T) {
	gs := []GoroutineEvents{
		{ID: 1, Start: 0, End: 200, Events: []Event{
			{Kind: EvSync, Op: OpLock, Site: 3, End: 2},
		}},
		{ID: 2, Parent: 1, Site: 1, Ordinal: 1, Start: 5, End: 120, Events: []Event{
			{Kind: EvClock, Time: 10}, // the runner takes the Once
			{Kind: EvBlock, Block: 0},
			{Kind: EvClock, Time: 60},
			{Kind: EvSync, Op: OpOnce, Site: 3, End: 100},
			{Kind: EvOutcome, Value: 1},
		}},
		{ID: 3, Parent: 1, Site: 1, Ordinal: 2, Start: 6, End: 120, Events: []Event{
			{Kind: EvSync, Op: OpOnce, Site: 3, Waited: true, Begin: 20, End: 100},
			{Kind: EvOutcome, Value: 0},
		}},
		{ID: 4, Parent: 1, Site: 1, Ordinal: 3, Start: 7, End: 150, Events: []Event{
			{Kind: EvClock, Time: 8},
			{Kind: EvSync, Op: OpOnce, Site: 3, End: 140}, // found it run
			{Kind: EvOutcome, Value: 0},
		}},
	}
	path := filepath.Join(t.TempDir(), "t.dvt")
	if err := WriteFile(path, testGraph(t), gs); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := r.Schedule("")
	if err != nil {
		t.Fatal(err)
	}
	want := []Turn{
		{G: 0, K: 0}, // main's lock at 2
		{G: 1, K: 0}, // the runner's start at 5
		{G: 2, K: 0}, // the waiter's start at 6
		{G: 3, K: 0}, // the late one's start at 7
		{G: 1, K: 1}, // the runner's Do at 10, not 100
		{G: 2, K: 1}, // the waiter's Do, waiting from 20
		{G: 3, K: 1}, // the late one's Do at 140
	}
	if !slices.Equal(s.Turns, want) {
		t.Errorf("turns %v, want %v", s.Turns, want)
	}
}
