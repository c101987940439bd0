package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRunLibrary checks that run and check on a package without main say
// in one line to use divergo test, instead of failing to execute a binary
// go build never wrote.
func TestRunLibrary(t *testing.T) {
	t.Parallel()
	dir := setup(t, "counter", false)
	for _, cmd := range []string{"run", "check"} {
		status, _, stderr := divergo(t, dir, cmd, ".")
		expect(t, "status of divergo "+cmd+" on a library", status, 2)
		line := strings.TrimSpace(stderr)
		if strings.Count(line, "\n") != 0 || !strings.Contains(line, "not a command") || !strings.Contains(line, "divergo test") {
			t.Errorf("divergo %s on a library: want one line pointing to divergo test, got:\n%s", cmd, stderr)
		}
	}
}

// TestTestsRunThemselves runs divergo test on a test that runs its own
// binary again (testdata/reexec, after x/sync's singleflight, whose two
// such tests divergo test called failed in every run): the child inherits
// DIVERGO_TRACE, and its trace used to replace the parent's. The parent's
// trace must say the test passed, and the child's go beside it.
func TestTestsRunThemselves(t *testing.T) {
	t.Parallel()
	dir := setup(t, "reexec", false)
	out := t.TempDir()
	status, stdout, stderr := divergo(t, dir, "test", "-n", "2", "-o", out, ".")
	if status != 0 || !strings.Contains(stdout, "no flaky test") || strings.Contains(stdout, "failed in every run") {
		t.Fatalf("divergo test: status %d, want 0 and every test passing\n%s%s", status, stdout, stderr)
	}
	_, show, _ := divergo(t, dir, "show", filepath.Join(out, "run-1.dvt"))
	if !strings.Contains(show, "TestPanicInChild pass") {
		t.Errorf("the parent's trace does not say TestPanicInChild passed:\n%s", show)
	}
	children, _ := filepath.Glob(filepath.Join(out, "run-1.child-*.dvt"))
	if len(children) != 1 {
		t.Fatalf("traces of run 1's child: %v, want one beside run-1.dvt", children)
	}
	if status, show, stderr := divergo(t, dir, "show", children[0]); status != 0 || !strings.Contains(show, "TestPanicInChild") {
		t.Errorf("divergo show of the child's trace: status %d\n%s%s", status, show, stderr)
	}
}

// TestCgo checks that a module with one file importing "C" instruments
// (that file left as it is, one warning), builds and records: the two
// goroutines that call into C are recorded under main, and the program's
// output is unchanged.
func TestCgo(t *testing.T) {
	t.Parallel()
	cc := strings.TrimSpace(goCmd(t, repoRoot, "env", "CC"))
	if _, err := exec.LookPath(cc); err != nil || strings.TrimSpace(goCmd(t, repoRoot, "env", "CGO_ENABLED")) != "1" {
		t.Skipf("no C compiler (%q) or cgo disabled: cgo cannot be tested here", cc)
	}
	dir := setup(t, "cgoadd", false)
	status, _, stderr := divergo(t, dir, "instrument", "./...")
	expect(t, "status of instrument", status, 0)
	if n := strings.Count(stderr, "divergo: warning: add.go: uses cgo; not instrumented"); n != 1 {
		t.Errorf("want one cgo warning for add.go, got %d:\n%s", n, stderr)
	}
	if strings.Contains(stderr, "main.go") {
		t.Errorf("main.go should be instrumented without a warning:\n%s", stderr)
	}
	bin := filepath.Join(dir, "prog")
	goCmd(t, dir, "build", "-overlay="+filepath.Join(dir, ".divergo", "overlay.json"), "-o", bin, ".")
	r := (&program{dir: dir, bin: bin}).run(t)
	expect(t, "program output", r.stdout, "sums 10 11\n")
	var paths []string
	for _, g := range r.gs {
		paths = append(paths, g.Path)
	}
	expect(t, "goroutines", strings.Join(paths, " "), "main main/main$1@main.go:19#1 main/main$1@main.go:19#2")
}

