package e2e

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// diffAllProg is a program of TestDiffAll: one of the agreement test's
// (every real program and every program written for the line checks), or
// another the harness builds, with what its runs need.
type diffAllProg struct {
	agreementProg
	env []string // extra environment of its runs
}

// diffAllProgs is every program of the end-to-end suite that runs as a
// command. Left out: the programs recorded through their tests (counter,
// flaky, reexec) and cgoadd, which needs a C compiler.
func diffAllProgs() []diffAllProg {
	var ps []diffAllProg
	for _, p := range agreementProgs() {
		if p.name == "doubleselect" {
			// Enough iterations for a section list past the 60 chunks at
			// which diff once panicked (7,500 sections in one goroutine
			// pair), few enough for perturbation's sleeps.
			p.args = []string{"-n", "10000"}
		}
		ps = append(ps, diffAllProg{agreementProg: p})
	}
	for _, name := range append(diffPrograms,
		"ctxcancel", "leak", "leakmutex", "once", "oncevalue", "selectspawn",
		"sites", "spawncount", "mapfill", "packloops", "condlocker", "selectlines", "crawler",
		"pubsub", "dirwalk", "condqueue", "echoserver", "errfetch",
		"poolresults", "poolsem", "ratelimit", "ratelimitburst", "ctxpipeline", "ctxfanout",
		"syncmapcache", "rwcache", "httphandlers", "httpshutdown") {
		ps = append(ps, diffAllProg{agreementProg: agreementProg{name: name}})
	}
	// Go ends it, "all goroutines are asleep", once it deadlocked.
	ps = append(ps, diffAllProg{agreementProg: agreementProg{name: "deadlock"}})
	return ps
}

// TestDiffAll records two runs of every program of the end-to-end suite
// under two perturbation seeds and diffs them as text, as JSON, as an HTML
// page and as a three-run matrix: each exits 0 (the same paths) or 1
// (different ones), never 2, and nothing panics. The programs are the
// commands of one module, instrumented and built by one command each
// (sharedCorpus): built one module each, they took eight minutes.
func TestDiffAll(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs every end-to-end program")
	}
	dir := sharedCorpus(t).dir
	for _, p := range diffAllProgs() {
		t.Run(p.name, func(t *testing.T) {
			built := builtReal(t, p.name)
			run, bin := built.dir, built.bin
			out := t.TempDir()
			a, b := filepath.Join(out, "run-1.dvt"), filepath.Join(out, "run-2.dvt")
			recordSeed(t, run, bin, p.args, a, 1, p.env)
			recordSeed(t, run, bin, p.args, b, 2, p.env)
			page := filepath.Join(out, "diff.html")
			for _, c := range []struct {
				name string
				args []string
			}{
				{"text", []string{a, b}},
				{"JSON", []string{"-json", a, b}},
				{"HTML", []string{"-html", page, a, b}},
				{"matrix", []string{a, b, a}},
			} {
				status, stdout, stderr := divergo(t, dir, append([]string{"diff"}, c.args...)...)
				if c.name == "text" {
					t.Logf("%s", strings.SplitN(stdout, "\n", 2)[0])
				}
				if status != 0 && status != 1 || strings.Contains(stdout+stderr, "panic:") || stdout == "" {
					t.Errorf("divergo diff (%s): status %d, want 0 or 1\nstderr:\n%s\nstdout:\n%.600s", c.name, status, stderr, stdout)
				}
			}
			if fi, err := os.Stat(page); err != nil || fi.Size() == 0 {
				t.Errorf("divergo diff -html wrote no page: %v", err)
			}
		})
	}
}

// setupCorpus makes one module of progs in dir: the first real program at
// its root (setupRealIn's module), every other in a directory of its name.
func setupCorpus(t *testing.T, dir string, progs []diffAllProg) {
	t.Helper()
	setupRealIn(t, dir, realProgs[0].name)
	for _, p := range progs {
		if p.name == realProgs[0].name {
			continue
		}
		src := filepath.Join(repoRoot, "testdata", p.name)
		if p.real {
			src = filepath.Join("testdata", "real", p.name)
		}
		files, err := filepath.Glob(filepath.Join(src, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s (%v)", src, err)
		}
		if err := os.Mkdir(filepath.Join(dir, p.name), 0o777); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				copyFile(t, f, filepath.Join(dir, p.name, filepath.Base(f)))
			}
		}
	}
}

// recordSeed runs bin once with DIVERGO_PERTURB=seed, recording into tr,
// whatever its exit status; the run must end within two minutes and leave
// a trace.
func recordSeed(t *testing.T, dir, bin string, args []string, tr string, seed int, extra []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = env(append([]string{"DIVERGO_TRACE=" + tr, fmt.Sprintf("DIVERGO_PERTURB=%d", seed)}, extra...)...)
	outb, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && (!errors.As(err, &ee) || ctx.Err() != nil) {
		t.Fatalf("seed %d: %v\n%.600s", seed, err, outb)
	}
	if err != nil {
		t.Logf("seed %d: %v", seed, err)
	}
	if _, err := os.Stat(tr); err != nil {
		t.Fatalf("seed %d left no trace: %v\n%.600s", seed, err, outb)
	}
}
