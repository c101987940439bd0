package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputsDiffer runs a program twice with different command lines:
// diff says so first, in one line, and still compares the runs (they part
// where the flag's value decides, a loop the analyzer rightly leaves
// unflagged, since inputs are the same in the runs it is meant to
// compare); show prints what each run was given. Two runs with the same
// command line say nothing of inputs; three runs say which differ from the
// first before the matrix, and diff -wait says it before the waiting time.
func TestInputsDiffer(t *testing.T) {
	t.Parallel()
	p := prepare(t, "cpuloop", false)
	dir := t.TempDir()
	record := func(name string, args ...string) string {
		tr := filepath.Join(dir, name)
		execProg(t, p.dir, p.bin, args, "DIVERGO_TRACE="+tr)
		return tr
	}
	a := record("run-1.dvt", "-n", "10")
	b := record("run-2.dvt", "-n", "12")
	c := record("run-3.dvt", "-n", "10")

	code, out, errs := divergo(t, dir, "diff", a, b)
	if code != 1 {
		t.Fatalf("diff of runs with -n 10 and -n 12: status %d, want 1\n%s%s", code, out, errs)
	}
	first, rest, _ := strings.Cut(out, "\n")
	if first != "inputs differ: run-1.dvt ran with args [-n 10], run-2.dvt with [-n 12]" {
		t.Errorf("first line %q, want the inputs' difference\n%s", first, out)
	}
	if !strings.Contains(rest, "the analysis takes inputs to be the same in both runs: where they parted at statements it did not mark (2 times) may be the inputs' doing") {
		t.Errorf("diff does not say the unmarked places may come from the inputs:\n%s", out)
	}
	if !strings.Contains(rest, "run-1.dvt and run-2.dvt took different paths.") || !strings.Contains(rest, "main.go:38") {
		t.Errorf("diff did not go on to compare the runs where the flag decides (main.go:38):\n%s", out)
	}

	code, out, errs = divergo(t, dir, "diff", a, c)
	if code != 0 || strings.Contains(out, "inputs") {
		t.Errorf("diff of two runs with -n 10: status %d\n%s%s", code, out, errs)
	}

	// Their waiting time compared: the same line first.
	code, out, errs = divergo(t, dir, "diff", "-wait", a, b)
	if code != 0 || !strings.HasPrefix(out, "inputs differ: run-1.dvt ran with args [-n 10], run-2.dvt with [-n 12]\n\nwaiting: A ") {
		t.Errorf("diff -wait of the runs: status %d\n%s%s", code, out, errs)
	}

	// Three runs: the matrix, after the runs whose inputs differ from the
	// first's.
	code, out, errs = divergo(t, dir, "diff", "run-1.dvt", "run-2.dvt", "run-3.dvt")
	if code != 1 || !strings.HasPrefix(out, "inputs differ: run-1.dvt ran with args [-n 10], run-2.dvt with [-n 12]\n\n") || strings.Contains(out, "run-3.dvt with") {
		t.Errorf("diff of three runs: status %d\n%s%s", code, out, errs)
	}

	code, out, errs = divergo(t, dir, "show", b)
	if code != 0 || !strings.Contains(out, "args:       [-n 12]\n") || !strings.Contains(out, "processors: GOMAXPROCS ") {
		t.Errorf("show of the run with -n 12: status %d\n%s%s", code, out, errs)
	}
}

// TestEnvironmentDiffers runs a program three times with a variable set
// to 4821, 4821 and 1234: diff of the first two says nothing of inputs,
// of the first and third that the variable was set differently, and
// neither the value nor anything that gives it back is in the trace (the
// values are hashed under the user's key: docs/FORMAT.md, "Inputs").
func TestEnvironmentDiffers(t *testing.T) {
	t.Parallel()
	p := prepare(t, "cpuloop", false)
	dir := t.TempDir()
	record := func(name, pin string) string {
		tr := filepath.Join(dir, name)
		execProg(t, p.dir, p.bin, []string{"-n", "10"}, "DIVERGO_TRACE="+tr, "E2E_PIN="+pin)
		return tr
	}
	a, b, c := record("run-1.dvt", "4821"), record("run-2.dvt", "4821"), record("run-3.dvt", "1234")
	if code, out, errs := divergo(t, dir, "diff", a, b); code != 0 || strings.Contains(out, "inputs") {
		t.Errorf("diff of two runs with E2E_PIN=4821: status %d\n%s%s", code, out, errs)
	}
	code, out, errs := divergo(t, dir, "diff", a, c)
	if first, _, _ := strings.Cut(out, "\n"); code > 1 || first != "inputs differ: environment variables set differently: E2E_PIN" {
		t.Errorf("diff of runs with E2E_PIN=4821 and 1234: status %d, first line %q\n%s%s", code, first, out, errs)
	}
	code, out, errs = divergo(t, dir, "show", "-json", a)
	if code != 0 || !strings.Contains(out, `"env_scheme":"keyed"`) || strings.Contains(out, "4821") {
		t.Errorf("show -json: status %d, want keyed hashes and no value\n%.600s%s", code, out, errs)
	}
	data, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("4821")) {
		t.Error("the trace holds the value")
	}
}
