package trace

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestScheduleOrder builds the schedule of a constructed trace: main's
// goroutines, parents before children, the orphan left out; each
// goroutine's hook passes counted as the runtime counts them (a child's
// start first, releases of locks and sleeps not at all); the turns in the
// order their operations began (Begin for a wait, End otherwise), a tie
// keeping goroutine and pass order.
func TestScheduleOrder(t *testing.T) {
	sync := func(op Op, begin, end int64) Event {
		return Event{Kind: EvSync, Op: op, Site: 3, Block: 0, Waited: begin != 0, Begin: begin, End: end}
	}
	gs := []GoroutineEvents{
		{ID: 1, Start: 0, End: 50, Events: []Event{
			sync(OpLock, 0, 2), sync(OpUnlock, 0, 3), sync(OpRecv, 4, 40), sync(OpSleep, 41, 45), sync(OpClose, 0, 46),
		}},
		{ID: 2, Parent: 1, Site: 1, Ordinal: 1, Start: 5, End: 31, Events: []Event{
			sync(OpSend, 0, 7), sync(OpLock, 8, 30),
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
		{0, 0}, // main's lock at 2
		{0, 1}, // main's receive, waiting from 4
		{1, 0}, // the child's start at 5
		{1, 1}, // its send at 7
		{1, 2}, // its lock, waiting from 8
		{2, 0}, // the grandchild's start at 9
		{2, 1}, // its wg.Done at 9
		{0, 2}, // main's close at 46 (its unlock and sleep have no hook)
	}
	if !slices.Equal(s.Turns, wantTurns) {
		t.Errorf("turns %v, want %v", s.Turns, wantTurns)
	}
	if _, err := r.Schedule("TestNone"); err == nil {
		t.Error("the schedule of a test not in the trace was made")
	}
}
