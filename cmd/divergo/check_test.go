package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// fig1aModule copies testdata/fig1a into a temporary module that requires
// divergo through a replace of this repository (as the e2e tests do), makes
// it the working directory with an offline go command, and returns the line
// of the `if j == 2` statement.
func fig1aModule(t *testing.T) int {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(repo, "testdata", "fig1a", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "if j == 2 {") {
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatal("testdata/fig1a/main.go has no `if j == 2` line")
	}
	checkModule(t, "fig1a", src)
	return line
}

// checkModule makes a temporary module example.com/NAME of one main.go
// that requires divergo through a replace of this repository (as the e2e
// tests do) the working directory, with an offline go command.
func checkModule(t *testing.T, name string, src []byte) {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string][]byte{
		"main.go": src,
		"go.mod":  []byte("module example.com/" + name + "\n\ngo 1.26.8\n"),
		"go.sum":  sum,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for k, v := range map[string]string{"GOWORK": "off", "GOFLAGS": "", "GOPROXY": "off", "GOTOOLCHAIN": "local", "DIVERGO_TRACE": "", "DIVERGO_PERTURB": ""} {
		t.Setenv(k, v)
	}
}

// TestCheckFindsPlantedHole disables the branch TCP kind in the analyzer:
// check must then report the divergence of Figure 1a's `if j == 2` as
// unflagged and exit 1. With the analyzer whole, the same runs must show
// the branch as flagged and nothing unflagged.
//
// Twelve runs: under perturbation about half the runs take the lock in the
// other order (the runtime's TestPerturbInterleavings), so that both
// orders, which is what makes the branch go both ways, appear in all but
// about one in two thousand attempts.
func TestCheckFindsPlantedHole(t *testing.T) {
	if testing.Short() {
		t.Skip("instruments, builds and runs a program")
	}
	line := fig1aModule(t)

	status, out, errs := runCmd(t, "check", "-n", "12", "-seed", "1", "-disable", "branch", "-o", "traces")
	if status != 1 {
		t.Fatalf("check with branch disabled: status %d, want 1\nstdout:\n%s\nstderr:\n%s", status, out, errs)
	}
	hole := regexp.MustCompile(fmt.Sprintf(`(?m)^  main\.go:%d in example\.com/fig1a\.task0\n    %d\tif j == 2 \{.*\n    seen in \d+ of 11 runs`, line, line))
	if !hole.MatchString(out) {
		t.Errorf("check does not name the hole at main.go:%d with its statement:\n%s", line, out)
	}
	if !strings.Contains(out, "\n1 hole: runs parted where the analyzer saw no change point") {
		t.Errorf("want only the planted hole:\n%s", out)
	}
	if !regexp.MustCompile(`reproduce: seeds \d+ and \d+`).MatchString(out) {
		t.Errorf("no seeds to reproduce the hole:\n%s", out)
	}
	if !strings.Contains(out, "\n    planted: the analyzer was told to miss branch change points (-disable); without that it marks this statement\n") {
		t.Errorf("the hole is not said to be planted:\n%s", out)
	}
	if strings.Contains(out, "    branch ") {
		t.Errorf("a disabled kind is reported as flagged:\n%s", out)
	}
	// The traces are kept with -o, and the report says how to look at one.
	if _, err := os.Stat(filepath.Join("traces", "run-12.dvt")); err != nil {
		t.Errorf("trace of run 12 not kept: %v", err)
	}
	if !strings.Contains(out, "divergo diff ") {
		t.Errorf("no diff command for the hole:\n%s", out)
	}

	status, out, errs = runCmd(t, "check", "-n", "12", "-seed", "1")
	if status != 0 {
		t.Fatalf("check on the whole analyzer: status %d, want 0\nstdout:\n%s\nstderr:\n%s", status, out, errs)
	}
	if !strings.Contains(out, "\nno hole: ") || strings.Contains(out, " hole: runs parted") {
		t.Errorf("check reports unflagged divergences:\n%s", out)
	}
	// Not vacuous: the runs did go both ways, and the branch was flagged.
	if !regexp.MustCompile(`\n([2-9]|\d\d+) distinct interleavings`).MatchString(out) || !strings.Contains(out, ": DIVERGO_PERTURB=1 go run -overlay=") {
		t.Errorf("fewer than two interleavings:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^    branch +\d+ sections in \d+ runs$`).MatchString(out) {
		t.Errorf("no flagged branch divergence: the runs did not take both lock orders:\n%s", out)
	}
}

func TestCheckUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "-n", "1"}, "-n must be at least 2"},
		{[]string{"check", "-disable", "nosuchkind"}, `unknown TCP kind "nosuchkind"`},
		{[]string{"check", "-disable", "begin"}, "cannot be disabled"},
		{[]string{"check", "a", "b"}, "one package at most"},
	} {
		status, _, errs := runCmd(t, tc.args...)
		if status != 2 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "usage: divergo check") {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", tc.args, status, errs, tc.want)
		}
	}
}

// TestRunPerturb checks that run -perturb leaves run 1 unperturbed and
// gives run K from 2 the seed S+K-2 and says so, with a trace per run, and
// that one run cannot be perturbed.
func TestRunPerturb(t *testing.T) {
	if testing.Short() {
		t.Skip("instruments, builds and runs a program")
	}
	fig1aModule(t)
	status, _, errs := runCmd(t, "run", "-n", "3", "-perturb", "-seed", "7", "-o", "traces")
	if status != 0 {
		t.Fatalf("run: status %d\n%s", status, errs)
	}
	for k := 1; k <= 3; k++ {
		tr := filepath.Join(mustAbs(t, "traces"), fmt.Sprintf("run-%d.dvt", k))
		want := fmt.Sprintf("run %d: exit status 0; trace %s; DIVERGO_PERTURB=%d\n", k, tr, 5+k)
		if k == 1 {
			want = fmt.Sprintf("run 1: exit status 0; trace %s\n", tr)
		}
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
		r, err := trace.Open(tr)
		if err != nil {
			t.Fatal(err)
		}
		seed, perturbed := r.Perturbed()
		r.Close()
		if perturbed != (k > 1) || perturbed && seed != int64(5+k) {
			t.Errorf("run-%d.dvt: perturbed %v with seed %d", k, perturbed, seed)
		}
	}
	if status, _, errs := runCmd(t, "run", "-n", "1", "-perturb", "-o", "one"); status != 2 || !strings.Contains(errs, "-perturb needs -n 2") {
		t.Errorf("run -n 1 -perturb: status %d, stderr %q; want 2 and a usage error", status, errs)
	}
	status, _, errs = runCmd(t, "run", "-n", "1", "-o", "plain")
	if status != 0 || strings.Contains(errs, "DIVERGO_PERTURB") {
		t.Errorf("run without -perturb: status %d, stderr mentions a seed:\n%s", status, errs)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
