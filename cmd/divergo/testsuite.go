package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/divergo/divergo/flaky"
	"github.com/divergo/divergo/internal/progress"
)

// A suite is one invocation of divergo test over the packages its
// patterns name: every package's test binary built once, in parallel, and
// the runs of all of them scheduled together, at most par at a time, so
// that the cores stay busy while one package's slow test runs.
//
// Each package has its own plan (flaky.NewPlan): the schedules of its runs
// adapt to its own outcomes only, as when it is tested alone. The runs
// are numbered package by package, n each, in go list's order of the
// packages with tests: shard K of N makes the K-th block of that
// numbering, so that shards split the packages and, at the edges of their
// blocks, the runs of one package; each shard builds only the packages it
// has runs of.
type suite struct {
	root, overlay string
	n, par        int
	seed          int64
	perturb       bool
	sched         string // -sched: the schedule families
	budget        int    // -budget: runs to go on to while no test failed
	sh            shard
	binArgs       []string
	// dir holds the traces and records: a package's in dir itself when
	// the invocation names one package (flat), else in dir/<import path>.
	dir  string
	flat bool
	// shared is held for reading by every run, and for writing by a run
	// made again alone (overlapped).
	shared sync.RWMutex
}

// runOnce makes run rec of p's binary beside the others; when it failed
// with an error that only runs sharing outside state give (a fixed port
// taken by another run), it is made again alone, and its record says so.
func (s *suite) runOnce(rec *runRecord, p *testPackage, env []string) error {
	s.shared.RLock()
	err := rec.run(p.bin, s.binArgs, p.Dir, env)
	s.shared.RUnlock()
	why := overlapped(rec.Output)
	if err != nil || why == "" || len(rec.failed()) == 0 || !slices.Contains(slices.Collect(maps.Values(rec.failed())), true) {
		return err
	}
	s.shared.Lock()
	defer s.shared.Unlock()
	rec.Died, rec.Output, rec.Tests = "", "", nil
	err = rec.run(p.bin, s.binArgs, p.Dir, env)
	rec.Alone = why
	if err == nil {
		err = rec.write()
	}
	return err
}

// overlapErrors are errors a test gets when another run of its binary, or
// of another package's, holds what it wants: a fixed port.
var overlapErrors = []string{"address already in use"}

// overlapped is the overlap error in a run's output, "" when none.
func overlapped(output string) string {
	for _, e := range overlapErrors {
		if strings.Contains(output, e) {
			return e
		}
	}
	return ""
}

// suiteResult is what became of one package of the suite.
type suiteResult struct {
	pkg  *testPackage
	mine int // runs of the package in the shard
	recs []*runRecord
	// err says why its runs could not be made (not a test failing: a
	// trace that could not be read, a binary that could not start).
	err error
}

// run builds and runs the tests of pkgs, telling prog of each run ended, and returns
// one result per package, in the order of pkgs.
func (s *suite) run(pkgs []*testPackage, prog *progress.Runs) []*suiteResult {
	results := make([]*suiteResult, len(pkgs))
	total := s.runCount(pkgs)
	var (
		wg     sync.WaitGroup
		builds = make(chan struct{}, s.par) // go test -c at a time
		slots  = make(chan struct{}, s.par) // runs at a time, every package's
		done   atomic.Int64
		index  = 0 // of the package among those with tests
	)
	for i, p := range pkgs {
		results[i] = &suiteResult{pkg: p}
		if !p.Tests {
			continue
		}
		first := index * s.n
		index++
		mine := func(k int) bool { return s.sh.has(first+k, total) }
		for k := range s.n {
			if mine(k) {
				results[i].mine++
			}
		}
		if results[i].mine == 0 || p.Broken != "" {
			continue
		}
		wg.Add(1)
		go func(r *suiteResult) {
			defer wg.Done()
			builds <- struct{}{}
			err := p.build(s.root, s.overlay)
			<-builds
			if err != nil {
				return // p.Broken says why
			}
			r.recs, r.err = s.runPackage(p, mine, slots, func() { prog.Done(int(done.Add(1))) })
		}(results[i])
	}
	wg.Wait()
	return results
}

// tested counts the packages of pkgs with tests: their runs are numbered
// package by package, in this order.
func tested(pkgs []*testPackage) int {
	n := 0
	for _, p := range pkgs {
		if p.Tests {
			n++
		}
	}
	return n
}

// runCount is the number of runs of the suite over pkgs, every shard's.
func (s *suite) runCount(pkgs []*testPackage) int { return tested(pkgs) * s.n }

// mineRuns counts the runs of the suite's shard among pkgs.
func (s *suite) mineRuns(pkgs []*testPackage) int {
	total, mine := s.runCount(pkgs), 0
	for g := range total {
		if s.sh.has(g, total) {
			mine++
		}
	}
	return mine
}

// pkgDir is where the traces and records of package path go.
func (s *suite) pkgDir(path string) string {
	if s.flat {
		return s.dir
	}
	return filepath.Join(s.dir, filepath.FromSlash(path))
}

// runPackage makes the runs of p that mine says are the shard's, each
// holding one of slots while its binary runs.
func (s *suite) runPackage(p *testPackage, mine func(int) bool, slots chan struct{}, ended func()) ([]*runRecord, error) {
	dir := s.pkgDir(p.Path)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("making the trace directory: %w", err)
	}
	plan, err := newTestPlan(s.sched, s.perturb)
	if err != nil {
		return nil, err
	}
	recs, err := makeRuns(plan, s.n, max(s.n, s.budget), s.par, mine, func(k, strength int) *testRun {
		seed := s.seed + int64(k)
		rec := &runRecord{Package: p.Path, Args: s.binArgs, Runs: s.n, Run: k + 1, Seed: seed, Perturbed: s.perturb, Strength: strength,
			Trace: fmt.Sprintf("run-%d.dvt", k+1), dir: dir}
		if s.sh.N > 1 {
			rec.Shard = s.sh.String()
		}
		if strength == flaky.Sweep {
			rec.Sweep = plan.Ordinal() + 1
		}
		env := append([]string{"DIVERGO_TRACE=" + rec.tracePath()}, perturbEnv(seed, strength, rec.Sweep)...)
		slots <- struct{}{}
		r := &testRun{rec: rec, done: make(chan error, 1), ended: make(chan struct{})}
		go func() {
			err := s.runOnce(rec, p, env)
			close(r.ended)
			<-slots
			r.done <- err
		}()
		return r
	}, func(int) { ended() })
	if err != nil {
		return nil, err
	}
	if err := settleRuns(recs, s.n); err != nil {
		return nil, err
	}
	return recs, nil
}
