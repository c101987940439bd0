package trace_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// A test of another package builds a real trace file from event lists and
// reads it back.
func ExampleWriteFile() {
	g := &tbb.Graph{
		Module: "example.com/m", Packages: []string{"example.com/m"},
		Funcs: []*tbb.Func{
			{ID: 0, Name: "example.com/m.main", Pkg: "example.com/m", Pos: tbb.Pos{File: "main.go", Line: 3}, Entry: 0, Blocks: []int{0}},
			{ID: 1, Name: "example.com/m.work", Pkg: "example.com/m", Pos: tbb.Pos{File: "main.go", Line: 9}, Entry: 1, Blocks: []int{1}},
		},
		Blocks: []*tbb.Block{
			{ID: 0, Func: 0, Kind: "entry", Pos: tbb.Pos{File: "main.go", Line: 4}, Probe: true, Instrs: 5, Succs: []int{}, Exit: true,
				TCP: &tbb.TCP{Kind: tbb.Spawn, Pos: tbb.Pos{File: "main.go", Line: 5}, CP: tbb.Return}},
			{ID: 1, Func: 1, Kind: "entry", Pos: tbb.Pos{File: "main.go", Line: 10}, Probe: true, Instrs: 2, Succs: []int{}, Exit: true},
		},
		// Every go statement and sync operation is a site: events name it.
		Sites: []*tbb.Site{
			{ID: 0, Block: 0, Op: "go", Pos: tbb.Pos{File: "main.go", Line: 5, Col: 2}},
			{ID: 1, Block: 0, Op: "recv", Pos: tbb.Pos{File: "main.go", Line: 6, Col: 2}},
			{ID: 2, Block: 1, Op: "send", Pos: tbb.Pos{File: "main.go", Line: 11, Col: 2}},
		},
	}
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "run.dvt")
	err = trace.WriteFile(path, g, []trace.GoroutineEvents{
		{ID: 1, Events: []trace.Event{
			{Kind: trace.EvClock, Time: 0},
			{Kind: trace.EvBlock, Block: 0},
			{Kind: trace.EvSpawn, Site: 0, Ordinal: 1, Child: 2},
			{Kind: trace.EvSync, Op: trace.OpRecv, Site: 1, Object: 1, Waited: true, Begin: 10, End: 90},
			{Kind: trace.EvClock, Time: 100},
		}},
		{ID: 2, Parent: 1, Site: 0, Ordinal: 1, Events: []trace.Event{
			{Kind: trace.EvClock, Time: 20},
			{Kind: trace.EvBlock, Block: 1},
			{Kind: trace.EvSync, Op: trace.OpSend, Site: 2, Object: 1, End: 85},
			{Kind: trace.EvClock, Time: 95},
		}},
	})
	if err != nil {
		log.Fatal(err)
	}
	r, err := trace.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	for _, gi := range r.Goroutines() {
		fmt.Printf("%s: %d blocks, %d waits, %d..%d ns\n", gi.Path, gi.Blocks, gi.Waits, gi.Start, gi.End)
	}
	// Output:
	// main: 1 blocks, 1 waits, 0..100 ns
	// main/work@main.go:5#1: 1 blocks, 0 waits, 20..95 ns
}
