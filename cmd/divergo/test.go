package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/divergo/divergo/flaky"
	"github.com/divergo/divergo/instrument"
	"github.com/divergo/divergo/internal/progress"
	"github.com/divergo/divergo/internal/trace"
)

func init() {
	register(&command{
		name:    "test",
		usage:   "divergo test [-n N] [-run RE] [-perturb=false] [-seed S] [-o DIR] [-json] [package] [-- testflags]",
		summary: "run a package's tests N times and say what separates failing runs of a flaky test from passing ones",
		help: `Test instruments the packages of the main module that the named package and
its tests link (reusing .divergo when nothing changed since it was written),
builds the package's test binary once with the overlay (go test -c),
and runs it N times, its trace in DIR/run-K.dvt. The runs mix schedules:
unperturbed runs take turns with runs perturbed under DIVERGO_PERTURB=S+K-1
(run K) at a strength (DIVERGO_PERTURB_STRENGTH, the percentage of sync
operations delayed; 50 to start). A strength under which some test failed
in every one of its first runs gives way to a quarter of it, and full
strength joins when no test failed at all, so that a flaky test stays
flaky; the report gives each test's failure rate under each schedule. The flags after -- go to the test binary
(-test.timeout=30s, -test.count=1 ...); the timeout is 10m, as go test's,
unless one is given. A test that timed out counts as failed.

A test is flaky when it passed in some runs and failed (or panicked, or did
not finish) in others. For each flaky test, test prints:

  - how many runs failed, and the failure messages, grouped;
  - when the test failed in several ways (the first failing line, t.Log
    lines left out, or a panic), each way with its own separators;
  - what separates failing from passing runs: the statements where the
    test's own goroutines went different ways in failing-vs-passing pairs
    of runs and not (or less often) in pairs of runs that ended alike,
    best separating first, then earliest; each with its line, what the
    failing and the passing side did there, and the goroutines;
  - the order of two sync operations on one object (lock against lock,
    send against receive ...) that separates failing from passing runs:
    both lines and goroutines, and how many runs of each side had it;
  - the sync sites whose waiting time differs most between failing and
    passing runs: each site's mean waiting time per run over the failing
    runs and over the passing ones (at most 12 of each);
  - the test's goroutines left unfinished at the end of failing runs
    (blocked, or still running when the test returned), with how many
    failing runs left each;
  - the seeds of the failing runs, and the command that reruns one.

The exit status is 0 when no test was flaky, 1 when one was, and 2 when the
package could not be instrumented, built or run (or has no tests).

Flags:
	-n N	number of runs (default 20, at least 2)
	-run RE	run only the tests matching RE (as go test -run)
	-perturb	perturb the schedule (default true; -perturb=false runs as is)
	-seed S	seed of the first run (default 1)
	-o DIR	keep the traces in DIR (default: a temporary directory, removed)
	-json	the same report as JSON

Example:

	divergo test -n 40 -run TestTransfer ./bank`,
		run: runTest,
	})
}

// testReport is what divergo test found, printed as text or JSON.
type testReport struct {
	Package string  `json:"package"`
	Runs    int     `json:"runs"`
	Seeds   []int64 `json:"seeds"`
	// Perturbed says the runs perturbed their schedules (DIVERGO_PERTURB
	// set to the run's seed).
	Perturbed bool         `json:"perturbed"`
	Flaky     []*flakyTest `json:"flaky"`
	// Strengths are the runs' schedules: the percentage of sync
	// operations perturbed, 0 for an unperturbed run.
	Strengths []int `json:"strengths"`
	// Failed are the tests that failed in every run they ran in.
	Failed []*failedTest `json:"failed,omitempty"`
	// Died are the runs the test binary did not finish: a panic (which
	// ends every test of the binary) or a timeout; the tests after it did
	// not run.
	Died []diedRun `json:"died,omitempty"`
}

