package compare

import (
	"strings"
	"testing"
)

// TestMatrixText: units, the representative marked, and the pair to look
// at next (the representative against the run farthest from it).
func TestMatrixText(t *testing.T) {
	m := &Matrix{
		Distances:      [][]float64{{0, 2, 9}, {2, 0, 7}, {9, 7, 0}},
		Apart:          [][]float64{{0, 0.1, 0.5}, {0.1, 0, 0.4}, {0.5, 0.4, 0}},
		Totals:         []float64{11, 9, 16},
		Representative: 1,
	}
	var b strings.Builder
	if err := m.WriteText(&b, []string{"a.dvt", "b.dvt", "c.dvt"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"share of the work where two runs went different ways",
		"* b.dvt",
		"10% (2)",
		"most representative: b.dvt, the least total distance (9) to the 2 others",
		"look next at the run farthest from it: divergo diff b.dvt c.dvt",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("matrix text lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckNeverParted: runs that all took the same paths teach nothing
// about holes, and check says so plainly instead of "no hole".
func TestCheckNeverParted(t *testing.T) {
	c := &Check{Paths: []string{"r1", "r2", "r3"}, Seeds: []int64{1, 2, 3}, Interleavings: [][]int{{0, 1, 2}}}
	var b strings.Builder
	if err := c.WriteText(&b, CheckTextOptions{Program: "./cmd/x"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "the runs never parted: all 3 took the same paths") || strings.Contains(out, "no hole") {
		t.Errorf("check of identical runs:\n%s", out)
	}
}

// TestCheckHoleCauses: each hole says which assumption it broke, one or
// several, or that the analyzer was told to miss it, or that it is an
// analyzer miss, or a panic of one of its runs (and then no more); a hole
// whose cause was not looked for says nothing.
func TestCheckHoleCauses(t *testing.T) {
	in := BrokenRule{Rule: "inputs", Assumption: "both runs had the same input", Why: "branch: depends on os.Getenv"}
	fr := BrokenRule{Rule: "frozen", Assumption: "a captured variable is a value", Why: "branch: depends on captured variable k"}
	hole := func(line string, c *HoleCause) *Hole {
		return &Hole{Pos: "main.go:" + line, Func: "m.main", Spawn: "main", Runs: []int{1}, Pair: [2]int{0, 1}, Cause: c}
	}
	c := &Check{Paths: []string{"r1", "r2"}, Seeds: []int64{1, 2}, Differ: []int{1}, Interleavings: [][]int{{0}, {1}},
		Holes: []*Hole{
			hole("10", &HoleCause{Breaks: []BrokenRule{in}}),
			hole("20", &HoleCause{Breaks: []BrokenRule{in, fr}}),
			hole("30", &HoleCause{Planted: "branch"}),
			hole("40", &HoleCause{Miss: true}),
			hole("45", &HoleCause{Miss: true, Panic: "panic: sync: negative WaitGroup counter", PanicRun: 2}),
			hole("50", nil),
		}}
	var b strings.Builder
	if err := c.WriteText(&b, CheckTextOptions{Program: "."}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"\n    breaks an assumption: both runs had the same input\n      (rule inputs; without it the analyzer marks this statement: branch: depends on os.Getenv)\n    reproduce",
		"\n    breaks one of 2 assumptions the analysis made here:\n      - both runs had the same input\n        (rule inputs; without it: branch: depends on os.Getenv)\n      - a captured variable is a value\n        (rule frozen; without it: branch: depends on captured variable k)\n",
		"\n    planted: the analyzer was told to miss branch change points (-disable); without that it marks this statement\n",
		"\n    an analyzer miss: no rule",
		"block from main.go:45; a run ended before the paths met again\n" +
			"    run 2 panicked under this statement (panic: sync: negative WaitGroup counter): a panic on shared data\n" +
			"      is a branch the analysis does not mark (docs/SOUNDNESS.md, \"Known unsoundness\", \"Panics\")\n    reproduce",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check text lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n    reproduce"); n != 6 {
		t.Errorf("%d holes printed, want 6:\n%s", n, out)
	}
	if i := strings.Index(out, "main.go:50"); i < 0 || strings.Contains(out[i:], "assumption") || strings.Contains(out[i:], "miss") {
		t.Errorf("a hole with no cause looked for says one:\n%s", out)
	}
}
