package flaky

import (
	"slices"
	"strings"

	"github.com/divergo/divergo/compare"
)

// Separator is a statement where failing runs of a test part from passing
// ones: its divergent sections appear in failing-vs-passing pairs of runs
// more often than among runs that ended alike.
type Separator struct {
	Pos  string `json:"pos"`  // file:line of the change point
	Kind string `json:"kind"` // TCP kind
	Func string `json:"func,omitempty"`
	// Pairs counts the compared pairs of each kind where the statement
	// parted the runs: failing-vs-passing, passing-vs-passing,
	// failing-vs-failing, out of FP, PP, FF compared.
	Pairs [3]int `json:"pairs"`
	// Score is how well it separates: the share of failing-vs-passing
	// pairs it parted, minus the larger share among like pairs.
	Score float64 `json:"score"`
	// StartNS is the earliest it parted runs, in ns from the failing
	// run's start (the test's goroutines only).
	StartNS int64 `json:"start_ns"`
	// Failing and Passing say what each side did there, most frequent first.
	Failing    []string        `json:"failing"`
	Passing    []string        `json:"passing"`
	Goroutines []compare.Count `json:"goroutines"`
	// Assertion says the statement is the check that reports the
	// failure (markAssertions): it is listed after the others.
	Assertion bool `json:"assertion,omitempty"`
}

// The kinds of pairs of runs, indexes of Separator.Pairs and of the
// counts of pairs compared.
const (
	PairFP = iota // a failing run against a passing one
	PairPP        // two passing runs
	PairFF        // two failing runs
)

// separators compares pairs of runs of one test (fail against pass, and
// like against like) and ranks the statements where they parted by how
// well they separate failing from passing runs, earliest first on ties.
// Only separators with a positive score are returned. compared gives how
// many pairs of each kind were compared.
func (c *comparer) separators(fails, passes []*View, maxPairs int) ([]Separator, [3]int, error) {
	name := c.name
	type acc struct {
		s     Separator
		fail  map[string]int
		pass  map[string]int
		gor   map[string]int
		start int64
	}
	byKey := map[string]*acc{}
	var compared [3]int
	add := func(kind int, a, b *View) error {
		groups, err := c.sections(a, b)
		if err != nil {
			return err
		}
		compared[kind]++
		seen := map[string]bool{}
		for _, g := range groups {
			if g.CutOff {
				continue
			}
			key := g.Where.Kind + "\x00" + g.Where.Pos + "\x00" + g.Where.Func
			x := byKey[key]
			if x == nil {
				x = &acc{s: Separator{Pos: g.Where.Pos, Kind: g.Where.Kind, Func: g.Where.Func, StartNS: -1},
					fail: map[string]int{}, pass: map[string]int{}, gor: map[string]int{}}
				byKey[key] = x
			}
			if !seen[key] {
				seen[key] = true
				x.s.Pairs[kind]++
			}
			if kind != PairFP {
				continue
			}
			if x.s.StartNS < 0 || g.A.StartNS < x.s.StartNS {
				x.s.StartNS = g.A.StartNS
			}
			for _, t := range g.Took {
				x.fail[t.A] += t.N
				x.pass[t.B] += t.N
			}
			for _, c := range g.Goroutines {
				what := rootName(c.What, name)
				x.gor[what] = max(x.gor[what], c.N)
			}
		}
		return nil
	}
	pairs := func(xs, ys []*View, kind int, same bool) error {
		for _, p := range pick(len(xs), len(ys), same, maxPairs) {
			if err := add(kind, xs[p[0]], ys[p[1]]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := pairs(fails, passes, PairFP, false); err != nil {
		return nil, compared, err
	}
	if err := pairs(passes, passes, PairPP, true); err != nil {
		return nil, compared, err
	}
	if err := pairs(fails, fails, PairFF, true); err != nil {
		return nil, compared, err
	}
	share := func(n, of int) float64 {
		if of == 0 {
			return 0
		}
		return float64(n) / float64(of)
	}
	var out []Separator
	for _, x := range byKey {
		s := x.s
		s.Score = share(s.Pairs[PairFP], compared[PairFP]) - max(share(s.Pairs[PairPP], compared[PairPP]), share(s.Pairs[PairFF], compared[PairFF]))
		if s.Score <= 0 || s.Pairs[PairFP] == 0 {
			continue
		}
		s.Failing, s.Passing = ranked(x.fail), ranked(x.pass)
		if readAlike(s.Failing, s.Passing) {
			continue
		}
		for what, n := range x.gor {
			s.Goroutines = append(s.Goroutines, compare.Count{What: what, N: n})
		}
		slices.SortFunc(s.Goroutines, func(a, b compare.Count) int { return strings.Compare(a.What, b.What) })
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Separator) int {
		switch {
		case a.Score != b.Score:
			if a.Score > b.Score {
				return -1
			}
			return 1
		case a.StartNS != b.StartNS:
			if a.StartNS < b.StartNS {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Pos, b.Pos)
	})
	return out, compared, nil
}

// rootName puts the test's name in place of compare's name of the test's
// goroutine, which has no parent in the view ("go ? pkg.TestX#*").
func rootName(spawn, test string) string {
	if !strings.HasPrefix(spawn, "go ? ") {
		return spawn
	}
	if i := strings.Index(spawn, " > "); i >= 0 {
		return test + spawn[i:]
	}
	return test
}

// ranked lists the keys of m, most frequent first.
func ranked(m map[string]int) []string {
	var out []string
	for k := range m {
		if k != "" {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	return out
}

// readAlike says whether the two sides of a separator say the same: the
// failing runs did there what the passing runs did, the same paths most
// frequent first ("went straight on" against "went straight on"). The runs
// then parted there by something the statement does not show (how far a
// call went, which iteration), and a line that reads the same on both sides
// names no cause: it is not shown, however well it scores. An outcome that
// stands for a value compare does not print ("another map order", "another
// index") is no path: the same words on both sides there mean other values,
// which may be the cause (a map order leaking into a result).
func readAlike(failing, passing []string) bool {
	return len(failing) > 0 && slices.Equal(failing, passing) && !slices.ContainsFunc(failing, namesValue)
}

// valueWords are compare's words for an outcome that is a value it does not
// print (compare/took.go).
var valueWords = []string{"another map order", "another index", "other input", "recorded another lock ticket"}

// namesValue says whether outcome is a value's rather than a path's.
func namesValue(outcome string) bool {
	return slices.ContainsFunc(valueWords, func(w string) bool { return strings.Contains(outcome, w) })
}
