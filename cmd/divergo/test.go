package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/divergo/divergo/flaky"
	"github.com/divergo/divergo/internal/progress"
	"github.com/divergo/divergo/internal/trace"
)

func init() {
	register(&command{
		name:    "test",
		usage:   "divergo test [-n N] [-p P] [-run RE] [-perturb=false] [-seed S] [-o DIR] [-shard K/N] [-json] [packages] [-- testflags]\n       divergo test -explain [-json] DIR...",
		summary: "run the tests of packages N times and say what separates failing runs of a flaky test from passing ones",
		help: `Test instruments the packages of the main module that the named package and
its tests link (reusing .divergo when nothing changed since it was written),
builds the package's test binary once with the overlay (go test -c, kept
in .divergo/_test for the next run), and runs it N times, P at a time,
its trace in DIR/run-K.dvt. The runs mix schedules (-sched):
unperturbed runs take turns with runs controlled by divergo's scheduler
(DIVERGO_SCHED=pct:D, one goroutine at a time, chosen by priorities drawn
from the seed S+K-1 of run K) and runs perturbed under DIVERGO_PERTURB=S+K-1
at a strength (DIVERGO_PERTURB_STRENGTH, the percentage of sync
operations delayed; 50 to start). A strength under which some test failed
in every one of its first runs gives way to a quarter of it, and full
strength joins when no test failed at all, so that a flaky test stays
flaky; the report gives each test's failure rate under each schedule. The flags after -- go to the test binary
(-test.timeout=30s, -test.count=1 ...); the timeout is 10m, as go test's,
unless one is given. A test that timed out counts as failed. A run whose
trace passes 2 GB is stopped, and the report says so: its tests did not
finish, and the disk is not filled by -p runs of a test that records
without end.

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
  - ranked with those statements by how well it separates, the order of
    two sync operations on one object (lock against lock, send against
    receive ...) that separates failing from passing runs: both lines and
    goroutines, and how many runs of each side had it;
  - the sync sites whose waiting time differs most between failing and
    passing runs: each site's mean waiting time per run over the failing
    runs and over the passing ones (at most 12 of each);
  - the test's goroutines left unfinished at the end of failing runs
    (blocked, or still running when the test returned), with how many
    failing runs left each;
  - the seeds of the failing runs; a failing run and a passing run kept
    in divergo-test/ID/TEST below the working directory, ID a hash of
    the invocation's runs (divergo-test/latest links to the newest), so
    that an earlier report's commands keep working; the command that
    reruns the failing run, replaying the order of its sync operations
    (DIVERGO_REPLAY: each waits for its turn), so that a test decided by
    that order fails again; and the divergo diff of the two runs. Both
    commands work from the directory test ran in.

The packages may be any package pattern (./..., ./pool ./queue): the
packages of the main module that every test binary links are instrumented
once, the test binaries built side by side, and the runs of all packages
scheduled together, -p at a time, each package's schedules adapting to
its own outcomes. One package named gives its report as above, its traces
directly in -o DIR; several give one report grouped by package, in go
list's order, with a line for each package that has no test files or does
not build, then a line counting them; their traces go in DIR/<import path>.

The exit status is 0 when every test passed in all its runs, 1 when a test
was flaky or failed in every run, and 2 when a package could not be
instrumented, built or run (or, named alone, has no tests); a -shard
invocation, which reports nothing, exits 0 once its runs are made, 2 when
a package of its share did not build.

Flags:
	-n N	number of runs (default 20, at least 2)
	-p P	runs at a time (default GOMAXPROCS, the cores divergo may use).
		A run's schedule is chosen from the outcomes of the runs before
		it but the last P-1, which may still be running: -p 1 makes the
		runs one after another, each knowing every run before it
	-run RE	run only the tests matching RE (as go test -run)
	-perturb	perturb the schedule (default true; -perturb=false runs as is)
	-sched MODE	the schedule families (default mixed): mixed takes turns
		among unperturbed runs (one in four), controlled scheduling at
		PCT depth 2 (DIVERGO_SCHED=pct:D), by the sweep (one change
		point going through each test's first steps, run after run:
		DIVERGO_SCHED=sweep:I) and a random walk (DIVERGO_SCHED=walk),
		at depth 3, and delays; pct runs
		controlled families only, so that the same seeds give the same
		report; delays is unperturbed and delays only; plain, as is. A
		family under which no test failed in 9 runs, while some test
		failed under another, is stopped
	-budget M	go on after -n runs while no test has failed, up to M runs
	-seed S	seed of the first run (default 1)
	-o DIR	keep the traces in DIR (default: a temporary directory, removed),
		each run's record beside its trace (run-K.json: seed, schedule,
		how each test ended, the binary's output)
	-shard K/N	make only shard K of N of the runs, into -o DIR, and print
		no report: the K-th of N consecutive blocks of the runs (shard
		1/2 of -n 40 makes runs 1 to 20), each under the seed and
		schedule of that run of one invocation making all n; a shard
		adapts its strengths to its own runs only. Over several
		packages the runs are numbered package by package, n each,
		so that shards split the packages, and the runs of a package
		at a block's edge
	-explain	read the runs kept in the directories DIR... (of the
		shards of one invocation, or of one -o) and report on them as one
		invocation making them all; nothing is built or run. A suite's
		runs are grouped by package. Runs of another build or
		invocation, a run given twice and a run missing are refused
	-json	the same report as JSON

Examples:

	divergo test -n 40 -run TestTransfer ./bank

	# on two machines (a CI matrix: docs/ci-shards.yml), then on one
	divergo test -n 40 -shard 1/2 -o shard-1 ./bank
	divergo test -n 40 -shard 2/2 -o shard-2 ./bank
	divergo test -explain shard-1 shard-2`,
		run: runTest,
	})
}

