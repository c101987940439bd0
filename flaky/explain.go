package flaky

import (
	"fmt"

	"github.com/divergo/divergo/waittime"
)

// MaxPairs bounds the pairs of runs compared per kind, so that 40 runs
// cost tens of comparisons of one test's goroutines, not hundreds.
const MaxPairs = 12

// Report is what separates the failing runs of one test from its passing
// ones.
type Report struct {
	// Modes are the ways the test failed, the most frequent first, each
	// with the statements that separate its failing runs from the
	// passing runs.
	Modes []*Mode `json:"modes"`
	// Separators and Compared are for all failing runs against the
	// passing ones: the same as the mode's when there is one.
	Separators []Separator `json:"separators"`
	Compared   [3]int      `json:"compared"` // pairs compared: fail-pass, pass-pass, fail-fail
	// Orderings are the orders of two sync operations that separate the
	// failing runs from the passing ones, best first.
	Orderings []Ordering `json:"orderings,omitempty"`
	// Waits is waittime.Diff of the first failing run (A) and the first
	// passing one, WaitRuns their View.Run.
	Waits    *waittime.DiffReport `json:"waits,omitempty"`
	WaitRuns [2]int               `json:"wait_runs"`
	// GroupWaits is the waiting time by sync site averaged over failing
	// and over passing runs (at most MaxPairs of each, GroupRuns says how
	// many), the sites whose waits differ most first.
	GroupWaits []GroupWait `json:"group_waits,omitempty"`
	GroupRuns  [2]int      `json:"group_runs"`
	// Blocked are the goroutines of the test unfinished at the end of
	// failing runs, with how many.
	Blocked []string `json:"blocked,omitempty"`
	// Hangs are the operations goroutines of the test were still blocked
	// in at the end of failing runs, each with what ended the same wait in
	// passing runs (hangs.go).
	Hangs      []Hang `json:"hangs,omitempty"`
	HangsError string `json:"hangs_error,omitempty"`
}

// Explain compares the failing runs fails with the passing runs passes of
// test name: all failing runs, and the failing runs of each failure mode
// (View.Failure) when there are several.
func Explain(name string, fails, passes []*View) (*Report, error) {
	rep := &Report{Modes: modes(fails)}
	c := newComparer(name)
	var err error
	if rep.Separators, rep.Compared, err = c.separators(fails, passes, MaxPairs); err != nil {
		return nil, err
	}
	if rep.Orderings, err = c.orderings(fails, passes); err != nil {
		return nil, err
	}
	var wheres []string
	for _, m := range rep.Modes {
		wheres = append(wheres, m.Where)
	}
	markAssertions(rep.Separators, wheres)
	for _, m := range rep.Modes {
		if len(rep.Modes) == 1 {
			m.Separators, m.Compared, m.Orderings = rep.Separators, rep.Compared, rep.Orderings
			break
		}
		if m.Separators, m.Compared, err = c.separators(m.views, passes, MaxPairs); err != nil {
			return nil, err
		}
		markAssertions(m.Separators, []string{m.Where})
		if m.Orderings, err = c.orderings(m.views, passes); err != nil {
			return nil, err
		}
	}
	if len(fails) > 0 && len(passes) > 0 {
		if rep.Waits, err = waitDiff(fails[0], passes[0]); err != nil {
			return nil, err
		}
		rep.WaitRuns = [2]int{fails[0].Run, passes[0].Run}
		if rep.GroupWaits, rep.GroupRuns, err = groupWaits(fails, passes, MaxPairs); err != nil {
			return nil, err
		}
	}
	rep.Blocked = unfinishedInFailing(unfinished(fails), len(fails), unfinished(passes), len(passes))
	// A hang's account reads more of each trace than the separators do
	// (every blocked goroutine's object, the passing runs' pairing): what
	// it cannot read is said, and the rest of the report stands.
	if rep.Hangs, err = hangs(fails, passes, MaxPairs); err != nil {
		rep.Hangs, rep.HangsError = nil, err.Error()
	}
	return rep, nil
}

// unfinished counts, by spawn path, the runs of vs that left a goroutine of
// the test unfinished.
func unfinished(vs []*View) map[string]int {
	n := map[string]int{}
	for _, v := range vs {
		seen := map[string]bool{}
		for _, g := range v.gs {
			if !g.Ended && !seen[g.Path] {
				seen[g.Path] = true
				n[g.Path]++
			}
		}
	}
	return n
}

// unfinishedInFailing lists the goroutines of the test left unfinished in
// failing runs (fail of nf runs) more often than in passing ones (pass of
// np): a leak or a deadlock that only failing runs have is a likely cause.
// One that passing runs leave as often (a server's accept loop every run
// leaks) says nothing of the failure and is not listed.
func unfinishedInFailing(fail map[string]int, nf int, pass map[string]int, np int) []string {
	var out []string
	for _, p := range ranked(fail) {
		if np > 0 && fail[p]*np <= pass[p]*nf {
			continue
		}
		out = append(out, fmt.Sprintf("%s (in %d of %d failing runs)", p, fail[p], nf))
	}
	return out
}
