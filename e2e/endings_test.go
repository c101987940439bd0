package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestEveryGoroutineOnEveryEnding runs testdata/endings, whose goroutines
// say "started N" as they start, ending by os.Exit from a goroutine and by
// a goroutine's panic while others start and run, 20 times each: every
// goroutine that said it started must be in the trace, complete.
func TestEveryGoroutineOnEveryEnding(t *testing.T) {
	t.Parallel()
	p := prepare(t, "endings", false)
	for _, c := range []struct {
		mode   string
		status int
	}{{"exit", 3}, {"panic", 2}} {
		for run := range 20 {
			tr := filepath.Join(t.TempDir(), "run.dvt")
			started, status := runEnding(t, p, tr, c.mode)
			if status != c.status {
				t.Fatalf("%s run %d: exit status %d, want %d", c.mode, run, status, c.status)
			}
			r, err := trace.Open(tr)
			if err != nil {
				t.Fatal(err)
			}
			if r.Truncated() {
				t.Errorf("%s run %d: trace truncated", c.mode, run)
			}
			// The k-th goroutine main's loop starts says "started k": its
			// ordinal at that go statement is k.
			in := map[uint32]bool{}
			for _, gi := range r.Goroutines() {
				if gi.Parent == 1 {
					in[gi.Ordinal] = true
				}
			}
			r.Close()
			for _, n := range started {
				if !in[uint32(n)] {
					t.Errorf("%s run %d: goroutine %d said it started and is not in the trace", c.mode, run, n)
				}
			}
		}
	}
}

// runEnding runs the program of p with mode, recording into tr, and
// returns the goroutines that said they started and its exit status.
func runEnding(t *testing.T, p *program, tr, mode string) ([]int, int) {
	t.Helper()
	cmd := exec.Command(p.bin, mode)
	cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+tr)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	status := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		status = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	var started []int
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), "started "); ok {
			n, _ := strconv.Atoi(s)
			started = append(started, n)
		}
	}
	return started, status
}

// TestPanicPrintsAsPlain checks that a recorded program's panic prints
// what the plain build prints: the same message (no "[recovered,
// repanicked]"), frames, files and lines, none of divergo's frames, and
// function literals named by the plain build's numbers. The shapes: a
// panic in a goroutine of a literal with an argument, in main, in a
// goroutine of go f() and of go w.run() (a method value), and in a
// literal main calls. Goroutine ids, argument values and code offsets
// differ between any two builds or runs, and a literal the plain build
// inlines is a call of its own recorded (its frame then shows no
// "(...)"): those are blanked.
//
// A go statement whose callee takes arguments (go f(x)) is the one shape
// that differs, by the frame of the literal that holds the arguments
// (docs/INSTRUMENT.md, "Go statements"): the test requires exactly that
// difference, so that it fails the day there is none.
func TestPanicPrintsAsPlain(t *testing.T) {
	t.Parallel()
	p := prepare(t, "endings", false)
	plain := filepath.Join(p.dir, "plain")
	goCmd(t, p.dir, "build", "-o", plain, ".")
	for _, mode := range []string{"panic", "mainpanic", "gofunc", "method", "literal", "goargs"} {
		got := panicOutput(t, p.dir, p.bin, mode, "DIVERGO_TRACE="+filepath.Join(t.TempDir(), "run.dvt"))
		want := panicOutput(t, p.dir, plain, mode)
		if mode == "goargs" {
			got = literalFrame.ReplaceAllString(got, "$1")
		}
		if got != want {
			t.Errorf("%s: recorded, the panic prints\n%s\nplain, it prints\n%s", mode, got, want)
		}
	}
}

var (
	goroutineID = regexp.MustCompile(`goroutine \d+`)
	frameArgs   = regexp.MustCompile(`(?m)\([^()]*\)$`)
	codeOffset  = regexp.MustCompile(` \+0x[0-9a-f]+`)
	// literalFrame is the frame of the literal around go f(x)'s call,
	// the last before "created by".
	literalFrame = regexp.MustCompile(`main\.shapes\.func\d+\(\.\.\.\)\n\t[^\n]*\n(created by)`)
)

// panicOutput runs bin with mode and returns its standard error with the
// goroutine ids, argument values and code offsets blanked.
func panicOutput(t *testing.T, dir, bin, mode string, extra ...string) string {
	t.Helper()
	cmd := exec.Command(bin, mode)
	cmd.Dir, cmd.Env = dir, env(extra...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatalf("%s %s: no panic", bin, mode)
	}
	s := goroutineID.ReplaceAllString(stderr.String(), "goroutine N")
	s = frameArgs.ReplaceAllString(s, "(...)")
	return codeOffset.ReplaceAllString(s, "")
}

// TestEveryGoroutineOnTimeout runs testdata/endings' TestHang, which
// starts goroutines that say "started N" until the binary's -test.timeout
// kills it, 20 times: every goroutine that said it started must be in the
// trace, completed from its arena, which says the run ended by a timeout
// and the test's result is one.
func TestEveryGoroutineOnTimeout(t *testing.T) {
	t.Parallel()
	p := prepare(t, "endings", false)
	bin := filepath.Join(p.dir, "endings.test")
	goCmd(t, p.dir, "test", "-c", "-overlay="+filepath.Join(p.dir, ".divergo", "overlay.json"), "-o", bin, ".")
	for run := range 20 {
		tr := filepath.Join(t.TempDir(), "run.dvt")
		cmd := exec.Command(bin, "-test.run", "^TestHang$", "-test.timeout", "1s")
		cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+tr)
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		if err := cmd.Run(); err == nil {
			t.Fatalf("run %d: the test binary did not time out", run)
		}
		var started []int
		for l := range strings.Lines(stdout.String()) {
			if s, ok := strings.CutPrefix(strings.TrimSpace(l), "started "); ok {
				n, _ := strconv.Atoi(s)
				started = append(started, n)
			}
		}
		r, err := trace.Open(tr)
		if err != nil {
			t.Fatal(err)
		}
		if e := r.Ending(); e.Kind != trace.EndTimeout || r.Truncated() {
			t.Errorf("run %d: ending %v, truncated %v; want a timeout, complete", run, e, r.Truncated())
		}
		in := map[uint32]bool{}
		var root trace.GoroutineInfo
		for _, gi := range r.Goroutines() {
			if gi.Test == "TestHang" {
				root = gi
			}
		}
		for _, gi := range r.Goroutines() {
			if gi.Parent == root.ID && root.ID != 0 {
				in[gi.Ordinal] = true
			}
		}
		r.Close()
		if root.Result != trace.TestTimeout {
			t.Errorf("run %d: TestHang's result %v, want timeout", run, root.Result)
		}
		if len(started) == 0 {
			t.Errorf("run %d: no goroutine said it started", run)
		}
		for _, n := range started {
			if !in[uint32(n)] {
				t.Errorf("run %d: goroutine %d said it started and is not in the trace", run, n)
			}
		}
	}
}
