package main

import (
	"slices"
	"strings"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
)

// testView is one test of a test binary's trace: its root goroutine (the
// goroutine testing ran it on) and what that spawned, so that two runs of
// one test are compared on the test's own goroutines, whatever the other
// tests did around it.
type testView struct {
	r    *trace.Reader
	gs   []trace.GoroutineInfo
	root uint64
}

// viewTest returns the goroutines of test name in r; ok is false when the
// test did not run.
func viewTest(r *trace.Reader, name string) (*testView, bool) {
	all := r.Goroutines()
	var root uint64
	for _, g := range all {
		if g.Test == name {
			root = g.ID
		}
	}
	if root == 0 {
		return nil, false
	}
	in := map[uint64]bool{root: true}
	for changed := true; changed; { // parents before children is not guaranteed
		changed = false
		for _, g := range all {
			if !in[g.ID] && g.Parent != 0 && in[g.Parent] {
				in[g.ID], changed = true, true
			}
		}
	}
	v := &testView{r: r, root: root}
	for _, g := range all {
		if in[g.ID] {
			v.gs = append(v.gs, g)
		}
	}
	return v, true
}

// waittime.Trace.
func (v *testView) Graph() *tbb.Graph                         { return v.r.Graph() }
func (v *testView) Goroutines() []trace.GoroutineInfo         { return v.gs }
func (v *testView) Events(id uint64) (trace.EventIter, error) { return v.r.Events(id) }

// cmpView is a testView as compare reads it.
type cmpView struct {
	compare.Trace
	v *testView
}

func (c cmpView) Goroutines() []compare.Goroutine {
	in := map[uint64]bool{}
	for _, g := range c.v.gs {
		in[g.ID] = true
	}
	var out []compare.Goroutine
	for _, g := range c.Trace.Goroutines() {
		if in[g.ID] {
			out = append(out, g)
		}
	}
	return out
}

func (v *testView) compareTrace() compare.Trace { return cmpView{compare.FromReader(v.r), v} }

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
}

// pairKind indexes Separator.Pairs.
const (
	pairFP = iota
	pairPP
	pairFF
)

// separators compares pairs of runs of one test (fail against pass, and
// like against like) and ranks the statements where they parted by how
// well they separate failing from passing runs, earliest first on ties.
// Only separators with a positive score are returned. compared gives how
// many pairs of each kind were compared.
func separators(name string, fails, passes []*testView, maxPairs int) ([]Separator, [3]int, error) {
	type acc struct {
		s     Separator
		fail  map[string]int
		pass  map[string]int
		gor   map[string]int
		start int64
	}
	byKey := map[string]*acc{}
	var compared [3]int
	add := func(kind int, a, b *testView) error {
		rep, err := compare.Traces(a.compareTrace(), b.compareTrace(), compare.Options{})
		if err != nil {
			return err
		}
		compared[kind]++
		seen := map[string]bool{}
		for _, g := range compare.GroupSections(rep.Sections) {
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
			if kind != pairFP {
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
	pairs := func(xs, ys []*testView, kind int, same bool) error {
		n := 0
		for i, a := range xs {
			for j, b := range ys {
				if same && j <= i {
					continue
				}
				if n == maxPairs {
					return nil
				}
				n++
				if err := add(kind, a, b); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := pairs(fails, passes, pairFP, false); err != nil {
		return nil, compared, err
	}
	if err := pairs(passes, passes, pairPP, true); err != nil {
		return nil, compared, err
	}
	if err := pairs(fails, fails, pairFF, true); err != nil {
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
		s.Score = share(s.Pairs[pairFP], compared[pairFP]) - max(share(s.Pairs[pairPP], compared[pairPP]), share(s.Pairs[pairFF], compared[pairFF]))
		if s.Score <= 0 || s.Pairs[pairFP] == 0 {
			continue
		}
		s.Failing, s.Passing = ranked(x.fail), ranked(x.pass)
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

// waitDiff is how the waiting time of a test differs between a failing
// run (A) and a passing one (B), by sync site.
func waitDiff(fail, pass *testView) (*waittime.DiffReport, error) {
	a, err := waittime.Analyze(fail, waittime.Options{})
	if err != nil {
		return nil, err
	}
	b, err := waittime.Analyze(pass, waittime.Options{})
	if err != nil {
		return nil, err
	}
	return waittime.Diff(a, b, 0)
}

// groupWait is a sync site's waiting time per run, averaged over the
// failing runs and over the passing runs of a test: diff -wait added up
// over the two groups, so that one unlucky pair does not decide.
type groupWait struct {
	Pos       string  `json:"pos"`
	Op        string  `json:"op"`
	FailNs    int64   `json:"fail_ns"` // mean waiting time per failing run
	PassNs    int64   `json:"pass_ns"`
	FailWaits float64 `json:"fail_waits"` // mean waits per failing run
	PassWaits float64 `json:"pass_waits"`
}

// groupWaits analyses at most max runs of each group and ranks the sites by
// how much their mean waiting time differs between the groups.
func groupWaits(fails, passes []*testView, max int) ([]groupWait, [2]int, error) {
	type key struct{ pos, op string }
	sums := map[key]*groupWait{}
	var order []key
	var n [2]int
	for side, vs := range [][]*testView{fails, passes} {
		if len(vs) > max {
			vs = vs[:max]
		}
		n[side] = len(vs)
		for _, v := range vs {
			rep, err := waittime.Analyze(v, waittime.Options{})
			if err != nil {
				return nil, n, err
			}
			for _, s := range rep.Sites {
				k := key{s.Pos, s.Op}
				g := sums[k]
				if g == nil {
					g = &groupWait{Pos: s.Pos, Op: s.Op}
					sums[k] = g
					order = append(order, k)
				}
				if side == 0 {
					g.FailNs += s.TotalNs
					g.FailWaits += float64(s.Waits)
				} else {
					g.PassNs += s.TotalNs
					g.PassWaits += float64(s.Waits)
				}
			}
		}
	}
	out := make([]groupWait, 0, len(order))
	for _, k := range order {
		g := *sums[k]
		if n[0] > 0 {
			g.FailNs /= int64(n[0])
			g.FailWaits /= float64(n[0])
		}
		if n[1] > 0 {
			g.PassNs /= int64(n[1])
			g.PassWaits /= float64(n[1])
		}
		out = append(out, g)
	}
	slices.SortStableFunc(out, func(x, y groupWait) int {
		dx, dy := abs64(x.FailNs-x.PassNs), abs64(y.FailNs-y.PassNs)
		switch {
		case dx > dy:
			return -1
		case dx < dy:
			return 1
		}
		return strings.Compare(x.Pos, y.Pos)
	})
	return out, n, nil
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