// diedRun is a run of the test binary that ended early.
type diedRun struct {
	Run      int    `json:"run"`
	Seed     int64  `json:"seed"`
	Strength int    `json:"strength"` // its schedule: 0 unperturbed, else percent perturbed
	Why      string `json:"why"`      // the first line of the panic, or the exit status
}

// flakyTest is one test that both passed and failed.
type flakyTest struct {
	Name      string               `json:"name"`
	Runs      int                  `json:"runs"`
	Failures  int                  `json:"failures"`
	Schedules []flaky.Rate         `json:"schedules"` // the failure rate under each schedule
	Messages  []flaky.MessageCount `json:"messages"`
	*flaky.Report
	FailSeeds []int64 `json:"fail_seeds"`
	Rerun     string  `json:"rerun"`
}

// failedTest is a test that failed in every run it ran in.
type failedTest struct {
	Name      string               `json:"name"`
	Schedules []flaky.Rate         `json:"schedules"`
	Messages  []flaky.MessageCount `json:"messages"`
}

func runTest(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("test")
	n := fs.Int("n", 20, "number of runs")
	runRE := fs.String("run", "", "tests to run")
	perturb := fs.Bool("perturb", true, "perturb the schedule")
	seed := fs.Int64("seed", 1, "seed of the first run")
	keep := fs.String("o", "", "directory to keep the traces in")
	asJSON := fs.Bool("json", false, "JSON output")
	args, testArgs := splitProgramArgs(args)
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
	if *runRE != "" {
		if _, err := regexp.Compile(*runRE); err != nil {
			return 2, usageError("-run: %v", err)
		}
	}
	bin, pkgDir, cleanup, err := buildTestBinary(pkg, stderr)
	if err != nil {
		return 2, err
	}
	defer cleanup()
	tmp := filepath.Dir(bin)
	dir := *keep
	if dir == "" {
		dir = filepath.Join(tmp, "traces")
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return 2, fmt.Errorf("making the trace directory: %w", err)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return 2, err
	}

	rep := &testReport{Package: pkg, Runs: *n, Perturbed: *perturb}
	binArgs := []string{}
	if *runRE != "" {
		binArgs = append(binArgs, "-test.run="+*runRE)
	}
	if !slices.ContainsFunc(testArgs, func(a string) bool { return strings.Contains(a, "test.timeout") }) {
		// go test's default: a test binary run by itself has none, and a
		// hanging test would hang divergo test.
		binArgs = append(binArgs, "-test.timeout=10m")
	}
	binArgs = append(binArgs, testArgs...)
	// -test.v, last: passing tests print their t.Log messages too, which
	// tells a failing run's log lines from its failure.
	binArgs = append(binArgs, "-test.v=true")
	outcomes := map[string][]trace.TestResult{} // per test, per run (0: did not run or unfinished)
	outputs := make([]*flaky.Output, *n)
	plan := flaky.NewPlan(*perturb)
	paths := make([]string, *n)
	runs := progress.NewRuns(stderr, "divergo test", *n, true)
	for k := range paths {
		s := *seed + int64(k)
		rep.Seeds = append(rep.Seeds, s)
		paths[k] = filepath.Join(dir, fmt.Sprintf("run-%d.dvt", k+1))
		strength := plan.Next()
		rep.Strengths = append(rep.Strengths, strength)
		env := append([]string{"DIVERGO_TRACE=" + paths[k]}, perturbEnv(s, strength)...)
		var outBuf bytes.Buffer
		cmd := exec.Command(bin, binArgs...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = pkgDir, &outBuf, &outBuf
		cmd.Env = append(os.Environ(), env...)
		if err := cmd.Run(); err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				return 2, fmt.Errorf("running the tests of %s (run %d): %w", pkg, k+1, err)
			}
			if ee.ExitCode() != 1 { // 1: some test failed; testing ran them all
				why := fmt.Sprintf("exit status %d", ee.ExitCode())
				if i := strings.Index(outBuf.String(), "panic: "); i >= 0 {
					why, _, _ = strings.Cut(outBuf.String()[i:], "\n")
				}
				rep.Died = append(rep.Died, diedRun{Run: k + 1, Seed: s, Strength: strength, Why: why})
			}
		}
		r, err := trace.Open(paths[k])
		if err != nil {
			return 2, fmt.Errorf("run %d: %w (its output: %s)", k+1, err, firstLine(outBuf.String(), err))
		}
		failed := map[string]bool{}
		for _, g := range r.Goroutines() {
			if g.Test == "" {
				continue
			}
			if g.Result != trace.TestSkip {
				failed[g.Test] = g.Result != trace.TestPass
			}
			if outcomes[g.Test] == nil {
				outcomes[g.Test] = make([]trace.TestResult, *n)
			}
			outcomes[g.Test][k] = g.Result
		}
		r.Close()
		plan.Record(strength, failed)
		outputs[k] = flaky.ReadOutput(outBuf.String())
		runs.Done(k + 1)
	}
	runs.Stop()

	names := make([]string, 0, len(outcomes))
	for name := range outcomes {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		var fails, passes []int
		ran := 0
		for k, r := range outcomes[name] {
			switch r {
			case trace.TestPass:
				passes = append(passes, k)
				ran++
			case trace.TestFail, trace.TestPanic, trace.TestTimeout, 0:
				if r == 0 && !ranUnfinished(paths[k], name) {
					continue
				}
				fails = append(fails, k)
				ran++
			}
		}
		switch {
		case len(fails) > 0 && len(passes) == 0:
			failures := make([]flaky.Failure, len(fails))
			for i, k := range fails {
				failures[i] = outputs[k].Printed(name)
			}
			rep.Failed = append(rep.Failed, &failedTest{Name: name, Schedules: plan.Rates(name), Messages: messages(failures)})
			continue
		case len(fails) == 0 || len(passes) == 0:
			continue
		}
		logged := map[string]bool{}
		for _, k := range passes {
			outputs[k].Logged(name, logged)
		}
		failures := make([]flaky.Failure, len(fails))
		for i, k := range fails {
			failures[i] = outputs[k].Failure(name, logged)
		}
		ft, err := explainFlaky(name, paths, fails, failures, passes)
		if err != nil {
			return 2, fmt.Errorf("%s: %w", name, err)
		}
		ft.Runs = ran
		ft.Schedules = plan.Rates(name)
		for _, k := range fails {
			ft.FailSeeds = append(ft.FailSeeds, rep.Seeds[k])
		}
		ft.Rerun = rep.rerun(name, fails)
		rep.Flaky = append(rep.Flaky, ft)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return 2, err
		}
	} else if err := writeTestReport(stdout, rep); err != nil {
		return 2, err
	}
	if len(rep.Flaky) > 0 {
		return 1, nil
	}
	return 0, nil
}

