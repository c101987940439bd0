package analyzer

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// quiet is an analysistest.Testing that keeps its errors: the test reads
// the diagnostics itself, which differ with the flag.
type quiet struct{ errs []string }

func (q *quiet) Errorf(format string, args ...any) {
	q.errs = append(q.errs, fmt.Sprintf(format, args...))
}

// TestWithout analyses testdata/src/assume, whose branches are each clean
// by one rule, with each rule switched off in turn: the branch of that
// rule, and no other, becomes a change point (a frozen variable also
// relies on the counting of its go statement). This is how divergo check
// names the assumption a divergence at an unmarked statement broke.
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
	flagged := func(rules string) []string {
		t.Helper()
		if err := Analyzer.Flags.Set("without", rules); err != nil {
			t.Fatal(err)
		}
		defer Analyzer.Flags.Set("without", "")
		var got []string
		for _, res := range analysistest.Run(&quiet{}, analysistest.TestData(), Analyzer, "assume") {
			for _, d := range res.Diagnostics {
				line := res.Pass.Fset.Position(d.Pos).Line
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
	if len(lineOf) != len(Rules) {
		t.Fatalf("testdata has branches for %v, want one per rule of %v", lineOf, Rules)
	}
	if got := flagged(""); len(got) > 0 {
		t.Errorf("with every rule, branches %v are change points", got)
	}
	for _, r := range Rules {
		want := []string{string(r)}
		if r == RuleCounted {
			// A frozen variable reaches the goroutine like an argument of
			// its go statement (frozen.go), so it is counted as well.
			want = []string{string(RuleCounted), string(RuleFrozen)}
		}
		if got := flagged(string(r)); !slices.Equal(got, want) {
			t.Errorf("without %s: change points at the branches of %v, want %v", r, got, want)
		}
	}
}

func TestRuleSetFlag(t *testing.T) {
	var s ruleSet
	if err := s.Set("frozen, inputs,"); err != nil || s.String() != "inputs,frozen" {
		t.Errorf("Set: %q, %v", s.String(), err)
	}
	if err := s.Set("nosuch"); err == nil || !strings.Contains(err.Error(), "unknown rule") {
		t.Errorf("Set of an unknown rule: %v", err)
	}
}
