package compare

import "fmt"

// Matrix is the pairwise comparison of several traces of one program.
type Matrix struct {
	Distances [][]float64 `json:"distances"` // symmetric, zero diagonal
	Totals    []float64   `json:"totals"`    // each trace's total distance to the others
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
	m := &Matrix{Distances: make([][]float64, n), Totals: make([]float64, n), Same: true}
	for i := range m.Distances {
		m.Distances[i] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			r, err := Traces(traces[i], traces[j], opts)
			if err != nil {
				return nil, fmt.Errorf("traces %d and %d: %w", i+1, j+1, err)
			}
			m.Distances[i][j] = r.Distance
			m.Distances[j][i] = r.Distance
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
