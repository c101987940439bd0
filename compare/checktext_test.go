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
