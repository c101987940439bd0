// Package analyzer finds trace change points. (Placeholder: being written.)
package analyzer

import "golang.org/x/tools/go/analysis"

// Analyzer is a placeholder until the pass lands.
var Analyzer = &analysis.Analyzer{
	Name: "divergo",
	Doc:  "report trace change points and their convergence points",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}
