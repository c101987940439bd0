package flaky

import (
	"slices"
	"testing"
)

// runMode runs n runs of a plan of mode whose test TestX fails as fails
// says at a schedule.
func runMode(t *testing.T, mode string, n int, fails func(s int) bool) (*Plan, []int) {
	t.Helper()
	p, err := NewPlanMode(mode)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for range n {
		s := p.Next()
		got = append(got, s)
		p.Record(s, map[string]bool{"TestX": fails(s)})
	}
	return p, got
}

// TestModeMixed: one run in four unperturbed, the others controlled at
// depth 2, by the sweep and the walk, at depth 3, and delayed at the
// default strength in turn.
func TestModeMixed(t *testing.T) {
	_, got := runMode(t, ModeMixed, 9, func(int) bool { return false })
	want := []int{Unperturbed, Controlled(2), Sweep, Walk, Unperturbed, Controlled(3), DefaultStrength, Controlled(2), Unperturbed}
	if !slices.Equal(got, want) {
		t.Errorf("schedules %v, want %v", got, want)
	}
}

// TestModePCT: controlled families only, no unperturbed run, no delays
// even when nothing fails.
func TestModePCT(t *testing.T) {
	_, got := runMode(t, ModePCT, 40, func(int) bool { return false })
	for _, s := range got {
		if !IsControlled(s) {
			t.Fatalf("schedules %v: %s in pct mode", got, ScheduleName(s))
		}
	}
}

// TestStopIdle: a family under which the test never fails, while it
// fails under another, is stopped after its runs; unperturbed runs go on,
// and the last family is never stopped.
func TestStopIdle(t *testing.T) {
	p, got := runMode(t, ModeMixed, 80, func(s int) bool { return s == Controlled(2) })
	stopped := p.Stopped()
	for _, s := range []int{Sweep, Walk, Controlled(3), DefaultStrength} {
		if !slices.Contains(stopped, s) {
			t.Errorf("stopped %v: %s never failed and was not stopped", stopped, ScheduleName(s))
		}
	}
	last := got[66:]
	if !slices.Contains(last, Unperturbed) || !slices.Contains(last, Controlled(2)) {
		t.Errorf("last schedules %v: want unperturbed and depth 2 only", last)
	}
	for _, s := range last {
		if s != Unperturbed && s != Controlled(2) {
			t.Errorf("last schedules %v: %s, which never failed, still runs", last, ScheduleName(s))
			break
		}
	}
	p, _ = runMode(t, ModePCT, 60, func(s int) bool { return false })
	if len(p.Stopped()) != 0 {
		t.Errorf("stopped %v though nothing failed anywhere", p.Stopped())
	}
}

func TestScheduleNames(t *testing.T) {
	for s, want := range map[int]string{0: "unperturbed", 50: "perturbed 50%", Controlled(2): "controlled depth 2", Walk: "controlled walk", Sweep: "controlled sweep"} {
		if got := ScheduleName(s); got != want {
			t.Errorf("ScheduleName(%d) = %q, want %q", s, got, want)
		}
	}
	if _, err := NewPlanMode("pos"); err == nil {
		t.Error("NewPlanMode(pos): no error")
	}
}

// TestOrdinal: each run's index among its schedule's runs, the sweep's
// run index.
func TestOrdinal(t *testing.T) {
	p, err := NewPlanMode(ModePCT)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	for range 20 {
		s := p.Next()
		if got := p.Ordinal(); got != seen[s] {
			t.Fatalf("%s: ordinal %d, want %d", ScheduleName(s), got, seen[s])
		}
		seen[s]++
		p.Record(s, map[string]bool{"TestX": false})
	}
	if seen[Sweep] < 4 {
		t.Errorf("20 runs gave the sweep %d", seen[Sweep])
	}
}
