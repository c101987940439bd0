package trace

import (
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// testGraph is a two-function program: main (blocks 0-2, block 1 holds a go
// statement at main.go:7, site 1) and worker (blocks 3-4).
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
		// Site ids differ from their blocks' ids, so that a reader that
		// took one for the other would be caught.
		Sites: []*tbb.Site{
			{ID: 0, Block: 3, Op: "wg.done", Pos: tbb.Pos{File: "main.go", Line: 15, Col: 3}},
			{ID: 1, Block: 1, Op: "go", Pos: tbb.Pos{File: "main.go", Line: 7, Col: 3}},
			{ID: 2, Block: 2, Op: "wg.wait", Pos: tbb.Pos{File: "main.go", Line: 10, Col: 2}},
			{ID: 3, Block: 0, Op: "recv", Pos: tbb.Pos{File: "main.go", Line: 6, Col: 7}},
			{ID: 4, Block: 3, Op: "send", Pos: tbb.Pos{File: "main.go", Line: 13, Col: 2}},
			{ID: 5, Block: 4, Op: "lock", Pos: tbb.Pos{File: "main.go", Line: 14, Col: 3}},
		},
	}
	if _, err := tbb.Marshal(g); err != nil {
		t.Fatal(err)
	}
	return g
}
