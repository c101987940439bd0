package flaky

import (
	"fmt"
	"slices"
)

// Schedule families. A run's schedule is one int: Unperturbed (0), a
// perturbation strength (1 to 100, random delays), controlled scheduling
// at PCT depth d (the runtime's DIVERGO_SCHED=pct:d), written -d, or the
// controlled random walk (DIVERGO_SCHED=walk), written Walk, or the
// controlled sweep (DIVERGO_SCHED=sweep:I, I the run's index among the
// sweep's runs: Plan.Ordinal), written Sweep. A family is one such value;
// the plan takes the families of its mode in turn and stops one that
// never fails while another does.

// Modes of a plan: which families it explores.
const (
	ModeMixed   = "mixed"     // unperturbed, controlled (depths 2 and 3, sweep, walk) and delays
	ModePCT     = "pct"       // controlled (depths 2 and 3, sweep, walk) only: the same seeds give the same runs
	ModeDelays  = "delays"    // unperturbed and delays of adapted strengths
	ModePlain   = "plain"     // unperturbed only
	maxCtlDepth = 3           // the deepest family a plan starts with
	stopRuns    = 3 * minRuns // runs a family gets before a plan may stop it
)

// Modes lists the modes, for a flag's help.
var Modes = []string{ModeMixed, ModePCT, ModeDelays, ModePlain}

// Controlled is the schedule of controlled scheduling at PCT depth d.
func Controlled(depth int) int { return -depth }

// Walk is the schedule of the controlled random walk: at each step the
// goroutine to run is drawn among the ready ones. Sweep is the controlled
// sweep's: one change point going through a test's first steps in turn,
// run after run, from the two orders the goroutines were started in.
const (
	Walk  = -100
	Sweep = -101
)

// Depth is the PCT depth of a controlled schedule, 0 for others (Walk
// and Sweep too).
func Depth(schedule int) int {
	if schedule <= Walk {
		return 0
	}
	return max(0, -schedule)
}

// IsControlled says whether schedule is one of controlled scheduling.
func IsControlled(schedule int) bool { return schedule < 0 }

// NewPlanMode is a plan of mode's families.
func NewPlanMode(mode string) (*Plan, error) {
	switch mode {
	case ModeDelays:
		return NewPlan(true), nil
	case ModePlain:
		return NewPlan(false), nil
	case ModeMixed, ModePCT:
	default:
		return nil, fmt.Errorf("schedule mode %q is none of %v", mode, Modes)
	}
	p := NewPlan(false)
	p.controlled = true
	p.noPlain = mode == ModePCT
	// Depth 2 first: most bugs need one change point. The sweep and the
	// walk next: they find the shallow bugs of short tests that PCT meets
	// only when its change point falls on the one step of a few that
	// matters, the sweep by going through those steps in turn. No depth
	// 1: its runs, without a change point, are the sweep's past a test's
	// last step, and the walk's draws take the goroutines in every order.
	p.add(Controlled(2))
	p.add(Sweep)
	p.add(Walk)
	for d := 3; d <= maxCtlDepth; d++ {
		p.add(Controlled(d))
	}
	if mode == ModeMixed {
		p.add(DefaultStrength)
	}
	return p, nil
}

// stopIdle stops the families under which no test failed in stopRuns runs
// or more while some test failed under another: their runs go to the
// families that find failures. Unperturbed runs are never stopped, they
// are the program as it runs; nor is the last family.
func (p *Plan) stopIdle() {
	failedUnder := map[int]bool{}
	for _, byS := range p.tests {
		for s, r := range byS {
			if r[1] > 0 {
				failedUnder[s] = true
			}
		}
	}
	if len(failedUnder) == 0 {
		return
	}
	left := len(p.perturbed)
	p.perturbed = slices.DeleteFunc(p.perturbed, func(s int) bool {
		stop := left > 1 && p.runs[s] >= stopRuns && !failedUnder[s]
		if stop {
			left--
			p.stopped = append(p.stopped, s)
		}
		return stop
	})
}

// Stopped are the families the plan stopped, in the order it stopped them.
func (p *Plan) Stopped() []int { return p.stopped }

// AnyFailed says whether some test failed in a run taken in.
func (p *Plan) AnyFailed() bool {
	for _, byS := range p.tests {
		for _, r := range byS {
			if r[1] > 0 {
				return true
			}
		}
	}
	return false
}
