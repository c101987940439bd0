package analyzer_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/divergo/divergo/analyzer"
	"github.com/divergo/divergo/internal/load"
)

// TestWithout analyses testdata/src/assume, whose branches are each clean
// by one rule, with rules switched off: the branch of a rule becomes a
// change point when its rule is off, and no other does, but that a frozen
// variable also relies on the counting of its go statement. This is how
// divergo check names the assumption a divergence at an unmarked
// statement broke.
//
// An analysis takes seconds (the dependencies are analysed too), so the
// rules are switched off five groups at a time rather than one by one:
// each rule is in two groups, no two rules in the same two, so the
// branches each group marks tell every rule's own effect apart.
func TestWithout(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(analysistest.TestData(), "src", "assume", "assume.go"))
	if err != nil {
		t.Fatal(err)
	}
	lineOf := map[string]int{}
	for i, l := range strings.Split(string(src), "\n") {
		if _, rule, ok := strings.Cut(l, "{ // "); ok {
			lineOf[rule] = i + 1
		}
	}
	if len(lineOf) != len(analyzer.Rules) || len(analyzer.Rules) > 10 {
		t.Fatalf("testdata has branches for %v, want one per rule of %v (and the groups below ten rules)", lineOf, analyzer.Rules)
	}
	testdata := analysistest.TestData()
	l, err := load.Packages(load.Config{Dir: filepath.Join(testdata, "src", "assume"),
		Env: append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off", "GOFLAGS=")})
	if err != nil {
		t.Fatal(err)
	}
	flagged := func(rules []string) []string {
		t.Helper()
		if err := analyzer.Analyzer.Flags.Set("without", strings.Join(rules, ",")); err != nil {
			t.Fatal(err)
		}
		defer analyzer.Analyzer.Flags.Set("without", "")
		res, err := l.Analyze(analyzer.Analyzer)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range res.Roots {
			for _, d := range p.Diagnostics {
				line := res.Fset.Position(d.Pos).Line
				for rule, l := range lineOf {
					if l == line && !slices.Contains(got, rule) {
						got = append(got, rule)
					}
				}
			}
		}
		slices.Sort(got)
		return got
	}
	if got := flagged(nil); len(got) > 0 {
		t.Errorf("with every rule, branches %v are change points", got)
	}
	effect := func(r analyzer.Rule) []string {
		if r == analyzer.RuleCounted {
			// A frozen variable reaches the goroutine like an argument of
			// its go statement (frozen.go), so it is counted as well.
			return []string{string(analyzer.RuleCounted), string(analyzer.RuleFrozen)}
		}
		return []string{string(r)}
	}
	pairs := [][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}} // rule i's two groups
	for g := 0; g < 5; g++ {
		var rules, want []string
		for i, r := range analyzer.Rules {
			if pairs[i][0] == g || pairs[i][1] == g {
				rules = append(rules, string(r))
				for _, e := range effect(r) {
					if !slices.Contains(want, e) {
						want = append(want, e)
					}
				}
			}
		}
		slices.Sort(want)
		if got := flagged(rules); !slices.Equal(got, want) {
			t.Errorf("without %v: change points at the branches of %v, want %v", rules, got, want)
		}
	}
}
