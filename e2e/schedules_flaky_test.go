package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFlakySchedules: TestBatchDeadline (testdata/flaky) fails in every
// run perturbed at the default strength and passes unperturbed. divergo
// test reports it flaky, with its failure rate under each schedule, the
// default strength failing in every run and a weaker one tried.
func TestFlakySchedules(t *testing.T) {
	dir := setup(t, "flaky", false)
	status, stdout, stderr := divergo(t, dir, "test", "-n", "24", "-run", "^TestBatchDeadline$", "-json", ".")
	if status != 1 {
		t.Fatalf("divergo test: status %d, want 1 (flaky)\n%s\n%s", status, stdout, stderr)
	}
	var rep struct {
		Strengths []int
		Flaky     []struct {
			Name       string
			Runs       int
			Schedules  []struct{ Strength, Runs, Failures int }
			Separators []struct{ Pos string }
			Rerun      string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("divergo test -json: %v\n%s", err, stdout)
	}
	if len(rep.Strengths) != 24 || len(rep.Flaky) != 1 {
		t.Fatalf("%d schedules, flaky %+v; want 24 and TestBatchDeadline", len(rep.Strengths), rep.Flaky)
	}
	f := rep.Flaky[0]
	byStrength := map[int][2]int{}
	runs := 0
	for _, r := range f.Schedules {
		byStrength[r.Strength] = [2]int{r.Runs, r.Failures}
		runs += r.Runs
	}
	if runs != f.Runs || runs != 24 {
		t.Errorf("schedules %+v add up to %d runs, want 24", f.Schedules, runs)
	}
	if r := byStrength[50]; r[0] < 3 || r[1] != r[0] {
		t.Errorf("perturbed 50%%: %d of %d runs failed, want all of at least 3", r[1], r[0])
	}
	if r := byStrength[0]; r[0] < 3 || r[1] == r[0] {
		t.Errorf("unperturbed: %d of %d runs failed, want some passing", r[1], r[0])
	}
	if r := byStrength[12]; r[0] == 0 {
		t.Errorf("schedules %+v: no weaker strength tried after 50%% failed in every run", f.Schedules)
	}
	if len(f.Separators) == 0 || !strings.HasSuffix(f.Separators[0].Pos, "batch_test.go:33") {
		t.Errorf("separators %v, want the select at batch_test.go:33 first", f.Separators)
	}
	if !strings.Contains(f.Rerun, "DIVERGO_PERTURB=") {
		t.Errorf("rerun %q: want a perturbed failing run", f.Rerun)
	}
}

// TestFailedEveryRun: a test that fails in every run, unperturbed too, is
// reported with its failure messages and its rate under each schedule.
func TestFailedEveryRun(t *testing.T) {
	dir := setup(t, "flaky", false)
	for _, seed := range []string{"1", "11"} {
		status, stdout, stderr := divergo(t, dir, "test", "-n", "3", "-perturb=false", "-seed", seed, "-run", "^TestWaitGroupAdd$", ".")
		if status == 1 && !strings.Contains(stdout, "failed in every run") {
			continue // it passed once: the workers were quick
		}
		if status != 1 {
			t.Fatalf("divergo test: status %d\n%s\n%s", status, stdout, stderr)
		}
		for _, want := range []string{
			"TestWaitGroupAdd failed in every run (unperturbed 3 of 3), unperturbed too",
			"of 3 workers done after Wait",
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("no %q in:\n%s", want, stdout)
			}
		}
		return
	}
	t.Error("TestWaitGroupAdd passed in some of 6 unperturbed runs")
}
