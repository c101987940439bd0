package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFlakyReplay: for each test of testdata/flaky whose outcome the order
// of its sync operations decides, divergo test keeps a failing run, its
// schedule and a passing run below the directory it ran in, and the rerun
// it prints, run as printed from that directory, fails again at least 9
// times in 10 by replaying the failing run's order (DIVERGO_REPLAY); each
// failure mode of TestFakeClockTicks's rerun fails the way it did. The
// printed divergo diff works too. TestMapOrder (map order), TestTimeout
// and TestBatchDeadline (deadlines) are decided by no order of sync
// operations and are left out. TestPollCancel (a ticker racing a context
// cancel) is decided by which of two ready cases its select takes: the
// replay forces the clause the failing run's select chose
// (runtime/selforce.go). For it and for TestPoolNilTask (a pool whose nil task makes a worker exit), each
// failure mode has separators of its own, the statement that decides
// among its first three. Not in parallel: the tests it needs flaky fail by
// timers of 10 and 20 ms too (e2e's doc).
func TestFlakyReplay(t *testing.T) {
	dir := setup(t, "flaky", false)
	ordered := "^(TestSendClose|TestGroupForget|TestFakeClockTicks|TestCompletionOrder|TestLostWakeup|TestWaitGroupAdd|TestPoolNilTask|TestPollCancel)$"
	// The statement each mode of the real shapes turns on: the pool's
	// full check, the select between the tick and the cancel.
	deciding := map[string]string{"TestPoolNilTask": "pool.go:38", "TestPollCancel": "poll.go:16"}
	status, stdout, stderr := divergo(t, dir, "test", "-n", "20", "-run", ordered, "-json", ".")
	if status != 1 {
		t.Fatalf("divergo test: status %d, want 1 (flaky)\n%s\n%s", status, stdout, stderr)
	}
	var rep struct {
		Flaky []struct {
			Name, Kept, Rerun, Diff, ReplayError string
			ModeReruns                           []string `json:"mode_reruns"`
			Modes                                []struct {
				Where      string
				Separators []struct{ Pos string }
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("divergo test -json: %v\n%s", err, stdout)
	}
	found := map[string]bool{}
	for _, f := range rep.Flaky {
		found[f.Name] = true
		if f.ReplayError != "" {
			t.Errorf("%s: no schedule: %s", f.Name, f.ReplayError)
		}
		if !strings.Contains(f.Rerun, "DIVERGO_REPLAY=") || !strings.HasPrefix(f.Kept, "divergo-test"+string(filepath.Separator)) {
			t.Errorf("%s: rerun %q kept in %q: want a replay, below the working directory", f.Name, f.Rerun, f.Kept)
			continue
		}
		if pos, ok := deciding[f.Name]; ok {
			for _, m := range f.Modes {
				top := m.Separators[:min(3, len(m.Separators))]
				if !slices.ContainsFunc(top, func(s struct{ Pos string }) bool { return strings.HasSuffix(s.Pos, pos) }) {
					t.Errorf("%s, failure mode %s: first separators %v, want %s among them", f.Name, m.Where, top, pos)
				}
			}
		}
		if f.Name == "TestPollCancel" && !forcesSelect(t, filepath.Join(dir, f.Kept)) {
			t.Errorf("%s: its kept schedule gives no select clause to force", f.Name)
		}
		n, least := 10, 9
		failed, out := rerun(t, dir, f.Rerun, n, "")
		t.Logf("%s: the rerun failed %d of %d times", f.Name, failed, n)
		if failed < least {
			t.Errorf("%s: the rerun failed %d of %d times, want %d or more\n%s\nits last output:\n%s", f.Name, failed, n, least, f.Rerun, out)
		}
		if reruns, _ := filepath.Glob(filepath.Join(dir, f.Kept, "rerun-*.dvt")); len(reruns) == 0 {
			t.Errorf("%s: the rerun left no trace in %s", f.Name, f.Kept)
		}
		if len(f.ModeReruns) > 0 && len(f.ModeReruns) != len(f.Modes) {
			t.Errorf("%s: %d reruns for %d failure modes", f.Name, len(f.ModeReruns), len(f.Modes))
		}
		if f.Name == "TestFakeClockTicks" {
			for i, r := range f.ModeReruns {
				failed, out := rerun(t, dir, r, 10, f.Modes[i].Where)
				t.Logf("%s, failure mode %s: the rerun failed so %d of 10 times", f.Name, f.Modes[i].Where, failed)
				if failed < 9 {
					t.Errorf("%s: the rerun of the failure at %s failed so %d of 10 times, want 9 or more\n%s\nits last output:\n%s", f.Name, f.Modes[i].Where, failed, r, out)
				}
			}
		}
		diff := exec.Command("bash", "-c", f.Diff)
		diff.Dir, diff.Env = dir, env()
		dout, err := diff.CombinedOutput()
		if err != nil && diff.ProcessState.ExitCode() > 1 || !bytes.Contains(dout, []byte(".dvt and pass-")) {
			t.Errorf("%s: %s: %v\n%s", f.Name, f.Diff, err, dout)
		}
		// The suggested diff is of the flaky test's goroutines alone: the
		// runs record every test of the package, and another test's
		// parting once came first.
		if i := bytes.Index(dout, []byte("first parted")); i >= 0 {
			if line, _, _ := bytes.Cut(dout[i:], []byte("\n")); !bytes.Contains(line, []byte(f.Name)) {
				t.Errorf("%s: the suggested diff first parted elsewhere: %s", f.Name, line)
			}
		}
	}
	for _, name := range []string{"TestSendClose", "TestGroupForget", "TestFakeClockTicks", "TestPoolNilTask", "TestPollCancel"} {
		if !found[name] {
			t.Errorf("%s not reported flaky:\n%s", name, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "divergo-test", "latest", "TestSendClose")); err != nil {
		t.Errorf("the runs are not kept where divergo test ran: %v", err)
	}
}

// rerun runs the shell command line n times in dir and counts the runs
// that failed (and, when where is not "", printed it: the failure at that
// line); it returns the last run's output.
func rerun(t *testing.T, dir, line string, n int, where string) (int, string) {
	t.Helper()
	failed := 0
	var out []byte
	for range n {
		cmd := exec.Command("bash", "-c", line)
		cmd.Dir, cmd.Env = dir, env()
		var err error
		out, err = cmd.CombinedOutput()
		if err != nil && (where == "" || bytes.Contains(out, []byte(where))) {
			failed++
		}
	}
	return failed, string(out)
}

// forcesSelect reports whether a schedule kept in dir has a turn that
// forces a select's clause ("G K C", docs/FORMAT.md).
func forcesSelect(t *testing.T, dir string) bool {
	t.Helper()
	scheds, _ := filepath.Glob(filepath.Join(dir, "fail-*.sched"))
	for _, p := range scheds {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		_, turns, _ := strings.Cut(string(data), "\nturns\n")
		for _, l := range strings.Split(turns, "\n") {
			if len(strings.Fields(l)) == 3 {
				return true
			}
		}
	}
	return false
}
