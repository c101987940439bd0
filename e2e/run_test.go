package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// divergo runs the divergo command in dir and returns its exit status and
// output.
func divergo(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "divergo"), args...)
	cmd.Dir, cmd.Env = dir, env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// TestRunCommand checks "divergo run": two runs, two readable traces, the
// program's output passed through; and a program that does not build is a
// one-line error with status 2.
func TestRunCommand(t *testing.T) {
	dir := setup(t, "pipeline", false)
	out := filepath.Join(t.TempDir(), "traces")
	status, stdout, stderr := divergo(t, dir, "run", "-n", "2", "-o", out, ".")
	if status != 0 {
		t.Fatalf("divergo run: status %d\n%s", status, stderr)
	}
	expect(t, "program output", stdout, "total 285\ntotal 285\n")
	for _, k := range []string{"1", "2"} {
		tr := filepath.Join(out, "run-"+k+".dvt")
		if !strings.Contains(stderr, "run "+k+": exit status 0; trace "+tr) {
			t.Errorf("divergo run did not report run %s:\n%s", k, stderr)
		}
		r := readRun(t, tr, "")
		r.checkTree(t)
	}

	write(t, filepath.Join(dir, "broken.go"), []byte("package main\n\nfunc broken() { undefined() }\n"))
	status, _, stderr = divergo(t, dir, "run", "-o", out, ".")
	expect(t, "status of a broken build", status, 2)
	if n := strings.Count(strings.TrimSpace(stderr), "\n"); n != 0 || !strings.Contains(stderr, "undefined") {
		t.Errorf("a broken build should be one line naming the error, got:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".divergo")); err != nil && status != 2 {
		t.Errorf("no .divergo: %v", err)
	}
}
