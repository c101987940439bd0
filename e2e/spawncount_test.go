package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestSpawnCountCheck runs divergo check on testdata/spawncount: main
// starts a literal in one case of a select and a method in the other, each
// given the loop counter. Goroutines are matched by count, so the k-th
// goroutine of a go statement gets another counter in another run and
// branches the other way on it. The analyzer passes shared arguments from a
// go statement that shared data lets run a varying number of times, so
// the runs part only where it marked: nothing unflagged, status 0, and
// parted branches among the flagged divergences (both goroutines' branches
// were holes before, the method's on main, the literal's once its
// parameters came from its go statement).
func TestSpawnCountCheck(t *testing.T) {
	t.Parallel()
	dir := setup(t, "spawncount", false)
	status, out, errs := checkParted(t, dir, 8, ".")
	if status != 0 {
		t.Fatalf("check: status %d, want 0\n%s%s", status, out, errs)
	}
	if !strings.Contains(out, "\nno hole: ") {
		t.Errorf("check reports unflagged divergences:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^    branch +\d+ sections in \d+ runs$`).MatchString(out) {
		t.Errorf("no flagged branch divergence: every goroutine got the same counter in every run:\n%s", out)
	}
}