// perturbEnv is the environment of a run of seed at strength.
func perturbEnv(seed int64, strength int) []string {
	switch strength {
	case flaky.Unperturbed:
		return nil
	case flaky.DefaultStrength: // the runtime's, unset
		return []string{"DIVERGO_PERTURB=" + strconv.FormatInt(seed, 10)}
	}
	return []string{"DIVERGO_PERTURB=" + strconv.FormatInt(seed, 10), "DIVERGO_PERTURB_STRENGTH=" + strconv.Itoa(strength)}
}

// rerun is the command that runs test name again as in one of the failing
// runs fails (indexes): a perturbed one if there is one, whose seed
// decides the perturbation.
func (rep *testReport) rerun(name string, fails []int) string {
	k := fails[0]
	for _, f := range fails {
		if rep.Strengths[f] != flaky.Unperturbed {
			k = f
			break
		}
	}
	env := strings.Join(perturbEnv(rep.Seeds[k], rep.Strengths[k]), " ")
	if env != "" {
		env += " "
	}
	return fmt.Sprintf("%sDIVERGO_TRACE=fail.dvt go test -count=1 -overlay=%s -run '^%s$' %s", env, overlayPath(), regexp.QuoteMeta(name), rep.Package)
}

// messages are the failure messages of failures, grouped by how the test
// failed, the most frequent way first.
func messages(failures []flaky.Failure) []flaky.MessageCount {
	var out []flaky.MessageCount
	for _, m := range flaky.GroupFailures(failures, nil) {
		out = append(out, m.Messages...)
	}
	return out
}

