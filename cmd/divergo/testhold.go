package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Whether a rerun holds its failure. The rerun line replays the failing
// run's schedule, which holds an outcome the sync operations decide; one
// that a data race between two of them decides, or I/O, or the clock, or
// the map's order, the replay does not hold, and a user who runs the line
// sees a pass and cannot tell whether the line is wrong or the failure
// rare. So divergo test makes each flaky test's rerun holdTries times
// itself, with the test binary it built (what the line's go test builds),
// and says how many failed again, and when none did, that the rerun
// cannot hold the failure.

// holdTries is how many times a rerun is made. Three: a rerun that holds
// fails in all (e2e's replay tests want 9 of 10 and see 10 of 10), and
// one that does not shows in the first tries; more would lengthen every
// invocation that found a flaky test by as many runs of it.
const holdTries = 3

// holdLong is how long a try may take for the next one to be made: a
// failure that is a hang (a deadlock, until the test binary's timeout)
// costs one try, as long as one of the runs, not three.
const holdLong = 30 * time.Second

// checkReruns makes the rerun of each flaky test of rep, the report of
// package p's runs, holdTries times (once when a try takes longer than
// holdLong), and notes how many failed.
func (s *suite) checkReruns(rep *testReport, p *testPackage) error {
	out := filepath.Join(s.dir, "rerun-check.dvt")
	defer os.Remove(out)
	for _, ft := range rep.Flaky {
		if ft.rerunEnv == nil {
			continue
		}
		args := holdArgs(ft.Name, rep.testArgs)
		env := append(os.Environ(), ft.rerunEnv...)
		env = append(env, "DIVERGO_TRACE="+out)
		for range holdTries {
			cmd := exec.Command(p.bin, args...)
			cmd.Dir, cmd.Env = p.Dir, env
			start := time.Now()
			err := cmd.Run()
			long := time.Since(start) > holdLong
			var ee *exec.ExitError
			switch {
			case err == nil:
			case errors.As(err, &ee):
				ft.RerunFails++
			default:
				return fmt.Errorf("rerunning %s: %w", ft.Name, err)
			}
			ft.RerunTries++
			if long {
				break
			}
		}
	}
	return nil
}

// holdArgs are the test binary's flags of the rerun of test name: the
// test alone, once, with the user's flags after --.
func holdArgs(name string, testArgs []string) []string {
	args := []string{"-test.run=^" + regexp.QuoteMeta(name) + "$", "-test.count=1"}
	if !slices.ContainsFunc(testArgs, func(a string) bool { return strings.Contains(a, "test.timeout") }) {
		args = append(args, defaultTestTimeout)
	}
	return append(args, testArgs...)
}

// holdLine says how the rerun held, "" when it was not made.
func holdLine(ft *flakyTest) string {
	switch {
	case ft.RerunTries == 0:
		return ""
	case ft.RerunFails == 0 && ft.RerunTries < holdTries:
		return fmt.Sprintf("the rerun passed in %d of %d tries, the last longer than %v, after which no more were made: it may not hold this failure", ft.RerunTries, ft.RerunTries, holdLong)
	case ft.RerunFails == 0:
		return fmt.Sprintf("the rerun cannot hold this failure: it passed in %d of %d tries, so what decided the failure is not in the schedule it replays (a data race between two sync operations, I/O, the clock or a map's order)", ft.RerunTries, ft.RerunTries)
	}
	return fmt.Sprintf("the rerun failed again in %d of %d tries", ft.RerunFails, ft.RerunTries)
}