// TestTestsRecorded runs the tests of testdata/counter (a test, parallel
// subtests, a skipped test, an external test package, a synctest bubble,
// recorded outside the bubble only) with the overlay and
// DIVERGO_TRACE, and requires every test and subtest to be a root named by
// its test, with what it spawned under it and its result; then a failing
// and a panicking test, one that timed out, and the tests under a TestMain
// that returns.
func TestTestsRecorded(t *testing.T) {
	t.Parallel()
	dir := setup(t, "counter", false)
	status, _, stderr := divergo(t, dir, "instrument", "./...")
	expect(t, "status of instrument", status, 0)
	overlay := "-overlay=" + filepath.Join(dir, ".divergo", "overlay.json")
	bin := filepath.Join(dir, "counter.test")
	goCmd(t, dir, "test", "-c", overlay, "-o", bin, ".")
	if strings.Contains(stderr, "warning") {
		t.Errorf("instrument warned:\n%s", stderr)
	}

	var tr string
	runTests := func(fail string, args ...string) *run {
		t.Helper()
		tr = filepath.Join(t.TempDir(), "tests.dvt")
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = dir, env("DIVERGO_TRACE="+tr, "COUNTER_FAIL="+fail)
		out, err := cmd.CombinedOutput()
		if (err != nil) != (fail != "") {
			t.Fatalf("test binary with COUNTER_FAIL=%q: %v\n%s", fail, err, out)
		}
		return readRun(t, tr, "")
	}
	results := func(r *run) string {
		var b strings.Builder
		for _, g := range r.gs {
			b.WriteString(g.Path)
			if g.Test != "" {
				b.WriteString(" " + g.Result.String())
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	r := runTests("")
	expect(t, "goroutines of the tests", results(r), `TestBubble pass
TestCount pass
TestCount > Count$1@counter.go:17#1
TestCount > Count$1@counter.go:17#2
TestCount > Count$1@counter.go:17#3
TestExternal pass
TestExternal > TestExternal$1@external_test.go:11#1
TestExternal > TestExternal$1@external_test.go:11#1/Count$1@counter.go:17#1
TestExternal > TestExternal$1@external_test.go:11#1/Count$1@counter.go:17#2
TestFails skip
TestHangs skip
TestSizes pass
TestSizes/size=1 pass
TestSizes/size=1 > Count$1@counter.go:17#1
TestSizes/size=4 pass
TestSizes/size=4 > Count$1@counter.go:17#1
TestSizes/size=4 > Count$1@counter.go:17#2
TestSizes/size=4 > Count$1@counter.go:17#3
TestSizes/size=4 > Count$1@counter.go:17#4
TestSkipped skip
`)
	_, show, _ := divergo(t, dir, "show", tr)
	if want := "tests:      TestBubble pass, TestCount pass, TestExternal pass, TestFails skip, TestHangs skip, TestSizes pass, TestSizes/size=1 pass, TestSizes/size=4 pass, TestSkipped skip\n"; !strings.Contains(show, want) {
		t.Errorf("divergo show does not list the tests' results %q:\n%s", want, show)
	}
	r = runTests("fail", "-test.run", "^TestFails$")
	expect(t, "a failing test", results(r), "TestFails fail\nTestFails > Count$1@counter.go:17#1\nTestFails > Count$1@counter.go:17#2\n")
	r = runTests("panic", "-test.run", "^TestFails$")
	expect(t, "a panicking test", results(r), "TestFails panic\n")
	r = runTests("hang", "-test.run", "^TestHangs$", "-test.timeout", "1s")
	expect(t, "a test that timed out", results(r), "TestHangs timeout\n")

	// A TestMain of the user's that returns (Go 1.15+): its return
	// completes the trace (readRun refuses a truncated one).
	write(t, filepath.Join(dir, "main_test.go"), []byte("package counter_test\n\nimport \"testing\"\n\nfunc TestMain(m *testing.M) {\n\tm.Run()\n}\n"))
	if status, _, stderr := divergo(t, dir, "instrument", "./..."); status != 0 {
		t.Fatalf("instrument with a TestMain: status %d\n%s", status, stderr)
	}
	goCmd(t, dir, "test", "-c", overlay, "-o", bin, ".")
	r = runTests("", "-test.run", "^TestCount$")
	expect(t, "tests under a TestMain that returns", results(r), "TestCount pass\nTestCount > Count$1@counter.go:17#1\nTestCount > Count$1@counter.go:17#2\nTestCount > Count$1@counter.go:17#3\nmain\n")
}

// TestFlaky runs divergo test -n 40 on testdata/flaky, its flaky tests
// after known classes of Go concurrency bugs, and requires each reported
// flaky with the statement that decides its outcome among its first three
// separators (a test not flaky in 40 runs gets 40 more, once); then
// TestDeterministic alone: nothing reported, status 0.
func TestFlaky(t *testing.T) {
	dir := setup(t, "flaky", false)
	// The statement that decides each test's outcome.
	deciding := map[string][]string{
		"TestSendClose":       {"flaky_test.go:23"},                                    // the producer's look at the closed flag
		"TestWaitGroupAdd":    {"flaky_test.go:59"},                                    // Wait returned before the workers' Add
		"TestLostWakeup":      {"flaky.go:33", "flaky_test.go:73"},                     // WaitSet's check, the test's select
		"TestCompletionOrder": {"flaky_test.go:95"},                                    // who appended first
		"TestMapOrder":        {"flaky_test.go:104"},                                   // the map range
		"TestTimeout":         {"flaky_test.go:129"},                                   // worker or timer
		"TestFakeClockTicks":  {"clock.go:39", "clock_test.go:24", "clock_test.go:30"}, // the ticker registered or not; the selects
		"TestBatchDeadline":   {"batch_test.go:33"},                                    // the batch or the deadline
		"TestGroupForget":     {"group.go:24"},                                         // the map lookup the lock order decides
		"TestPoolNilTask":     {"pool.go:38"},                                          // the pool full, or a nil task's worker gone
		"TestPollCancel":      {"poll.go:16"},                                          // the select took the tick or the cancel
	}
	// How often each test fails depends on the machine's load (a timer
	// against a worker, a wake-up lost in a window of microseconds): a test
	// that failed in none or all of 40 runs gets 40 more under other seeds,
	// once.
	found := map[string]bool{}
	var stdout, stderr string
	for attempt, seed := range []string{"1", "41"} {
		var missing []string
		for name := range deciding {
			if !found[name] {
				missing = append(missing, regexp.QuoteMeta(name))
			}
		}
		if len(missing) == 0 {
			break
		}
		args := []string{"test", "-n", "40", "-seed", seed, "-json"}
		if attempt > 0 {
			args = append(args, "-run", "^("+strings.Join(missing, "|")+")$")
		}
		var status int
		status, stdout, stderr = divergo(t, dir, append(args, ".")...)
		if status != 1 && status != 0 {
			t.Fatalf("divergo test: status %d\n%s\n%s", status, stdout, stderr)
		}
		var rep struct {
			Flaky []struct {
				Name       string
				Failures   int
				Runs       int
				Separators []struct{ Pos string }
				FailSeeds  []int64 `json:"fail_seeds"`
				Rerun      string
			}
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("divergo test -json: %v\n%s", err, stdout)
		}
		for _, f := range rep.Flaky {
			want, ok := deciding[f.Name]
			if !ok {
				t.Errorf("%s reported flaky", f.Name)
				continue
			}
			found[f.Name] = true
			if f.Failures == 0 || f.Failures >= f.Runs || len(f.FailSeeds) != f.Failures {
				t.Errorf("%s: %d of %d runs failed, seeds %v", f.Name, f.Failures, f.Runs, f.FailSeeds)
			}
			if !strings.Contains(f.Rerun, "DIVERGO_PERTURB=") || !strings.Contains(f.Rerun, "-run '^"+f.Name+"$'") {
				t.Errorf("%s: rerun %q", f.Name, f.Rerun)
			}
			var top []string
			for i, s := range f.Separators {
				if i < 3 {
					top = append(top, s.Pos)
				}
			}
			ok = false
			for _, w := range want {
				for _, p := range top {
					ok = ok || strings.HasSuffix(p, w)
				}
			}
			if !ok {
				t.Errorf("%s: first separators %v, want one of %v", f.Name, top, want)
			}
		}
	}
	for name := range deciding {
		if !found[name] {
			t.Errorf("%s not reported flaky in 80 runs:\n%s", name, stdout)
		}
	}

	status, stdout, stderr := divergo(t, dir, "test", "-n", "5", "-run", "TestDeterministic", ".")
	if status != 0 || !strings.Contains(stdout, "no flaky test") {
		t.Errorf("a deterministic test: status %d\n%s\n%s", status, stdout, stderr)
	}
}

// TestCheckTests: divergo check -test runs a package's test binary under
// perturbed schedules and finds no hole on tests whose runs part (map order,
// a lost wake-up), with the command that reruns each interleaving.
func TestCheckTests(t *testing.T) {
	dir := setup(t, "flaky", false)
	// Eight runs: four never parted once in CI (TestMapOrder's three keys
	// came out in one order every time, and TestCompletionOrder's appends
	// too). Runs that never part print no interleaving to rerun.
	status, out, errs := divergo(t, dir, "check", "-test", "-n", "8", "-run", "TestMapOrder|TestCompletionOrder", ".")
	if status != 0 {
		t.Fatalf("check -test: status %d, want 0\n%s%s", status, out, errs)
	}
	if !strings.Contains(out, "\nno hole: ") && !strings.Contains(out, "the runs never parted") {
		t.Errorf("check -test reports holes:\n%s", out)
	}
	parted := !strings.Contains(out, "the runs never parted")
	if parted && (!strings.Contains(out, "go test -count=1 -overlay=") || !strings.Contains(out, "-run 'TestMapOrder|TestCompletionOrder'")) {
		t.Errorf("no go test command to rerun an interleaving:\n%s", out)
	}
	if status, _, errs := divergo(t, dir, "check", "-run", "TestMapOrder", "."); status != 2 || !strings.Contains(errs, "give -test") {
		t.Errorf("-run without -test: status %d, stderr %q", status, errs)
	}
}
