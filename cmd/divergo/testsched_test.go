package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/divergo/divergo/flaky"
)

// TestMakeRunsBudget: past -n, runs go on while no test failed, up to the
// budget, and stop once one failed; the count depends on the outcomes and
// -p only. Whether run k starts is decided, as its schedule is, from the
// runs taken in before it: all but the last p-1.
func TestMakeRunsBudget(t *testing.T) {
	for _, c := range []struct {
		failAt, par, want int // the first failing run (0: none)
	}{
		{0, 1, 30},  // nothing fails: the whole budget
		{3, 1, 10},  // failed within -n: -n runs
		{15, 1, 15}, // the first failure ends it
		{15, 2, 16}, // two at a time: one more had started
	} {
		start := func(k, s int) *testRun {
			rec := &runRecord{Run: k + 1, Strength: s, Tests: map[string]string{"TestX": "pass"}}
			if c.failAt > 0 && k+1 >= c.failAt {
				rec.Tests["TestX"] = "fail"
			}
			r := &testRun{rec: rec, done: make(chan error, 1)}
			r.done <- nil
			return r
		}
		plan, err := flaky.NewPlanMode(flaky.ModePCT)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := makeRuns(plan, 10, 30, c.par, func(int) bool { return true }, start, func(int) {})
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != c.want {
			t.Errorf("first failure at run %d, -p %d: %d runs, want %d", c.failAt, c.par, len(recs), c.want)
		}
	}
}

func TestCheckBudget(t *testing.T) {
	if err := checkBudget(5, 10, shard{1, 1}); err == nil {
		t.Error("-budget below -n: no error")
	}
	if err := checkBudget(20, 10, shard{1, 2}); err == nil {
		t.Error("-budget with -shard: no error")
	}
	if err := checkBudget(20, 10, shard{1, 1}); err != nil {
		t.Error(err)
	}
}

func TestCtlEnv(t *testing.T) {
	got := perturbEnv(7, flaky.Controlled(2), 0)
	if len(got) != 2 || got[0] != "DIVERGO_PERTURB=7" || got[1] != "DIVERGO_SCHED=pct:2" {
		t.Errorf("perturbEnv(7, depth 2) = %v", got)
	}
	got = perturbEnv(7, flaky.Walk, 0)
	if len(got) != 2 || got[0] != "DIVERGO_PERTURB=7" || got[1] != "DIVERGO_SCHED=walk" {
		t.Errorf("perturbEnv(7, walk) = %v", got)
	}
	got = perturbEnv(7, flaky.Sweep, 6)
	if len(got) != 2 || got[1] != "DIVERGO_SCHED=sweep:5" {
		t.Errorf("perturbEnv(7, the sweep's sixth run) = %v", got)
	}
}

func TestHoldLine(t *testing.T) {
	for _, c := range []struct {
		tries, fails int
		want         string
	}{
		{0, 0, ""},
		{3, 3, "the rerun failed again in 3 of 3 tries"},
		{3, 1, "the rerun failed again in 1 of 3 tries"},
		{3, 0, "the rerun cannot hold this failure: it passed in 3 of 3 tries"},
		{1, 0, "the rerun passed in 1 of 1 tries, the last longer than 30s"},
		{1, 1, "the rerun failed again in 1 of 1 tries"},
	} {
		got := holdLine(&flakyTest{RerunTries: c.tries, RerunFails: c.fails})
		if !strings.HasPrefix(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("%d of %d: %q, want %q", c.fails, c.tries, got, c.want)
		}
	}
	args := holdArgs("TestX/a.b", []string{"-test.timeout=3s", "-test.cpu=2"})
	if want := []string{"-test.run=^TestX/a\\.b$", "-test.count=1", "-test.timeout=3s", "-test.cpu=2"}; !slices.Equal(args, want) {
		t.Errorf("holdArgs = %q, want %q", args, want)
	}
}
