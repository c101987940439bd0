package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// schedReport is what TestSchedFlakyShapes and TestSchedSameReport read
// of divergo test -json.
type schedReport struct {
	Strengths []int
	Flaky     []struct {
		Name      string
		Runs      int
		Failures  int
		Schedules []struct{ Strength, Runs, Failures int }
		Messages  []struct {
			Message string
			N       int
		}
		FailSeeds []int64 `json:"fail_seeds"`
		Rerun     string
	}
}

func runSched(t *testing.T, dir string, args ...string) schedReport {
	t.Helper()
	status, stdout, stderr := divergo(t, dir, append([]string{"test", "-json"}, args...)...)
	if status != 1 {
		t.Fatalf("divergo test %v: status %d, want 1 (flaky)\n%s\n%s", args, status, stdout, stderr)
	}
	var rep schedReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("divergo test -json: %v\n%s", err, stdout)
	}
	return rep
}

// TestSchedFlakyShapes: each test of testdata/schedflaky, decided by one
// kind of scheduling decision (a select's ready case, a fired timer
// against a ready channel with a continue in the retry loop, a default, a
// wake-up order, a start order), is found flaky within 40 runs of divergo
// test's default schedules, and the rerun it prints fails again at least 9
// times in 10. TestWakeOrder fails in no plain run and rarely delayed:
// the controlled runs find it (runtime/schedlock.go).
func TestSchedFlakyShapes(t *testing.T) {
	dir := setup(t, "schedflaky", false)
	rep := runSched(t, dir, "-n", "40", ".")
	want := []string{"TestFetchOnce", "TestProcessorDrains", "TestReadyNow", "TestStartOrder", "TestWakeOrder"}
	var got []string
	for _, f := range rep.Flaky {
		got = append(got, f.Name)
		ctl := 0
		for _, s := range f.Schedules {
			if s.Strength < 0 {
				ctl += s.Failures
			}
		}
		if ctl == 0 {
			t.Errorf("%s: no controlled run failed: %+v", f.Name, f.Schedules)
		}
		failed, out := rerun(t, dir, f.Rerun, 10, "")
		t.Logf("%s: %d of %d runs failed %+v; the rerun failed %d of 10 times", f.Name, f.Failures, f.Runs, f.Schedules, failed)
		if failed < 9 {
			t.Errorf("%s: the rerun failed %d of 10 times, want 9 or more\n%s\nits last output:\n%s", f.Name, failed, f.Rerun, out)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("flaky %v, want %v", got, want)
	}
}

// TestSchedSameReport: two invocations of divergo test -sched pct with the
// same seeds report the same: the same schedules, the same tests flaky,
// failing under the same seeds with the same messages. Waiting times,
// measured, are left out.
func TestSchedSameReport(t *testing.T) {
	dir := setup(t, "schedflaky", false)
	args := []string{"-n", "16", "-sched", "pct", "-seed", "7", "-run", "^(TestWakeOrder|TestProcessorDrains|TestStartOrder)$", "."}
	a, b := runSched(t, dir, args...), runSched(t, dir, args...)
	sum := func(r schedReport) string {
		var sb strings.Builder
		fmt.Fprintf(&sb, "schedules %v\n", r.Strengths)
		for _, f := range r.Flaky {
			fmt.Fprintf(&sb, "%s: %d of %d %+v seeds %v messages %+v\n", f.Name, f.Failures, f.Runs, f.Schedules, f.FailSeeds, f.Messages)
		}
		return sb.String()
	}
	sa, sb := sum(a), sum(b)
	if sa != sb {
		t.Errorf("two invocations with the same seeds differ:\n%s\nthen\n%s", sa, sb)
	}
	if len(a.Flaky) == 0 {
		t.Errorf("nothing flaky:\n%s", sa)
	}
	t.Logf("both:\n%s", sa)
}
