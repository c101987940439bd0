package flaky

import (
	"fmt"
	"maps"
	"slices"
)

// Strengths of perturbation, in percent of the sync operations delayed
// (the runtime's DIVERGO_PERTURB_STRENGTH); 0 is a run left unperturbed.
const (
	Unperturbed     = 0
	DefaultStrength = 50  // the runtime's default
	MaxStrength     = 100 // every operation delayed
)

// minRuns is how many runs a schedule gets before the plan judges it.
const minRuns = 3

// Plan chooses the schedule of each run of a test binary: runs mix
// unperturbed schedules and perturbation of several strengths, so that a
// flaky test stays flaky. One run in four is unperturbed; the others take
// the perturbed strengths in turn, the default strength first. Once each
// schedule has had minRuns runs, a strength under which a test failed in
// every run, a test that passed in some other run, brings in one a quarter
// as strong (the test's failures tell nothing there, and a weaker
// perturbation may let it pass, as unperturbed runs do). A strength under
// which a test passed in every run, a test that failed in some other run,
// brings in one nearer the schedules it failed under: a quarter as strong
// when it failed under a weaker one (or unperturbed), twice as strong when
// under a stronger one. When no test has failed at all, full strength
// joins.
type Plan struct {
	perturbed []int // perturbed strengths taking turns
	tried     map[int]bool
	turn      int
	runs      map[int]int               // strength → runs
	tests     map[string]map[int][2]int // test → strength → runs, failures

	controlled bool  // controlled families among the perturbed (families.go)
	noPlain    bool  // no unperturbed runs
	stopped    []int // families stopped

	given map[int]int // strength → runs Next gave it
	ord   int         // the last run's index among its strength's
}

// NewPlan is a plan of perturbed and unperturbed runs, or of unperturbed
// runs only.
func NewPlan(perturb bool) *Plan {
	p := &Plan{tried: map[int]bool{}, runs: map[int]int{}, tests: map[string]map[int][2]int{}}
	if perturb {
		p.add(DefaultStrength)
	}
	return p
}

// Next is the strength of the next run.
func (p *Plan) Next() int {
	s := p.next()
	if p.given == nil {
		p.given = map[int]int{}
	}
	p.ord = p.given[s]
	p.given[s]++
	return s
}

// Ordinal is the index of the run Next gave last among the runs it gave
// the same strength, from 0: the sweep's run index.
func (p *Plan) Ordinal() int { return p.ord }

func (p *Plan) next() int {
	t := p.turn
	p.turn++
	if p.noPlain && len(p.perturbed) > 0 {
		return p.perturbed[t%len(p.perturbed)]
	}
	if len(p.perturbed) == 0 || t%4 == 0 {
		return Unperturbed
	}
	return p.perturbed[(t-t/4-1)%len(p.perturbed)]
}

// Record takes the outcome of a run at strength: the tests that ran in it
// and whether each failed.
func (p *Plan) Record(strength int, failed map[string]bool) {
	p.runs[strength]++
	for name, f := range failed {
		if p.tests[name] == nil {
			p.tests[name] = map[int][2]int{}
		}
		r := p.tests[name][strength]
		r[0]++
		if f {
			r[1]++
		}
		p.tests[name][strength] = r
	}
	p.adapt()
}

func (p *Plan) adapt() {
	if len(p.perturbed) == 0 || (!p.noPlain && p.runs[Unperturbed] < minRuns) {
		return
	}
	for _, s := range p.perturbed {
		if p.runs[s] < minRuns {
			return
		}
	}
	anyFailed := false
	for _, name := range slices.Sorted(maps.Keys(p.tests)) {
		byS := p.tests[name]
		passed := false
		for _, r := range byS {
			anyFailed = anyFailed || r[1] > 0
			passed = passed || r[1] < r[0]
		}
		weakest, strongest := -1, -1 // the strengths it failed under
		for s, r := range byS {
			if r[1] > 0 && s >= 0 { // a strength, not a controlled family
				if weakest < 0 || s < weakest {
					weakest = s
				}
				strongest = max(strongest, s)
			}
		}
		for _, s := range slices.Sorted(maps.Keys(byS)) {
			r := byS[s]
			switch {
			case s <= Unperturbed || r[0] < minRuns: // unperturbed or controlled
			case r[1] == r[0] && passed && s > 1:
				p.add(max(1, s/4))
			case r[1] == 0 && weakest >= 0 && weakest < s && s > 1:
				p.add(max(1, s/4))
			case r[1] == 0 && strongest > s:
				p.add(min(MaxStrength, 2*s))
			}
		}
	}
	if !anyFailed && !p.noPlain {
		p.add(MaxStrength)
	}
	if p.controlled {
		p.stopIdle()
	}
}

// add gives strength its turns, once.
func (p *Plan) add(strength int) {
	if !p.tried[strength] {
		p.tried[strength] = true
		p.perturbed = append(p.perturbed, strength)
	}
}

// Rate is the failure rate of a test under one schedule.
type Rate struct {
	Strength int `json:"strength"` // percent of sync operations delayed; 0: unperturbed; -d: controlled at PCT depth d; -100: the controlled walk; -101: the controlled sweep
	Runs     int `json:"runs"`
	Failures int `json:"failures"`
}

func (r Rate) String() string {
	return fmt.Sprintf("%s %d of %d", ScheduleName(r.Strength), r.Failures, r.Runs)
}

// ScheduleName names the schedule of strength: "unperturbed",
// "perturbed 12%".
func ScheduleName(strength int) string {
	if strength == Unperturbed {
		return "unperturbed"
	}
	switch strength {
	case Walk:
		return "controlled walk"
	case Sweep:
		return "controlled sweep"
	}
	if d := Depth(strength); d > 0 {
		return fmt.Sprintf("controlled depth %d", d)
	}
	return fmt.Sprintf("perturbed %d%%", strength)
}

// Rates are test name's failure rates by schedule, weakest first.
func (p *Plan) Rates(name string) []Rate {
	var out []Rate
	for s, r := range p.tests[name] {
		out = append(out, Rate{Strength: s, Runs: r[0], Failures: r[1]})
	}
	slices.SortFunc(out, func(a, b Rate) int { return a.Strength - b.Strength })
	return out
}
