package e2e

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestQuietGoroutines runs testdata/quiet, which counts its goroutines as
// leak checks do (runtime.NumGoroutine, runtime.Stack, the goroutine
// profile) before starting workers and after they end, plain and
// recorded: recorded, while the trace's writer runs, it must see and print
// what it sees plain, and its trace must hold main and the four workers.
func TestQuietGoroutines(t *testing.T) {
	t.Parallel()
	p := prepare(t, "quiet", false)
	plain := filepath.Join(t.TempDir(), "plain")
	goCmd(t, p.dir, "build", "-o", plain, ".")
	tr := filepath.Join(t.TempDir(), "run.dvt")
	var outs []string
	for _, bin := range []string{plain, p.bin} {
		cmd := exec.Command(bin)
		cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+tr)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s%s", filepath.Base(bin), err, stdout.Bytes(), stderr.Bytes())
		}
		outs = append(outs, stdout.String())
	}
	if outs[0] != outs[1] {
		t.Errorf("plain said\n%s\nrecorded\n%s", outs[0], outs[1])
	}
	r, err := trace.Open(tr)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := len(r.Goroutines()); n != 5 || r.Truncated() {
		t.Errorf("trace: %d goroutines, truncated %v; want main and 4 workers, complete", n, r.Truncated())
	}
}