// ranUnfinished says whether test name started in the trace at path but
// has no result: the run ended (a timeout, a panic elsewhere) while it ran.
func ranUnfinished(path, name string) bool {
	r, err := trace.Open(path)
	if err != nil {
		return false
	}
	defer r.Close()
	for _, g := range r.Goroutines() {
		if g.Test == name && g.Result == 0 {
			return true
		}
	}
	return false
}

// explainFlaky compares the failing runs fails with the passing runs passes
// of test name.
func explainFlaky(name string, paths []string, fails []int, failures []flaky.Failure, passes []int) (*flakyTest, error) {
	var rs []*trace.Reader
	defer func() {
		for _, r := range rs {
			r.Close()
		}
	}()
	open := func(ks []int, failures []flaky.Failure) ([]*flaky.View, error) {
		var vs []*flaky.View
		for i, k := range ks {
			r, err := trace.Open(paths[k])
			if err != nil {
				return nil, err
			}
			rs = append(rs, r)
			if v, ok := flaky.ViewTest(r, name); ok {
				v.Run = k + 1
				if failures != nil {
					v.Failure = failures[i]
				}
				vs = append(vs, v)
			}
		}
		return vs, nil
	}
	fv, err := open(fails, failures)
	if err != nil {
		return nil, err
	}
	pv, err := open(passes, nil)
	if err != nil {
		return nil, err
	}
	rep, err := flaky.Explain(name, fv, pv)
	if err != nil {
		return nil, err
	}
	ft := &flakyTest{Name: name, Failures: len(fails), Report: rep}
	ft.Messages = messages(failures)
	return ft, nil
}

// goList asks the go command about pkg (format as go list -f).
func goList(pkg, format string) (string, error) {
	cmd := exec.Command("go", "list", "-f", format, pkg)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %s", pkg, firstLine(errOut.String(), err))
	}
	return strings.TrimSpace(out.String()), nil
}

// buildTestBinary instruments the module and builds pkg's test binary with
// the overlay (go test -c), in a temporary directory cleanup removes. It
// returns the binary and the package's directory, where go test runs it.
func buildTestBinary(pkg string, stderr io.Writer) (bin, pkgDir string, cleanup func(), err error) {
	root, err := moduleRoot()
	if err != nil {
		return "", "", nil, err
	}
	pkgDir, err = goList(pkg, "{{.Dir}}")
	if err != nil {
		return "", "", nil, err
	}
	if tests, _ := goList(pkg, "{{len .TestGoFiles}} {{len .XTestGoFiles}}"); tests == "0 0" {
		return "", "", nil, fmt.Errorf("%s has no test files", pkg)
	}
	pkgs, err := targetPackages(root, "", pkg, true)
	if err != nil {
		return "", "", nil, err
	}
	res, err := instrument.Instrument(instrument.Config{Dir: root, Patterns: pkgs, Linked: true})
	if err != nil {
		return "", "", nil, err
	}
	reportInstrument(res, stderr, stderr)
	tmp, err := os.MkdirTemp("", "divergo-test-")
	if err != nil {
		return "", "", nil, fmt.Errorf("making a directory for the test binary: %w", err)
	}
	cleanup = func() { os.RemoveAll(tmp) }
	bin = filepath.Join(tmp, "pkg.test")
	var out bytes.Buffer
	build := exec.Command("go", "test", "-c", "-overlay="+res.Overlay, "-o", bin, pkg)
	build.Stdout, build.Stderr = &out, &out
	if err := build.Run(); err != nil {
		cleanup()
		return "", "", nil, fmt.Errorf("building the tests of %s with the overlay: %s", pkg, firstLine(out.String(), err))
	}
	return bin, pkgDir, cleanup, nil
}