// defaultTestTimeout is go test's timeout, which divergo test gives the
// test binary unless told another.
const defaultTestTimeout = "-test.timeout=10m"

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
	// Sweeps are the runs' indexes among the controlled sweep's runs,
	// plus one (0 for the other runs); none when no run was the sweep's.
	Sweeps []int `json:"sweeps,omitempty"`
	// Failed are the tests that failed in every run they ran in.
	Failed []*failedTest `json:"failed,omitempty"`
	// Died are the runs the test binary did not finish: a panic (which
	// ends every test of the binary) or a timeout; the tests after it did
	// not run.
	Died []diedRun `json:"died,omitempty"`
	// Alone are the runs made again alone, their first try beside other
	// runs having failed with an error only overlapping runs give.
	Alone []aloneRun `json:"alone,omitempty"`
	// testArgs are the flags given to the test binary after --, which a
	// rerun passes on (-test.cpu decides the schedule too).
	testArgs []string
	// keepSub is the directory below keepDir the flaky tests' runs are
	// kept in: "" for one package, the package's path in a suite.
	keepSub string
}

// diedRun is a run of the test binary that ended early.
type diedRun struct {
	Run      int    `json:"run"`
	Seed     int64  `json:"seed"`
	Strength int    `json:"strength"` // its schedule: 0 unperturbed, else percent perturbed
	Why      string `json:"why"`      // the first line of the panic, or the exit status
}

