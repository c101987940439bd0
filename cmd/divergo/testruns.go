package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"

	"github.com/divergo/divergo/flaky"
)

// A testRun is one run of the test binary, started and not yet taken in.
//
// divergo test makes up to -p runs at a time (the cores: a short test's
// binary leaves most of one idle, starting, and a run's trace is read and
// its record written beside it). The plan still sees the outcomes in run
// order: the schedule of a run is chosen once all but the last p−1 runs
// before it are taken in, so that it depends on the outcomes and p, not
// on which run ended first.
type testRun struct {
	rec   *runRecord
	done  chan error
	ended chan struct{} // closed when the run ended and its record is written
}

// makeRuns makes the runs k of n that mine says are the shard's, up to par
// at a time, each started by start at the strength plan chooses, and
// returns their records in run order. done is told how many runs are
// taken in. Every shard asks the plan for every run's schedule, its own or
// not, so that run k gets the schedule of run k of one invocation making
// all n; the plan adapts to the shard's own outcomes only.
//
// Past n, up to budget, it goes on while no test has failed in a run
// taken in: whether it does depends on the outcomes and par only.
func makeRuns(plan *flaky.Plan, n, budget, par int, mine func(k int) bool, start func(k, strength int) *testRun, done func(int)) ([]*runRecord, error) {
	var (
		recs    []*runRecord
		started []*testRun // in run order, not yet taken in
	)
	defer func() {
		for _, r := range started { // an error left them: let them end before their traces go
			r.wait()
		}
	}()
	// takeIn waits for the earliest run started and gives its outcome to
	// the plan.
	takeIn := func() error {
		r := started[0]
		started = started[1:]
		if err := r.wait(); err != nil {
			return err
		}
		plan.Record(r.rec.Strength, r.rec.failed())
		recs = append(recs, r.rec)
		done(len(recs))
		return nil
	}
	for k := range max(n, budget) {
		for len(started) >= par {
			if err := takeIn(); err != nil {
				return nil, err
			}
		}
		if k >= n && plan.AnyFailed() {
			break
		}
		strength := plan.Next()
		if k >= n || mine(k) { // past n: the budget's, which has no shards
			started = append(started, start(k, strength))
		}
	}
	for len(started) > 0 {
		if err := takeIn(); err != nil {
			return nil, err
		}
	}
	return recs, nil
}

// startRun runs bin with args in dir under env, in a goroutine, and fills
// rec: how the binary ended, its output, what its trace says of each test;
// then writes the record beside the trace.
func startRun(bin string, args []string, dir string, env []string, rec *runRecord) *testRun {
	r := &testRun{rec: rec, done: make(chan error, 1), ended: make(chan struct{})}
	go func() {
		err := rec.run(bin, args, dir, env)
		close(r.ended)
		r.done <- err
	}()
	return r
}

// wait waits for the run to end and says why it could not be made.
func (r *testRun) wait() error { return <-r.done }

// maxTrace is the largest trace a run may write: a run whose trace grows
// past it is stopped, and its record says so. One package of
// client_golang wrote 6.5 GB per run, and -p of them at once filled the
// temporary directory's disk.
const maxTrace = 2 << 30

// traceCheckEvery is how often a run's trace size is looked at.
const traceCheckEvery = 250 * time.Millisecond

func (rec *runRecord) run(bin string, args []string, dir string, env []string) error {
	return rec.runCapped(bin, args, dir, env, maxTrace)
}

// runCapped runs bin as run does, stopping it when its trace passes
// limit bytes.
func (rec *runRecord) runCapped(bin string, args []string, dir string, env []string, limit int64) error {
	var out bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &out
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("running the tests of %s (run %d): %w", rec.Package, rec.Run, err)
	}
	var capped atomic.Bool
	stop := make(chan struct{})
	go func() {
		tick := time.NewTicker(traceCheckEvery)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if fi, err := os.Stat(rec.tracePath()); err == nil && fi.Size() > limit {
					capped.Store(true)
					cmd.Process.Kill()
					return
				}
			}
		}
	}()
	err := cmd.Wait()
	close(stop)
	if capped.Load() {
		// The trace ends mid-write: nothing in it can be read back.
		rec.Died = fmt.Sprintf("stopped: its trace passed the cap of %d MB per run", limit>>20)
		rec.Output = out.String()
		rec.Tests = map[string]string{}
		os.Remove(rec.tracePath())
		if err := rec.write(); err != nil {
			return fmt.Errorf("run %d: writing its record: %w", rec.Run, err)
		}
		return nil
	}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			return fmt.Errorf("running the tests of %s (run %d): %w", rec.Package, rec.Run, err)
		}
		if ee.ExitCode() != 1 { // 1: some test failed; testing ran them all
			rec.Died = fmt.Sprintf("exit status %d", ee.ExitCode())
			if i := strings.Index(out.String(), "panic: "); i >= 0 {
				rec.Died, _, _ = strings.Cut(out.String()[i:], "\n")
			}
		}
	}
	rec.Output = out.String()
	if err := rec.readTrace(); err != nil {
		return fmt.Errorf("run %d: %w (its output: %s)", rec.Run, err, firstLine(out.String(), err))
	}
	if err := rec.write(); err != nil {
		return fmt.Errorf("run %d: writing its record: %w", rec.Run, err)
	}
	return nil
}
