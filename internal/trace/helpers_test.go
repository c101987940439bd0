package trace

import (
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// testGraph is a two-function program: main (blocks 0-2, block 1 holds a go
// statement at main.go:7) and worker (blocks 3-4).
func testGraph(t testing.TB) *tbb.Graph {
	t.Helper()
	g := &tbb.Graph{
		Module:   "example.com/m",
		Packages: []string{"example.com/m"},
		Funcs: []*tbb.Func{
			{ID: 0, Name: "example.com/m.main", Pkg: "example.com/m", Pos: tbb.Pos{File: "main.go", Line: 5}, Entry: 0, Blocks: []int{0, 1, 2}},
			{ID: 1, Name: "example.com/m.worker", Pkg: "example.com/m", Pos: tbb.Pos{File: "main.go", Line: 12}, Entry: 3, Blocks: []int{3, 4}},
		},
		Blocks: []*tbb.Block{
			{ID: 0, Func: 0, Kind: "entry", Pos: tbb.Pos{File: "main.go", Line: 6}, Probe: true, Instrs: 4, Succs: []int{1}},
			{ID: 1, Func: 0, Kind: "for.body", Pos: tbb.Pos{File: "main.go", Line: 7}, Probe: true, Instrs: 10, Succs: []int{1, 2},
				TCP: &tbb.TCP{Kind: tbb.Spawn, Pos: tbb.Pos{File: "main.go", Line: 7, Col: 3}, CP: 2}},
			{ID: 2, Func: 0, Kind: "for.done", Pos: tbb.Pos{File: "main.go", Line: 9}, Probe: true, Instrs: 2, Succs: []int{}, Exit: true, CP: true},
			{ID: 3, Func: 1, Kind: "entry", Pos: tbb.Pos{File: "main.go", Line: 13}, Probe: true, Instrs: 3, Succs: []int{4}},
			{ID: 4, Func: 1, Kind: "if.then", Pos: tbb.Pos{File: "main.go", Line: 14}, Probe: true, Instrs: 1, Succs: []int{}, Exit: true},
		},
	}
	if _, err := tbb.Marshal(g); err != nil {
		t.Fatal(err)
	}
	return g
}
