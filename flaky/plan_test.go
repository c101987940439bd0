package flaky

import (
	"fmt"
	"slices"
	"testing"
)

// runPlan runs n runs of a plan whose test TestX fails as fails says at a
// strength; TestAlways fails in every run, unperturbed too.
func runPlan(n int, perturb bool, fails func(strength, run int) bool) (*Plan, []int) {
	p := NewPlan(perturb)
	var got []int
	for k := range n {
		s := p.Next()
		got = append(got, s)
		p.Record(s, map[string]bool{"TestX": fails(s, k), "TestAlways": true})
	}
	return p, got
}

// TestPlanWeaker: a test that fails in every perturbed run but passes
// unperturbed brings in weaker strengths, one a quarter of the other, and
// the rates say so; a test that fails everywhere brings in nothing.
func TestPlanWeaker(t *testing.T) {
	p, got := runPlan(40, true, func(s, _ int) bool { return s >= 10 })
	if got[0] != Unperturbed || got[1] != DefaultStrength || got[4] != Unperturbed {
		t.Errorf("first schedules %v, want unperturbed, then 50, one run in four unperturbed", got[:5])
	}
	for _, s := range []int{12, 3} {
		if !slices.Contains(got, s) {
			t.Errorf("schedules %v: no run at %d%%", got, s)
		}
	}
	if slices.Contains(got, MaxStrength) {
		t.Errorf("schedules %v: full strength, though tests failed", got)
	}
	runs := 0
	for _, r := range p.Rates("TestX") {
		runs += r.Runs
		wantFail := 0
		if r.Strength >= 10 {
			wantFail = r.Runs
		}
		if r.Failures != wantFail {
			t.Errorf("rate %s, want %d failures", r, wantFail)
		}
	}
	if runs != 40 {
		t.Errorf("rates of TestX add up to %d runs, want 40", runs)
	}
	_, only := runPlan(20, true, func(int, int) bool { return true })
	for _, s := range only {
		if s != Unperturbed && s != DefaultStrength {
			t.Errorf("schedules %v: a test failing everywhere brought in %d%%", only, s)
			break
		}
	}
}

// TestPlanStronger: when nothing fails, full strength joins; without
// perturbation every run is unperturbed.
func TestPlanStronger(t *testing.T) {
	p := NewPlan(true)
	var got []int
	for range 20 {
		s := p.Next()
		got = append(got, s)
		p.Record(s, map[string]bool{"TestX": false})
	}
	if !slices.Contains(got, MaxStrength) {
		t.Errorf("schedules %v: no full strength though nothing failed", got)
	}
	_, plain := runPlan(8, false, func(int, int) bool { return false })
	if fmt.Sprint(plain) != "[0 0 0 0 0 0 0 0]" {
		t.Errorf("-perturb=false: schedules %v", plain)
	}
}

// TestPlanNearer: a test that fails unperturbed now and then but never at
// the default strength brings in weaker strengths.
func TestPlanNearer(t *testing.T) {
	_, got := runPlan(40, true, func(s, k int) bool { return s == Unperturbed && k%8 == 0 })
	if !slices.Contains(got, 12) {
		t.Errorf("schedules %v: no run at 12%%", got)
	}
	if slices.Contains(got, MaxStrength) {
		t.Errorf("schedules %v: full strength, though the test failed", got)
	}
}
