package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/waittime"
)

// TestSlowHelper: worker 2 of a fork-join pool spends its time in a loop
// of process, a helper with no change point, which records nothing: the
// trace gives that time to the block that called it. The CPU samples put
// it back at the loop's lines (20 and 21): they are the top steps of
// main's wg.Wait, ahead of the call on line 35, in the text, and process
// is pprof's top function. The samples are recorded by default: the run
// has no environment variable but its trace's.
func TestSlowHelper(t *testing.T) {
	t.Parallel()
	p := prepare(t, "slowhelper", false)
	tr := filepath.Join(t.TempDir(), "run-1.dvt")
	cmd := exec.Command(p.bin)
	cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+tr)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("running: %v\n%s", err, out)
	}
	lines := hashWaitLines(t, p.dir, tr)
	loop := lines[20] + lines[21]
	if share := float64(loop) / float64(lines[0]); share < 0.5 {
		t.Errorf("the loop in process (lines 20 and 21) explains %.0f%% of main's wait (%s of %s), want most; line 35 (the call) %s",
			100*share, waittime.FormatNs(loop), waittime.FormatNs(lines[0]), waittime.FormatNs(lines[35]))
	}
	status, text, errs := divergo(t, p.dir, "wait", tr)
	if status != 0 {
		t.Fatalf("divergo wait: status %d\n%s", status, errs)
	}
	first := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "     + ") {
			first = l
			break
		}
	}
	if !strings.Contains(first, "main.go:20 ") && !strings.Contains(first, "main.go:21 ") {
		t.Errorf("the top step is %q, want a line of process's loop:\n%s", first, text)
	}
	prof := filepath.Join(t.TempDir(), "wait.pprof")
	if status, _, errs := divergo(t, p.dir, "wait", "-pprof", prof, tr); status != 0 {
		t.Fatalf("divergo wait -pprof: status %d\n%s", status, errs)
	}
	top, err := exec.Command("go", "tool", "pprof", "-top", prof).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, top)
	}
	for _, l := range strings.Split(string(top), "\n") {
		if f := strings.Fields(l); len(f) == 6 && strings.HasSuffix(f[1], "%") && !strings.HasPrefix(f[0], "flat") {
			if f[5] != "example.com/slowhelper.process" {
				t.Errorf("pprof's top function is %s, want example.com/slowhelper.process:\n%s", f[5], top)
			}
			break
		}
	}
}
