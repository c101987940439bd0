package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/gotrace"
)

// TestWaitUnreadableGoTrace: an execution trace beside the divergo trace
// that cannot be read (a run killed before the tracer stopped wrote no
// clock anchor, as a deadlocked program under the tracer is) is said in
// one line and the report is made without it; named by -gotrace, it is an
// error, exit 2.
func TestWaitUnreadableGoTrace(t *testing.T) {
	dvt := filepath.Join(t.TempDir(), "run-1.dvt")
	src, err := os.ReadFile(filepath.Join("..", "..", "internal", "perfetto", "testdata", "fig2-a.dvt"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dvt, string(src))
	writeFile(t, gotrace.Beside(dvt), "not a trace")

	status, out, errs := runCmd(t, "wait", dvt)
	if status != 0 || !strings.Contains(out, "waiting in") || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "does without it") {
		t.Errorf("wait with an unreadable execution trace beside: status %d, stderr %q, stdout:\n%s", status, errs, out)
	}
	status, _, errs = runCmd(t, "wait", "-gotrace", gotrace.Beside(dvt), dvt)
	if status != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "execution trace") {
		t.Errorf("wait -gotrace naming an unreadable execution trace: status %d, stderr %q; want 2 and one line", status, errs)
	}
}
