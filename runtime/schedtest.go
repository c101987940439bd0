package runtime

import (
	"cmp"
	"slices"
)

// Tests under controlled scheduling. A test binary runs its tests one
// after another in one process: counted from the process's start, a
// test's steps would begin wherever the tests before it left the count
// (TestLostWakeup of testdata/flaky at step 30 or so after its package's
// first tests, at step 1 alone under -run), and PCT's change points,
// drawn among the first K steps, would fall in the tests before it or
// far after its few steps. So each test (and subtest) that starts counts
// its steps from zero, with change points and walk's draws of its own,
// from the seed and its name (testIdent): a test meets the same schedule
// run alone or among the others. Tests run in parallel (t.Parallel)
// share the count from the last one's start.

// ctlBeginTest starts the count of a test of identity ident (the
// program's, at start): its steps from zero, its change points, walk's
// PRNG.
func ctlBeginTest(ident uint64) {
	ctl.mu.Lock()
	ctl.steps, ctl.lowered, ctl.changes = 0, 0, nil
	switch {
	case ctl.sweep > 0:
		ctl.changes = []int64{sweepStep(ctl.sweep - 1)}
	case ctl.depth > 0:
		ctl.changes = changePoints(ident, ctl.depth)
	}
	ctl.draws = mix(ident ^ 0x77616c6b) // "walk"
	ctl.drawStep, ctl.drawn = -1, 0
	ctl.mu.Unlock()
}

// changePoints draws depth-1 steps from seed among the first K, K itself
// a power of two from 4 to 4096 drawn from the seed: PCT wants K near the
// number of steps a run makes, which a test's run does not know ahead, and
// a spread of K over seeds meets short and long tests alike.
func changePoints(seed uint64, depth int) []int64 {
	state := mix(seed ^ 0x7063745f) // "pct_"
	next := func() uint64 {
		state += 0x9e3779b97f4a7c15
		return mix(state)
	}
	k := uint64(4) << (next() % 11)
	out := make([]int64, 0, depth-1)
	for range depth - 1 {
		out = append(out, int64(1+next()%k))
	}
	for i := 1; i < len(out); i++ { // a few values: insertion sort
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// walkPick draws the index in ctl.ready of the goroutine to run under
// walk. The draw is of a rank among the ready goroutines ordered by their
// initial priorities, which come from their spawn identities, and not of
// a place in ctl.ready, whose order is the order they got ready in: the
// same ready goroutines give the same pick whichever thread got there
// first. It is drawn from the test's step and the handovers made at that
// step, not from one sequence over the test: a handover the schedule
// does not decide (a holder that lost the run after the patience) then
// changes the draws of its step only. Under ctl.mu.
func walkPick() int {
	if ctl.drawStep != ctl.steps {
		ctl.drawStep, ctl.drawn = ctl.steps, 0
	}
	ctl.drawn++
	h := mix(ctl.draws ^ uint64(ctl.steps)*0x9e3779b97f4a7c15 ^ ctl.drawn<<48)
	rank := int(h % uint64(len(ctl.ready)))
	order := ctl.order[:0]
	for i := range ctl.ready {
		order = append(order, i)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(ctl.ready[b].cg.prio, ctl.ready[a].cg.prio)
	})
	ctl.order = order
	return order[rank]
}
