package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// onceLines returns the lines of testdata/once's Do and of the statement
// after it, where the runs must part and meet again.
func onceLines(t *testing.T) (do, after int) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "once", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "once.Do(") {
			do = i + 1
		}
	}
	if do == 0 {
		t.Fatal("testdata/once/main.go has no once.Do line")
	}
	return do, do + 1
}

// TestOnceCorrespondence: two workers race on a sync.Once whose function
// builds a table. Two runs in which different workers built it part at
// the Do in both workers (the one that ran the function has its frame and
// outcome 1, the other outcome 0) and meet again just after it: two once
// sections, nothing unflagged, and everything else equal.
//
// A worker's wg.Done is deferred, so main can print and exit between it
// and the worker's return: that run's worker is cut off at exit, and its
// missing return is a third, cut-off section. Such runs are another
// comparison (cut-off sections are tested elsewhere), so only runs in
// which every goroutine returned are kept.
func TestOnceCorrespondence(t *testing.T) {
	t.Parallel()
	p := prepare(t, "once", false)
	do, after := onceLines(t)
	byBuilder := map[int]string{} // worker that built the table → a trace
	for seed := 1; seed <= 60 && len(byBuilder) < 2; seed++ {
		tr, out := p.runSeed(t, seed)
		var w, s0, s1 int
		if _, err := fmt.Sscanf(out, "built by worker %d sums %d %d", &w, &s0, &s1); err != nil {
			t.Fatalf("output %q: %v", out, err)
		}
		if s0 != 14 || s1 != 14 {
			t.Fatalf("output %q: sums are not 14", out)
		}
		if byBuilder[w] == "" && allReturned(t, tr) {
			byBuilder[w] = tr
		}
	}
	if len(byBuilder) < 2 {
		t.Fatal("in 60 perturbed runs whose goroutines all returned, the same worker built the table")
	}
	got, rep := correspondence(t, byBuilder[0], byBuilder[1], nil)
	goldenFile(t, "once.golden", got)
	if len(rep.Sections) != 2 || rep.Summary.Unflagged != 0 {
		t.Fatalf("%d sections (%d unflagged), want 2 (0)", len(rep.Sections), rep.Summary.Unflagged)
	}
	for _, s := range rep.Sections {
		if s.TCP.Kind != "once" || s.TCP.Pos != fmt.Sprintf("main.go:%d", do) || s.CP.Pos != fmt.Sprintf("main.go:%d", after) || s.Unresolved {
			t.Errorf("section %s → %s of kind %s (unresolved %v), want once at main.go:%d → main.go:%d",
				s.TCP.Pos, s.CP.Pos, s.TCP.Kind, s.Unresolved, do, after)
		}
	}
	self, _ := correspondence(t, byBuilder[0], byBuilder[0], nil)
	if !strings.Contains(self, "distance 0, 0 sections") {
		t.Errorf("a run against itself:\n%s", self)
	}
}

// TestOnceCheck runs divergo check on the once race: the runs part at the
// Do, which the analyzer marks, so nothing is unflagged and the status is
// 0. With the once kind disabled, the same runs show the hole the kind
// closes: unflagged in worker, status 1.
func TestOnceCheck(t *testing.T) {
	t.Parallel()
	dir := setup(t, "once", false)
	status, out, errs := checkParted(t, dir, 10, ".")
	if status != 0 {
		t.Fatalf("check: status %d, want 0\n%s%s", status, out, errs)
	}
	if !strings.Contains(out, "\nno hole: ") || strings.Contains(out, " hole: runs parted") {
		t.Errorf("check reports unflagged divergences:\n%s", out)
	}
	// Not vacuous: both workers built the table in some runs.
	if !regexp.MustCompile(`(?m)^    once +\d+ sections in \d+ runs$`).MatchString(out) {
		t.Errorf("no flagged once divergence: the same worker ran the function in every run:\n%s", out)
	}

	status, out, errs = checkParted(t, dir, 10, "-disable", "once", ".")
	if status != 1 {
		t.Fatalf("check -disable once: status %d, want 1\n%s%s", status, out, errs)
	}
	if !regexp.MustCompile(`(?m)^  main\.go:\d+ in example\.com/once\.worker$`).MatchString(out) || !strings.Contains(out, "\n1 hole: ") {
		t.Errorf("check -disable once does not report the hole in worker:\n%s", out)
	}
}

// TestOnceValueCheck: the same race on a function sync.OnceValue made.
// The runtime records nothing of its own there; the function's frame,
// present in the run of the worker that built the table only, is where
// the runs part, at the call the analyzer marked.
func TestOnceValueCheck(t *testing.T) {
	t.Parallel()
	dir := setup(t, "oncevalue", false)
	status, out, errs := checkParted(t, dir, 10, ".")
	if status != 0 {
		t.Fatalf("check: status %d, want 0\n%s%s", status, out, errs)
	}
	if !strings.Contains(out, "\nno hole: ") {
		t.Errorf("check reports unflagged divergences:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^    once +\d+ sections in \d+ runs$`).MatchString(out) {
		t.Errorf("no flagged once divergence: the same worker ran the function in every run:\n%s", out)
	}
	status, out, errs = checkParted(t, dir, 10, "-disable", "once", ".")
	if status != 1 || !regexp.MustCompile(`(?m)^  main\.go:\d+ in example\.com/oncevalue\.worker$`).MatchString(out) {
		t.Errorf("check -disable once: status %d, want 1 and a hole in worker\n%s%s", status, out, errs)
	}
}

// allReturned reports whether every goroutine of the trace at path
// returned before the program exited.
func allReturned(t *testing.T, path string) bool {
	t.Helper()
	for _, g := range readRun(t, path, "").gs {
		if !g.Ended {
			return false
		}
	}
	return true
}
