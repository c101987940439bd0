package flaky

import (
	"slices"
	"strings"
)

// Mode is one way a test failed: its failing runs whose first failure
// was at one line (or one panic), with what separates them from the
// passing runs. One mode's failing runs part from passing runs at their
// own statements; mixed with another mode's, which part elsewhere, every
// statement scores lower (failing runs of two modes part at both) and the
// rarer mode's may not show at all.
type Mode struct {
	Where    string         `json:"where"` // Failure.Where, "" when no message said
	Failures int            `json:"failures"`
	Messages []MessageCount `json:"messages"`
	Runs     []int          `json:"runs"` // View.Run of the failing runs
	// Separators and Compared are as Report's, for this mode's failing
	// runs against all the passing ones.
	Separators []Separator `json:"separators"`
	Compared   [3]int      `json:"compared"`
	Orderings  []Ordering  `json:"orderings,omitempty"`

	views []*View
}

// MessageCount is a failure message and the runs that printed it.
type MessageCount struct {
	Message string `json:"message"`
	N       int    `json:"n"`
}

// GroupFailures groups the failures fs of runs runs (fs[i] of run
// runs[i]) by Where, the most frequent first, each with its messages,
// most frequent first.
func GroupFailures(fs []Failure, runs []int) []*Mode {
	byWhere := map[string]*Mode{}
	msgs := map[string]map[string]int{}
	var out []*Mode
	for i, f := range fs {
		m := byWhere[f.Where]
		if m == nil {
			m = &Mode{Where: f.Where}
			byWhere[f.Where] = m
			msgs[f.Where] = map[string]int{}
			out = append(out, m)
		}
		m.Failures++
		if i < len(runs) {
			m.Runs = append(m.Runs, runs[i])
		}
		if f.Message != "" {
			msgs[f.Where][f.Message]++
		}
	}
	for _, m := range out {
		for _, msg := range ranked(msgs[m.Where]) {
			m.Messages = append(m.Messages, MessageCount{msg, msgs[m.Where][msg]})
		}
	}
	slices.SortStableFunc(out, func(a, b *Mode) int {
		if a.Failures != b.Failures {
			return b.Failures - a.Failures
		}
		return strings.Compare(a.Where, b.Where)
	})
	return out
}

// modes groups the failing views by their Failure.
func modes(fails []*View) []*Mode {
	fs := make([]Failure, len(fails))
	runs := make([]int, len(fails))
	for i, v := range fails {
		fs[i], runs[i] = v.Failure, v.Run
	}
	ms := GroupFailures(fs, runs)
	for _, v := range fails {
		for _, m := range ms {
			if m.Where == v.Failure.Where {
				m.views = append(m.views, v)
			}
		}
	}
	return ms
}
