package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFlakyShards runs divergo test -n 8 of TestMapOrder (testdata/flaky:
// the map's iteration order decides it, no deadline) in two shards into
// two directories, explains them together with -explain, and compares
// with one unsharded run of the same seeds.
//
// The runs are real executions, so two invocations need not fail in the
// same runs: what must be equal between the merged shards and the
// unsharded run is the number of runs, their seeds and their schedules
// (8 runs are too few for the plan to adapt, so the schedules are the
// plan's fixed ones), how many runs the test had, and where it failed
// (its one t.Fatalf). That the merge is the report of one invocation
// making those same runs, separators included, is checked exactly: the
// two shard directories copied into one give, under -explain, the very
// report the two directories give; and the unsharded run's own report is
// the one -explain gives of its directory.
func TestFlakyShards(t *testing.T) {
	t.Parallel()
	dir := setup(t, "flaky", false)
	shard := func(k string) string {
		out := filepath.Join(dir, "shard-"+k)
		status, stdout, stderr := divergo(t, dir, "test", "-n", "8", "-run", "^TestMapOrder$", "-shard", k+"/2", "-o", out, ".")
		if status != 0 || !strings.HasPrefix(stdout, "shard "+k+"/2: 4 of 8 runs") {
			t.Fatalf("divergo test -shard %s/2: status %d\n%s\n%s", k, status, stdout, stderr)
		}
		return out
	}
	d1, d2 := shard("1"), shard("2")
	explain := func(dirs ...string) string {
		t.Helper()
		status, stdout, stderr := divergo(t, dir, append([]string{"test", "-explain", "-json"}, dirs...)...)
		if status != 0 && status != 1 {
			t.Fatalf("divergo test -explain %v: status %d\n%s\n%s", dirs, status, stdout, stderr)
		}
		return stdout
	}
	merged := explain(d1, d2)

	all := filepath.Join(dir, "all")
	status, whole, stderr := divergo(t, dir, "test", "-n", "8", "-run", "^TestMapOrder$", "-o", all, "-json", ".")
	if status != 0 && status != 1 {
		t.Fatalf("divergo test -n 8: status %d\n%s\n%s", status, whole, stderr)
	}
	// The live report also says how its own tries of the rerun line went
	// (rerun_tries, rerun_fails): -explain makes no tries, so those two
	// fields are left out of the comparison.
	if got := explain(all); dropRerunTries(got) != dropRerunTries(whole) {
		t.Errorf("-explain of the unsharded run's directory:\n%s\nwant its own report:\n%s", got, whole)
	}

	// Both shards' files in one directory, as one -o invocation leaves them.
	both := filepath.Join(dir, "both")
	if err := os.MkdirAll(both, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{d1, d2} {
		ents, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(d, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(both, e.Name()), b, 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := explain(both); got != merged {
		t.Errorf("-explain of the shards' runs in one directory:\n%s\nwant the report of the two:\n%s", got, merged)
	}

	type test struct {
		Name      string
		Runs      int
		Failures  int
		Schedules []struct{ Strength, Runs, Failures int }
		Messages  []struct {
			Message string
			N       int
		}
		Separators []struct{ Pos string }
	}
	type report struct {
		Runs      int
		Seeds     []int64
		Strengths []int
		Flaky     []test
		Failed    []test
	}
	read := func(what, s string) (report, *test) {
		t.Helper()
		var rep report
		if err := json.Unmarshal([]byte(s), &rep); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, s)
		}
		for _, ts := range [][]test{rep.Flaky, rep.Failed} {
			for i := range ts {
				if ts[i].Name == "TestMapOrder" {
					return rep, &ts[i]
				}
			}
		}
		return rep, nil // it passed in every run
	}
	m, mt := read("merged", merged)
	w, wt := read("unsharded", whole)
	if m.Runs != 8 || w.Runs != 8 || !slices.Equal(m.Seeds, w.Seeds) || !slices.Equal(m.Seeds, []int64{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Errorf("merged: %d runs, seeds %v; unsharded: %d runs, seeds %v; want 8 runs of seeds 1 to 8 in both", m.Runs, m.Seeds, w.Runs, w.Seeds)
	}
	if !slices.Equal(m.Strengths, w.Strengths) {
		t.Errorf("merged schedules %v, unsharded %v: want the same", m.Strengths, w.Strengths)
	}
	for _, c := range []struct {
		what string
		t    *test
	}{{"merged", mt}, {"unsharded", wt}} {
		if c.t == nil {
			continue
		}
		runs := 0
		for _, s := range c.t.Schedules {
			runs += s.Runs
		}
		if runs != 8 {
			t.Errorf("%s: TestMapOrder's schedules %+v add up to %d runs, want 8", c.what, c.t.Schedules, runs)
		}
		for _, msg := range c.t.Messages {
			if !strings.HasPrefix(msg.Message, "flaky_test.go:108: first key") {
				t.Errorf("%s: failure message %q, want TestMapOrder's t.Fatalf", c.what, msg.Message)
			}
		}
		if c.t.Failures > 0 && c.t.Failures < 8 && len(c.t.Separators) == 0 {
			t.Errorf("%s: TestMapOrder failed in %d of 8 runs and nothing separates them", c.what, c.t.Failures)
		}
	}

	// Refused, in one line: a shard missing, a shard given twice.
	for _, dirs := range [][]string{{d1}, {d1, d2, d1}} {
		status, stdout, stderr := divergo(t, dir, append([]string{"test", "-explain"}, dirs...)...)
		if status != 2 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("divergo test -explain %v: status %d, want 2 and one line\n%s\n%s", dirs, status, stdout, stderr)
		}
	}
}

// dropRerunTries removes a -json report's rerun_tries and rerun_fails
// lines, the outcome of the tries a live divergo test makes of its rerun
// line and -explain does not.
func dropRerunTries(report string) string {
	var keep []string
	for _, l := range strings.Split(report, "\n") {
		f := strings.TrimSpace(l)
		if strings.HasPrefix(f, `"rerun_tries":`) || strings.HasPrefix(f, `"rerun_fails":`) {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}
