package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

func runCmd(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	status = run(args, &out, &errb)
	return status, out.String(), errb.String()
}

func TestHelp(t *testing.T) {
	status, out, _ := runCmd(t, "help")
	if status != 0 {
		t.Fatalf("help: status %d", status)
	}
	for name := range commands {
		if !strings.Contains(out, "\t"+name) {
			t.Errorf("help does not list %q", name)
		}
	}
	// Every command explains itself with an example, through help and -h.
	for name, c := range commands {
		for _, args := range [][]string{{"help", name}, {name, "-h"}} {
			status, out, errs := runCmd(t, args...)
			if status != 0 || !strings.HasPrefix(out, "usage: "+c.usage) || !strings.Contains(out, "Example") {
				t.Errorf("%v: status %d, stdout %q, stderr %q", args, status, out, errs)
			}
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "Commands:"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"help", "frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"vet", "-nosuchflag"}, "flag provided but not defined: -nosuchflag\nusage: divergo vet"},
	} {
		status, _, errs := runCmd(t, tc.args...)
		if status != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", tc.args, status, errs, tc.want)
		}
	}
}

// TestVetFigure1a checks the line format of divergo vet on the port of the
// paper's Figure 1a (the analyzer's own tests check which TCPs it finds).
func TestVetFigure1a(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and analyses packages")
	}
	status, out, errs := runCmd(t, "vet", "../../testdata/fig1a")
	if status != 0 {
		t.Fatalf("vet: status %d: %s", status, errs)
	}
	line := regexp.MustCompile(`^testdata/fig1a/main\.go:\d+:\d+: trace change point \((begin|spawn|branch|loop|lock)\): .+; converges at (return|testdata/fig1a/main\.go:\d+)$`)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 {
		t.Errorf("vet printed %d lines, want 7:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if !line.MatchString(l) {
			t.Errorf("line does not have the documented form: %q", l)
		}
	}
}

// TestVetTests: with -tests, every change point is at a file of the
// package, none at the test main go test generates in the build cache.
func TestVetTests(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and analyses packages")
	}
	status, out, errs := runCmd(t, "vet", "-tests", "../../testdata/flaky")
	if status != 0 {
		t.Fatalf("vet -tests: status %d: %s", status, errs)
	}
	tests := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, "testdata/flaky/") {
			t.Errorf("a change point outside the package: %q", l)
		}
		if strings.HasPrefix(l, "testdata/flaky/flaky_test.go:") {
			tests++
		}
	}
	if tests == 0 {
		t.Errorf("no change point in the test files:\n%s", out)
	}
}

func TestVetBadPackage(t *testing.T) {
	status, _, errs := runCmd(t, "vet", "./does/not/exist")
	if status != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "divergo vet: ") {
		t.Errorf("status %d, stderr %q: want status 2 and one line", status, errs)
	}
}

// TestDiffWait checks that "divergo diff -wait" puts the waiting time of the
// sync sites of two runs side by side.
func TestDiffWait(t *testing.T) {
	dir := "../../internal/perfetto/testdata/"
	status, out, errs := runCmd(t, "diff", "-wait", dir+"fig2-a.dvt", dir+"fig2-b.dvt")
	if status != 0 || !strings.HasPrefix(out, "waiting: A ") || !strings.Contains(out, "wg.wait") {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out, errs)
	}
	status, _, errs = runCmd(t, "diff", "-wait", dir+"fig2-a.dvt")
	if status != 2 || !strings.Contains(errs, "-wait compares two traces") {
		t.Errorf("one trace: status %d, stderr %q", status, errs)
	}
}

// TestDemo runs the README's first command: the demo must go through all
// four steps, name the statements where the runs parted and the lines that
// explain the waits, and exit 0.
func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("instruments, builds and runs a program")
	}
	status, out, errs := runCmd(t, "demo")
	if status != 0 {
		t.Fatalf("demo: status %d\n%s%s", status, out, errs)
	}
	for _, want := range []string{
		"1. Instrumenting it", "2. Running it under perturbed schedules",
		"3. Where run 1 and run", "4. Why goroutines waited",
		"main.go:", "waiting in ", "explained",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "took different paths") && !strings.Contains(out, "Where they parted, most work first:") {
		t.Errorf("the runs differ but no statement is named:\n%s", out)
	}
}