// aloneRun is a run made again alone, and the error it first failed with.
type aloneRun struct {
	Run   int    `json:"run"`
	Error string `json:"error"`
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
	// Kept is the directory a failing run and a passing run are kept in
	// (testkeep.go). Rerun runs the failing run again, replaying its
	// schedule (DIVERGO_REPLAY); Diff compares it with the passing run.
	Kept  string `json:"kept"`
	Rerun string `json:"rerun"`
	Diff  string `json:"diff"`
	// ModeReruns and ModeDiffs are the commands of a failing run of each
	// failure mode, when there are several.
	ModeReruns []string `json:"mode_reruns,omitempty"`
	ModeDiffs  []string `json:"mode_diffs,omitempty"`
	// ReplayError says why the rerun replays no schedule, when it does not.
	ReplayError string `json:"replay_error,omitempty"`
	// RerunTries is how many times divergo test made the rerun, and
	// RerunFails how many of them failed again (testhold.go); 0 tries:
	// not made (-explain).
	RerunTries int `json:"rerun_tries,omitempty"`
	RerunFails int `json:"rerun_fails"`
	rerunEnv   []string
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
	schedMode := fs.String("sched", flaky.ModeMixed, "schedule families: mixed, pct, delays or plain")
	budget := fs.Int("budget", 0, "runs to go on to while no test failed")
	seed := fs.Int64("seed", 1, "seed of the first run")
	keep := fs.String("o", "", "directory to keep the traces in")
	asJSON := fs.Bool("json", false, "JSON output")
	shardFlag := fs.String("shard", "", "make only shard K of N of the runs")
	explain := fs.Bool("explain", false, "explain the runs kept in directories")
	parallel := fs.Int("p", 0, "runs at a time")
	args, testArgs := splitProgramArgs(args)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2, err
	}
	if *explain {
		var others []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name != "explain" && f.Name != "json" {
				others = append(others, "-"+f.Name)
			}
		})
		if len(others) > 0 || len(testArgs) > 0 {
			return 2, usageError("-explain reads runs already made: it takes directories and -json, not %s", strings.Join(append(others, testArgs...), " "))
		}
		return explainDirs(pos, *asJSON, stdout)
	}
	sh := shard{K: 1, N: 1}
	if *shardFlag != "" {
		if sh, err = parseShard(*shardFlag); err != nil {
			return 2, err
		}
		if *keep == "" {
			return 2, usageError("-shard needs -o DIR, where -explain finds its runs")
		}
	}
	if *n < 2 {
		return 2, usageError("-n must be at least 2 to compare runs, not %d", *n)
	}
	if *parallel < 0 {
		return 2, usageError("-p must be at least 1, not %d", *parallel)
	}
	if err := checkBudget(*budget, *n, sh); err != nil {
		return 2, err
	}
	if _, err := newTestPlan(*schedMode, *perturb); err != nil {
		return 2, err
	}
	if *runRE != "" {
		if _, err := regexp.Compile(*runRE); err != nil {
			return 2, usageError("-run: %v", err)
		}
	}
	root, err := moduleRoot()
	if err != nil {
		return 2, err
	}
	if len(pos) == 0 {
		pos = []string{"."}
	}
	pkgs, err := listTestPackages(root, pos)
	if err != nil {
		return 2, err
	}
	// One package named keeps the report of one package, and its traces
	// directly in DIR; several are a suite.
	single := len(pkgs) == 1
	if single {
		if err := pkgs[0].unusable(); err != nil {
			return 2, err
		}
	}
	s := &suite{root: root, n: *n, seed: *seed, perturb: *perturb, sched: *schedMode, budget: *budget, sh: sh, flat: single, par: *parallel}
	if s.par < 1 {
		s.par = runtime.GOMAXPROCS(0)
	}
	if total := s.runCount(pkgs); sh.N > total {
		return 2, fmt.Errorf("-shard %s: more shards than the %d runs", sh, total)
	}
	res, err := instrumentTests(root, pkgs, stderr)
	if err != nil {
		return 2, err
	}
	if single {
		if err := pkgs[0].unusable(); err != nil {
			return 2, err
		}
	}
	if res != nil {
		s.overlay = res.Overlay
	}
	if s.dir, err = traceDir(*keep); err != nil {
		return 2, err
	}
	if *keep == "" {
		defer os.RemoveAll(s.dir)
	}
	s.binArgs = testBinaryArgs(*runRE, testArgs)
	prog := progress.NewRuns(stderr, "divergo test", s.mineRuns(pkgs), true)
	results := s.run(pkgs, prog)
	prog.Stop()
	if single {
		r := results[0]
		switch {
		case r.pkg.Broken != "":
			return 2, fmt.Errorf("building the tests of %s with the overlay: %s", r.pkg.Path, r.pkg.Broken)
		case r.err != nil:
			return 2, r.err
		}
	}
	if sh.N > 1 {
		return printShard(s, results, stdout)
	}
	if single {
		rep, err := reportRuns(results[0].recs, newKeepPlace(results[0].recs), "")
		if err != nil {
			return 2, err
		}
		if err := s.checkReruns(rep, results[0].pkg); err != nil {
			return 2, err
		}
		return printTestReport(rep, *asJSON, stdout)
	}
	return printSuiteReport(reportSuite(results), *asJSON, stdout)
}

