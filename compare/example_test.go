package compare_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// Two runs of a function with one if on shared data: the if went different
// ways, so the runs differ by one section from the if to its join.
func ExampleTraces() {
	pos := func(line int) tbb.Pos { return tbb.Pos{File: "m/main.go", Line: line} }
	g := &tbb.Graph{
		Module: "example.com/m",
		Funcs:  []*tbb.Func{{ID: 0, Name: "example.com/m.main", Pkg: "example.com/m", Pos: pos(3), Entry: 0, Blocks: []int{0, 1, 2, 3}}},
		Blocks: []*tbb.Block{
			{ID: 0, Kind: "entry", Pos: pos(4), Probe: true, Succs: []int{1, 2},
				TCP: &tbb.TCP{Kind: tbb.Branch, Pos: pos(4), CP: 3, CPPos: pos(9)}},
			{ID: 1, Kind: "if.then", Pos: pos(5), Probe: true, Succs: []int{3}},
			{ID: 2, Kind: "if.else", Pos: pos(7), Probe: true, Succs: []int{3}},
			{ID: 3, Kind: "if.done", Pos: pos(9), Probe: true, CP: true, Succs: []int{}, Exit: true},
		},
	}
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	open := func(name string, branch uint32) compare.Trace {
		path := filepath.Join(dir, name)
		evs := []trace.Event{{Kind: trace.EvBlock, Block: 0}, {Kind: trace.EvBlock, Block: branch},
			{Kind: trace.EvBlock, Block: 3}, {Kind: trace.EvExit, Block: 0}}
		if err := trace.WriteFile(path, g, []trace.GoroutineEvents{{ID: 1, Events: evs}}); err != nil {
			panic(err)
		}
		r, err := trace.Open(path)
		if err != nil {
			panic(err)
		}
		return compare.FromReader(r)
	}
	rep, err := compare.Traces(open("a.dvt", 1), open("b.dvt", 2), compare.Options{Weights: compare.DefaultWeights})
	if err != nil {
		panic(err)
	}
	s := rep.Sections[0]
	fmt.Printf("distance %v: %s at %s, converging at %s, fanout %d\n", rep.Distance, s.TCP.Kind, s.TCP.Pos, s.CP.Pos, s.Fanout)
	// Output: distance 3: branch at m/main.go:4, converging at m/main.go:9, fanout 2
}
