package e2e

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestPanic checks that an instrumented program that panics reports the
// original file and line, and that its trace is complete: every event up
// to the panic, and an exit for each function the panic unwound.
func TestPanic(t *testing.T) {
	t.Parallel()
	p := corpusProgram(t, "panics")
	tr := filepath.Join(t.TempDir(), "run.dvt")
	cmd := exec.Command(p.bin)
	cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+tr)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("want a panic (exit status 2), got %v\n%s", err, stderr.Bytes())
	}
	if !strings.Contains(stderr.String(), "panic: negative: -1") {
		t.Errorf("no panic message:\n%s", stderr.Bytes())
	}
	// Line 13 of testdata/panics/main.go holds the panic call.
	if want := filepath.Join(p.dir, "main.go") + ":13"; !strings.Contains(stderr.String(), want) {
		t.Errorf("the stack trace does not name %s:\n%s", want, stderr.Bytes())
	}
	r := readRun(t, tr, stdout.String())
	expect(t, "output", r.stdout, "3\n")
	r.checkTree(t)
	r.checkCalls(t)
	main := r.byID[1]
	expectSeq(t, "main", r.blocks(main), "main:entry main:split mustPositive:entry mustPositive:if.then")
	var exits []string
	for _, e := range main.evs {
		if e.Kind == trace.EvExit {
			exits = append(exits, r.blockName(e.Block))
		}
	}
	expect(t, "main's exits", strings.Join(exits, " "), "mustPositive:entry main:entry")
	lit := r.children("main$1")
	if len(lit) != 1 {
		t.Fatalf("%d children", len(lit))
	}
	expectSeq(t, "child", r.blocks(lit[0]), "main$1:entry mustPositive:entry mustPositive:if.done")
}