// traceDir makes the directory the runs' traces go in: keep, or a
// temporary directory when keep is "" (the caller removes it).
func traceDir(keep string) (string, error) {
	dir := keep
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "divergo-test-"); err != nil {
			return "", fmt.Errorf("making the trace directory: %w", err)
		}
	} else if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", fmt.Errorf("making the trace directory: %w", err)
	}
	return filepath.Abs(dir)
}

// testBinaryArgs are the flags every run gives the test binary: -run's,
// go test's timeout unless testArgs (the user's, after --) give one, and
// -test.v.
func testBinaryArgs(runRE string, testArgs []string) []string {
	binArgs := []string{}
	if runRE != "" {
		binArgs = append(binArgs, "-test.run="+runRE)
	}
	if !slices.ContainsFunc(testArgs, func(a string) bool { return strings.Contains(a, "test.timeout") }) {
		// go test's default: a test binary run by itself has none, and a
		// hanging test would hang divergo test.
		binArgs = append(binArgs, defaultTestTimeout)
	}
	binArgs = append(binArgs, testArgs...)
	// -test.v, last: passing tests print their t.Log messages too, which
	// tells a failing run's log lines from its failure.
	return append(binArgs, "-test.v=true")
}

// printShard says what a -shard invocation made, and which of its
// packages did not build or could not be run (exit 2 then).
func printShard(s *suite, results []*suiteResult, stdout io.Writer) (int, error) {
	made, status := 0, 0
	for _, r := range results {
		made += len(r.recs)
		switch {
		case r.mine == 0:
		case r.pkg.Broken != "":
			fmt.Fprintf(stdout, "%s: does not build: %s\n", r.pkg.Path, r.pkg.Broken)
			status = 2
		case r.err != nil:
			fmt.Fprintf(stdout, "%s: its runs could not be made: %v\n", r.pkg.Path, r.err)
			status = 2
		}
	}
	pkgs := make([]*testPackage, len(results))
	for i, r := range results {
		pkgs[i] = r.pkg
	}
	fmt.Fprintf(stdout, "shard %s: %d of %d runs in %s; divergo test -explain DIR... explains every shard's directory together\n", s.sh, made, s.runCount(pkgs), s.dir)
	return status, nil
}

// explainDirs explains the runs kept in dirs (by -shard invocations, or
// one -o invocation) as one invocation making them all would: below each
// directory, a suite's runs are in a directory per package.
func explainDirs(dirs []string, asJSON bool, stdout io.Writer) (int, error) {
	if len(dirs) == 0 {
		return 2, usageError("-explain needs the directories the runs were kept in (-o DIR)")
	}
	recs, err := readRecordTree(dirs)
	if err != nil {
		return 2, err
	}
	byPkg := map[string][]*runRecord{}
	for _, rec := range recs {
		byPkg[rec.Package] = append(byPkg[rec.Package], rec)
	}
	if len(byPkg) == 1 {
		rep, err := explainPackage(recs, newKeepPlace(recs), "")
		if err != nil {
			return 2, err
		}
		return printTestReport(rep, asJSON, stdout)
	}
	sr := &suiteReport{}
	pl := newKeepPlace(recs)
	for _, path := range slices.Sorted(maps.Keys(byPkg)) {
		pr := &packageReport{Package: path}
		if pr.Report, err = explainPackage(byPkg[path], pl, keepSub(path)); err != nil {
			pr.Report, pr.Error = nil, err.Error()
		}
		sr.Packages = append(sr.Packages, pr)
	}
	return printSuiteReport(sr, asJSON, stdout)
}

// explainPackage explains the runs recs of one package, read from one or
// more directories, once they are checked to be the runs of one
// invocation of one program.
func explainPackage(recs []*runRecord, pl *keepPlace, keepSub string) (*testReport, error) {
	byRun, err := checkRecords(recs)
	if err != nil {
		return nil, err
	}
	// The program graph's main package tells apart two programs of one
	// module: the same-program check of divergo diff, on one trace of
	// each directory.
	var firsts []string
	seen := map[string]bool{}
	for _, rec := range byRun {
		if !seen[rec.dir] && rec.Graph != "" { // a run stopped at the trace cap left none
			seen[rec.dir] = true
			firsts = append(firsts, rec.tracePath())
		}
	}
	if err := sameProgramFiles(firsts); err != nil {
		return nil, err
	}
	return reportRuns(byRun, pl, keepSub)
}

