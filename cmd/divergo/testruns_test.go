package main

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/divergo/divergo/flaky"
)

// fakeRuns starts runs that end after a random delay, failing TestX under
// every perturbed schedule and passing it unperturbed (so that the plan
// adapts), and counts how many run at once.
type fakeRuns struct {
	running, most atomic.Int32
	mu            sync.Mutex
	strengths     map[int]int // run → strength
}

func (f *fakeRuns) start(k, strength int) *testRun {
	f.mu.Lock()
	f.strengths[k] = strength
	f.mu.Unlock()
	rec := &runRecord{Run: k + 1, Strength: strength}
	r := &testRun{rec: rec, done: make(chan error, 1)}
	now := f.running.Add(1)
	for m := f.most.Load(); now > m && !f.most.CompareAndSwap(m, now); m = f.most.Load() {
	}
	go func() {
		time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
		res := "pass"
		if strength != flaky.Unperturbed {
			res = "fail"
		}
		rec.Tests = map[string]string{"TestX": res}
		f.running.Add(-1)
		r.done <- nil
	}()
	return r
}

func (f *fakeRuns) make(t *testing.T, n, par int, sh shard) ([]int, []*runRecord) {
	t.Helper()
	f.strengths = map[int]int{}
	f.most.Store(0)
	recs, err := makeRuns(flaky.NewPlan(true), n, n, par, func(k int) bool { return sh.has(k, n) }, f.start, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for k := range n {
		if s, ok := f.strengths[k]; ok {
			out = append(out, s)
		}
	}
	return out, recs
}

// TestMakeRunsParallel: runs made p at a time get schedules that depend on
// the outcomes and p only, not on which run ended first; -p 1 gives each
// run the schedule the plan chooses knowing every run before it; never
// more than p run at once; the records come back in run order.
func TestMakeRunsParallel(t *testing.T) {
	const n = 24
	var f fakeRuns
	// -p 1: the plan of one run after another.
	plan := flaky.NewPlan(true)
	var want []int
	for range n {
		s := plan.Next()
		want = append(want, s)
		plan.Record(s, map[string]bool{"TestX": s != flaky.Unperturbed})
	}
	got, _ := f.make(t, n, 1, shard{1, 1})
	if !slices.Equal(got, want) {
		t.Errorf("-p 1 schedules %v, want the sequential plan's %v", got, want)
	}
	if !slices.Contains(want, 12) {
		t.Fatalf("the plan never adapted (%v): the test shows nothing", want)
	}
	first, _ := f.make(t, n, 3, shard{1, 1})
	if !slices.Contains(first, 12) {
		t.Errorf("-p 3 schedules %v: the plan never adapted", first)
	}
	for range 5 {
		got, recs := f.make(t, n, 3, shard{1, 1})
		if !slices.Equal(got, first) {
			t.Errorf("-p 3 schedules %v, then %v: they depend on the order the runs ended", first, got)
		}
		if m := f.most.Load(); m > 3 {
			t.Errorf("%d runs at once, want at most 3", m)
		}
		for i, rec := range recs {
			if rec.Run != i+1 {
				t.Fatalf("record %d is run %d: not in run order", i, rec.Run)
			}
		}
	}
	// A shard makes its own block of runs, each under the schedule the
	// plan gives that run.
	got, recs := f.make(t, n, 3, shard{2, 2})
	if len(recs) != n/2 || recs[0].Run != n/2+1 || len(got) != n/2 {
		t.Errorf("shard 2/2 made %d runs from run %d, want %d from %d", len(recs), recs[0].Run, n/2, n/2+1)
	}
}

// TestMakeRunsError: a run that cannot be made stops the others from
// starting, and the ones running are waited for before the error returns.
func TestMakeRunsError(t *testing.T) {
	var running atomic.Int32
	start := func(k, strength int) *testRun {
		r := &testRun{rec: &runRecord{Run: k + 1, Strength: strength}, done: make(chan error, 1)}
		running.Add(1)
		go func() {
			time.Sleep(time.Millisecond)
			running.Add(-1)
			if k == 2 {
				r.done <- errors.New("no binary")
				return
			}
			r.rec.Tests = map[string]string{"TestX": "pass"}
			r.done <- nil
		}()
		return r
	}
	_, err := makeRuns(flaky.NewPlan(true), 10, 10, 2, func(int) bool { return true }, start, func(int) {})
	if err == nil || err.Error() != "no binary" {
		t.Fatalf("error %v, want the run's", err)
	}
	if n := running.Load(); n != 0 {
		t.Errorf("%d runs still running after the error", n)
	}
}
