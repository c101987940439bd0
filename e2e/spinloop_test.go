package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDiffLongLoopAgainstShort diffs a run whose goroutine spun 300,000
// times through a loop of two branches to panic (TCPs no block closes)
// against one that went round once: diff measured such a section with a
// stack of open TCPs as long as the loop, and a pair of runs of Go's
// test/fixedbugs/bug512.go took six minutes. Linear, it takes well under
// a second; the bound below only keeps a return of the quadratic walk
// from hanging the suite.
func TestDiffLongLoopAgainstShort(t *testing.T) {
	t.Parallel()
	p := prepare(t, "spinloop", false)
	out := t.TempDir()
	long, short := filepath.Join(out, "long.dvt"), filepath.Join(out, "short.dvt")
	execProg(t, p.dir, p.bin, []string{"-n", "300000"}, "DIVERGO_TRACE="+long)
	execProg(t, p.dir, p.bin, []string{"-n", "1"}, "DIVERGO_TRACE="+short)
	begin := time.Now()
	status, stdout, stderr := divergo(t, p.dir, "diff", long, short)
	took := time.Since(begin)
	if status != 1 || !strings.Contains(stdout, "took different paths") {
		t.Fatalf("divergo diff: status %d, want 1 (different paths)\nstderr:\n%s\nstdout:\n%.600s", status, stderr, stdout)
	}
	if took > time.Minute {
		t.Errorf("divergo diff took %v", took)
	}
	t.Logf("diff of a 300,000-iteration loop against one iteration: %v", took)
}