// printTestReport prints rep as text or JSON; the status says whether a
// test was flaky or failed in every run.
func printTestReport(rep *testReport, asJSON bool, stdout io.Writer) (int, error) {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return 2, err
		}
	} else if err := writeTestReport(stdout, rep); err != nil {
		return 2, err
	}
	if len(rep.Flaky) > 0 || len(rep.Failed) > 0 {
		return 1, nil
	}
	return 0, nil
}

// reportRuns explains the runs recs, every run of one invocation in the
// order of their index, and keeps a failing and a passing run of each
// flaky test (testkeep.go) in the invocation's directory pl.
func reportRuns(recs []*runRecord, pl *keepPlace, keepSub string) (*testReport, error) {
	rep := &testReport{Package: recs[0].Package, Runs: len(recs), Perturbed: recs[0].Perturbed, testArgs: userTestArgs(recs[0].Args), keepSub: keepSub}
	// The failure rates by schedule count the runs again: a shard's plan
	// saw only its own.
	tally := flaky.NewPlan(false)
	outcomes := map[string][]string{} // per test, per run ("": did not run)
	outputs := make([]*flaky.Output, len(recs))
	paths := make([]string, len(recs))
	for k, rec := range recs {
		rep.Seeds = append(rep.Seeds, rec.Seed)
		rep.Strengths = append(rep.Strengths, rec.Strength)
		rep.Sweeps = append(rep.Sweeps, rec.Sweep)
		if rec.Died != "" {
			rep.Died = append(rep.Died, diedRun{Run: k + 1, Seed: rec.Seed, Strength: rec.Strength, Why: rec.Died})
		}
		if rec.Alone != "" {
			rep.Alone = append(rep.Alone, aloneRun{Run: k + 1, Error: rec.Alone})
		}
		for name, res := range rec.Tests {
			if outcomes[name] == nil {
				outcomes[name] = make([]string, len(recs))
			}
			outcomes[name][k] = res
		}
		tally.Record(rec.Strength, rec.failed())
		outputs[k] = flaky.ReadOutput(rec.Output)
		paths[k] = rec.tracePath()
	}

	if !slices.ContainsFunc(rep.Sweeps, func(i int) bool { return i > 0 }) {
		rep.Sweeps = nil
	}
	var kp *keeper
	for _, name := range slices.Sorted(maps.Keys(outcomes)) {
		var fails, passes []int
		for k, r := range outcomes[name] {
			switch r {
			case "", trace.TestSkip.String():
			case trace.TestPass.String():
				passes = append(passes, k)
			default: // fail, panic, timeout, unfinished
				fails = append(fails, k)
			}
		}
		switch {
		case len(fails) > 0 && len(passes) == 0:
			failures := make([]flaky.Failure, len(fails))
			for i, k := range fails {
				failures[i] = outputs[k].Printed(name)
			}
			rep.Failed = append(rep.Failed, &failedTest{Name: name, Schedules: tally.Rates(name), Messages: messages(failures)})
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
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		ft.Runs = len(fails) + len(passes)
		ft.Schedules = tally.Rates(name)
		for _, k := range fails {
			ft.FailSeeds = append(ft.FailSeeds, rep.Seeds[k])
		}
		if kp == nil {
			if kp, err = newKeeper(rep, pl, paths); err != nil {
				return nil, err
			}
		}
		if err := kp.keep(ft, fails, passes); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rep.Flaky = append(rep.Flaky, ft)
	}
	return rep, nil
}

// perturbEnv is the environment of a run of seed at strength; sweep is a
// sweep run's index plus one.
func perturbEnv(seed int64, strength, sweep int) []string {
	if flaky.IsControlled(strength) {
		return ctlEnv(seed, strength, sweep)
	}
	switch strength {
	case flaky.Unperturbed:
		return nil
	case flaky.DefaultStrength: // the runtime's, unset
		return []string{"DIVERGO_PERTURB=" + strconv.FormatInt(seed, 10)}
	}
	return []string{"DIVERGO_PERTURB=" + strconv.FormatInt(seed, 10), "DIVERGO_PERTURB_STRENGTH=" + strconv.Itoa(strength)}
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
