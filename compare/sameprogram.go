package compare

import (
	"fmt"

	"github.com/divergo/divergo/internal/tbb"
)

// DifferentPrograms is the error of comparing traces of two programs. The
// graph is the module's, so two commands of one module (cmd/a and cmd/b)
// record under one graph hash: their main goroutines, which start in
// their own main packages, tell them apart.
type DifferentPrograms struct {
	GraphA, GraphB string // short graph hashes
	MainA, MainB   string // packages the main goroutines started in, when the graphs are one
}

func (e *DifferentPrograms) Error() string {
	if e.GraphA != e.GraphB {
		return fmt.Sprintf("traces of different programs (graphs %s and %s)", e.GraphA, e.GraphB)
	}
	return fmt.Sprintf("traces of different programs (graph %s; main goroutine in %s and in %s)", e.GraphA, e.MainA, e.MainB)
}

// SameProgram returns a [*DifferentPrograms] when a and b are traces of
// two programs: their graphs differ, or the main goroutines of one graph
// started in two packages. Go runs a program's instrumented inits and
// then main.main on its goroutine 1, always in the same order, so the
// package of that goroutine's first block is the program's.
func SameProgram(a, b Trace) error {
	ga, gb := a.Graph(), b.Graph()
	if ga == nil || gb == nil {
		return fmt.Errorf("a trace has no program graph")
	}
	if ga.Hash != gb.Hash {
		return &DifferentPrograms{GraphA: ga.ShortHash(), GraphB: gb.ShortHash()}
	}
	ma, mb := mainPackage(ga, a.Goroutines()), mainPackage(gb, b.Goroutines())
	if ma != "" && mb != "" && ma != mb {
		return &DifferentPrograms{GraphA: ga.ShortHash(), GraphB: gb.ShortHash(), MainA: ma, MainB: mb}
	}
	return nil
}

// mainPackage is the package of the first block the main goroutine ran,
// "" when it ran none (or the trace is not of a program's main).
func mainPackage(g *tbb.Graph, gs []Goroutine) string {
	for _, gr := range gs {
		if gr.ID != 1 || gr.Parent != 0 || !gr.HasFirst {
			continue
		}
		if int(gr.FirstBlock) >= len(g.Blocks) {
			return ""
		}
		if f := g.Blocks[gr.FirstBlock].Func; f >= 0 && f < len(g.Funcs) {
			return g.Funcs[f].Pkg
		}
	}
	return ""
}
