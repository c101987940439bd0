package main

import (
	"fmt"
	"strconv"

	"github.com/divergo/divergo/flaky"
)

// Schedules of divergo test's runs beyond the plan's strengths: the
// controlled families (flaky.Controlled, the runtime's DIVERGO_SCHED) and
// the budget of runs made while no test failed.

// newTestPlan is the plan of -sched mode; -perturb=false, which came
// before -sched, is the plain mode.
func newTestPlan(mode string, perturb bool) (*flaky.Plan, error) {
	if !perturb {
		mode = flaky.ModePlain
	}
	p, err := flaky.NewPlanMode(mode)
	if err != nil {
		return nil, usageError("-sched: %v", err)
	}
	return p, nil
}

// ctlEnv is the environment of a controlled run of seed at schedule s
// (flaky.IsControlled(s)); sweep is a sweep run's index plus one.
func ctlEnv(seed int64, s, sweep int) []string {
	sched := "DIVERGO_SCHED=pct:" + strconv.Itoa(flaky.Depth(s))
	switch s {
	case flaky.Walk:
		sched = "DIVERGO_SCHED=walk"
	case flaky.Sweep:
		sched = "DIVERGO_SCHED=sweep:" + strconv.Itoa(max(0, sweep-1))
	}
	return []string{"DIVERGO_PERTURB=" + strconv.FormatInt(seed, 10), sched}
}

// checkBudget checks -budget against -n and -shard: a shard's runs are a
// block of n fixed ahead, so only one invocation making all runs goes on.
func checkBudget(budget, n int, sh shard) error {
	switch {
	case budget == 0:
		return nil
	case budget < n:
		return usageError("-budget %d is below -n %d", budget, n)
	case sh.N > 1:
		return usageError("-budget goes on while no test failed, which shards of one block each cannot tell: give -n alone with -shard")
	}
	return nil
}

// settleRuns gives every record the number of runs made, when the budget
// made more than n, and writes them again: -explain of the directory then
// finds the invocation's runs whole. A shard's records, fewer than n, are
// left as they are.
func settleRuns(recs []*runRecord, n int) error {
	if len(recs) <= n {
		return nil
	}
	for _, rec := range recs {
		rec.Runs = len(recs)
		if err := rec.write(); err != nil {
			return fmt.Errorf("run %d: writing its record: %w", rec.Run, err)
		}
	}
	return nil
}
