package compare

import (
	"fmt"
	"io"
	"strings"
)

// Matrix is the pairwise comparison of several traces of one program.
type Matrix struct {
	Distances [][]float64 `json:"distances"` // symmetric, zero diagonal
	// Apart is, per pair, the share of the two runs' block executions that
	// lies in divergent sections: 0 the same paths, 1 nothing in common.
	Apart  [][]float64 `json:"apart"`
	Totals []float64   `json:"totals"` // each trace's total distance to the others
	// Representative is the trace with the least total distance to the
	// others (the first of equals): the paper's "is this trace
	// representative of the set?" answered by example.
	Representative int  `json:"representative"`
	Same           bool `json:"same"` // every pair is the same
}

// Compare compares every pair of traces with [Traces].
func Compare(traces []Trace, opts Options) (*Matrix, error) {
	n := len(traces)
	if n < 2 {
		return nil, fmt.Errorf("need at least two traces, got %d", n)
	}
	m := &Matrix{Distances: make([][]float64, n), Apart: make([][]float64, n), Totals: make([]float64, n), Same: true}
	for i := range m.Distances {
		m.Distances[i] = make([]float64, n)
		m.Apart[i] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			r, err := Traces(traces[i], traces[j], opts)
			if err != nil {
				return nil, fmt.Errorf("traces %d and %d: %w", i+1, j+1, err)
			}
			m.Distances[i][j] = r.Distance
			m.Distances[j][i] = r.Distance
			m.Apart[i][j] = r.apart()
			m.Apart[j][i] = m.Apart[i][j]
			m.Same = m.Same && r.Summary.Same
		}
	}
	for i := range n {
		for j := range n {
			m.Totals[i] += m.Distances[i][j]
		}
		if m.Totals[i] < m.Totals[m.Representative] {
			m.Representative = i
		}
	}
	return m, nil
}

// apart is the share of the block executions of matched goroutines, both
// runs together, that lies in divergent sections.
func (r *Report) apart() float64 {
	var in int64
	for _, s := range r.Sections {
		in += s.A.Blocks + s.B.Blocks
	}
	all := r.Summary.BlocksA + r.Summary.BlocksB
	if all == 0 {
		return 0
	}
	return min(float64(in)/float64(all), 1)
}

// WriteText prints the matrix for people: per pair the share of work where
// the runs went different ways and the paper's distance, the most
// representative run marked, and the pair to look at next: the
// representative run against the run farthest from it.
func (m *Matrix) WriteText(w io.Writer, names []string) error {
	width := len("run")
	for _, n := range names {
		width = max(width, len(n))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "share of the work where two runs went different ways (0%% = the same paths), and the\n")
	fmt.Fprintf(&b, "paper's distance in parentheses; * marks the most representative run:\n\n")
	fmt.Fprintf(&b, "  %-*s", width, "run")
	for i := range names {
		fmt.Fprintf(&b, " %12d", i+1)
	}
	fmt.Fprintf(&b, " %12s\n", "total dist.")
	far := -1
	for i, n := range names {
		mark := " "
		if i == m.Representative {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s %-*s", mark, width, n)
		for j, d := range m.Distances[i] {
			if i == j {
				fmt.Fprintf(&b, " %12s", "-")
				continue
			}
			fmt.Fprintf(&b, " %12s", fmt.Sprintf("%s (%.4g)", pct(m.Apart[i][j]), d))
		}
		fmt.Fprintf(&b, " %12.4g\n", m.Totals[i])
		if i != m.Representative && (far < 0 || m.Distances[m.Representative][i] > m.Distances[m.Representative][far]) {
			far = i
		}
	}
	rep := names[m.Representative]
	fmt.Fprintf(&b, "\nmost representative: %s, the least total distance (%.4g) to the %d others\n", rep, m.Totals[m.Representative], len(names)-1)
	if m.Same {
		fmt.Fprintf(&b, "all runs took the same paths\n")
	} else if far >= 0 && m.Distances[m.Representative][far] > 0 {
		fmt.Fprintf(&b, "look next at the run farthest from it: divergo diff %s %s\n", rep, names[far])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func pct(f float64) string {
	switch {
	case f == 0:
		return "0%"
	case f < 0.01:
		return "<1%"
	}
	return fmt.Sprintf("%.0f%%", 100*f)
}
