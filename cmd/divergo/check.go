package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/divergo/divergo/analyzer"
	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/instrument"
	"github.com/divergo/divergo/internal/progress"
)

func init() {
	register(&command{
		name:    "check",
		usage:   "divergo check [-n N] [-seed S] [-o DIR] [-v] [-disable KINDS] [-test [-run RE]] [package] [-- args]",
		summary: "run a program under perturbed schedules and report divergences the analyzer missed",
		help: `Check tests the analysis on a program: it instruments and builds the named
main package (default ".") as run does, runs it N times with the schedule
perturbed by a different seed each time (DIVERGO_PERTURB=S+K-1 in run K), and
compares every run with the first.

Two runs may only part at a trace change point (TCP) the analyzer marked. A
divergent section that starts at a block without a TCP is unflagged: a
change point the analyzer missed. Check lists each such place with its
source line, how many of the N-1 comparisons showed it, and which
assumption of the analysis the runs broke there: the analyzer takes some
data to be the same in two runs by rules that each assume something (the
same input in both runs, a captured variable no one writes once a closure
has it, ... docs/SOUNDNESS.md), and check analyses the package again
without each rule in turn to see which the statement relied on. When none
did, the hole is an analyzer miss; when -disable planted it, it says so.
Then it summarises:
how many runs differed from the first, the flagged divergences by TCP kind,
lock-order differences, goroutines present in some runs only.

The program's own output is discarded unless -v is given. The exit status
is 1 when some divergence was unflagged, 0 when none was, and 2 when the
program could not be instrumented, built, run or read.

A run that shows nothing unflagged proves nothing about interleavings it
did not meet: raise -n, or try other seeds, for more.

Flags:
	-n N	number of runs (default 10, at least 2)
	-seed S	seed of the first run (default 1)
	-o DIR	keep the traces in DIR as run-K.dvt (default: a temporary directory, removed)
	-v	pass the program's standard output and error through
	-test	check the package's tests: build its test binary with the overlay
		(go test -c) and run it N times, each test a root of its own
	-run RE	with -test, the tests to run, as go test -run
	-disable KINDS
		analyse as if the analyzer missed these TCP kinds (comma-separated,
		e.g. branch,loop): plants a hole on purpose, to see check find it

Example:

	divergo check -n 20 ./cmd/server -- -port 0
	divergo check -disable branch ./testdata/fig1a   # a planted hole: exit 1`,
		run: runCheck,
	})
}

func runCheck(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("check")
	n := fs.Int("n", 10, "number of runs")
	seed := fs.Int64("seed", 1, "seed of the first run")
	keep := fs.String("o", "", "directory to keep the traces in")
	verbose := fs.Bool("v", false, "pass the program's output through")
	disable := fs.String("disable", "", "TCP kinds the analyzer should miss")
	tests := fs.Bool("test", false, "check the package's tests instead of its program")
	runRE := fs.String("run", "", "with -test: the tests to run (a go test -run pattern)")
	args, progArgs := splitProgramArgs(args)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2, err
	}
	if *n < 2 {
		return 2, usageError("-n must be at least 2 to compare runs, not %d", *n)
	}
	pkg, err := onePackage(pos)
	if err != nil {
		return 2, err
	}
	if *disable != "" {
		// The analyzer's flag is process-wide: set it for this
		// instrumentation only.
		if err := analyzer.Analyzer.Flags.Set("disable", *disable); err != nil {
			return 2, usageError("-disable: %v", err)
		}
		defer analyzer.Analyzer.Flags.Set("disable", "")
	}

	var (
		bin, runDir string
		cleanup     func()
	)
	if *tests {
		// The package's test binary, run as go test runs it: in the
		// package's directory, only the tests -run names, with go test's
		// default timeout.
		bin, runDir, err = buildTestBinary(pkg, stderr)
		if err != nil {
			return 2, err
		}
		cleanup = func() {} // the binary stays in .divergo for the next build
		testArgs := []string{"-test.timeout=10m"}
		if *runRE != "" {
			testArgs = append(testArgs, "-test.run="+*runRE)
		}
		progArgs = append(testArgs, progArgs...)
	} else {
		if *runRE != "" {
			return 2, usageError("-run selects tests: give -test too")
		}
		bin, cleanup, err = buildInstrumented(pkg, stderr)
		if err != nil {
			return 2, err
		}
	}
	defer cleanup()
	dir := *keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "divergo-check-"); err != nil {
			return 2, fmt.Errorf("making a directory for the traces: %w", err)
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o777); err != nil {
		return 2, fmt.Errorf("making the trace directory: %w", err)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return 2, fmt.Errorf("making the trace directory: %w", err)
	}

	progOut, progErr := io.Discard, io.Discard
	if *verbose {
		progOut, progErr = stdout, stderr
	}
	paths := make([]string, *n)
	seeds := make([]int64, *n)
	codes := make([]int, *n)
	outs := make([]*tailWriter, *n) // each run's last output: its panic
	// With -v the program writes to the terminal too: a line redrawn
	// there would cut into its output.
	runs := progress.NewRuns(stderr, "divergo check", *n, !*verbose)
	for k := range paths {
		seeds[k] = *seed + int64(k)
		paths[k] = filepath.Join(dir, fmt.Sprintf("run-%d.dvt", k+1))
		env := []string{"DIVERGO_TRACE=" + paths[k], "DIVERGO_PERTURB=" + strconv.FormatInt(seeds[k], 10)}
		outs[k] = &tailWriter{max: 256 << 10}
		if codes[k], err = runProgramIn(runDir, bin, progArgs, env, nil, io.MultiWriter(progOut, outs[k]), io.MultiWriter(progErr, outs[k])); err != nil {
			runs.Stop()
			return 2, fmt.Errorf("running %s (run %d): %w", pkg, k+1, err)
		}
		runs.Done(k + 1)
	}
	runs.Stop()

	stop := progress.Start(stderr, "divergo check: comparing the runs", nil)
	c, err := compare.CheckRuns(paths, seeds)
	stop()
	if err != nil {
		return 2, err
	}
	c.Codes = codes
	if len(c.Holes) > 0 {
		if err := explainHoles(c, *tests, *disable, stderr); err != nil {
			explainNote(stderr, err)
		}
		attachPanics(c, outs)
	}
	// The binary goes with its temporary directory; the overlay stays.
	rerun := strings.Join(append([]string{"go", "run", "-overlay=" + overlayPath(), pkg}, progArgs...), " ")
	if *tests {
		rerun = "go test -count=1 -overlay=" + overlayPath()
		if *runRE != "" {
			rerun += " -run '" + *runRE + "'"
		}
		rerun += " " + pkg
	}
	if err := c.WriteText(stdout, compare.CheckTextOptions{Program: pkg, Root: sourceRoot(""), Kept: *keep != "", Rerun: rerun}); err != nil {
		return 2, err
	}
	if len(c.Holes) > 0 {
		return 1, nil
	}
	return 0, nil
}

// overlayPath is where instrument wrote the overlay of the module above
// the current directory.
func overlayPath() string {
	root, err := moduleRoot()
	if err != nil {
		return filepath.Join(instrument.OutDir, "overlay.json")
	}
	return filepath.Join(root, instrument.OutDir, "overlay.json")
}
