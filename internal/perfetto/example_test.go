package perfetto_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/divergo/divergo/internal/perfetto"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// A goroutine waits on a channel until main sends: the timeline has a wait
// slice on the worker's track and an arrow from main's send to it.
func ExampleWriteTrace() {
	pos := tbb.Pos{File: "main.go", Line: 3}
	g := &tbb.Graph{
		Version: tbb.Version, Module: "example.com/m", Packages: []string{"example.com/m"},
		Funcs: []*tbb.Func{
			{ID: 0, Name: "example.com/m.main", Pkg: "example.com/m", Pos: pos, Entry: 0, Blocks: []int{0}},
			{ID: 1, Name: "example.com/m.worker", Pkg: "example.com/m", Pos: pos, Entry: 1, Blocks: []int{1}},
		},
		Blocks: []*tbb.Block{
			{ID: 0, Func: 0, Kind: "entry", Pos: tbb.Pos{File: "main.go", Line: 4}, Probe: true, Instrs: 5, Succs: []int{}, Exit: true,
				TCP: &tbb.TCP{Kind: tbb.Spawn, Pos: tbb.Pos{File: "main.go", Line: 5}, CP: tbb.Return}},
			{ID: 1, Func: 1, Kind: "entry", Pos: tbb.Pos{File: "main.go", Line: 9}, Probe: true, Instrs: 3, Succs: []int{}, Exit: true},
		},
		Sites: []*tbb.Site{
			{ID: 0, Block: 0, Op: "go", Pos: tbb.Pos{File: "main.go", Line: 5, Col: 2}},
			{ID: 1, Block: 0, Op: "send", Pos: tbb.Pos{File: "main.go", Line: 6, Col: 2}},
			{ID: 2, Block: 1, Op: "recv", Pos: tbb.Pos{File: "main.go", Line: 10, Col: 2}},
		},
	}
	var file bytes.Buffer
	err := trace.Encode(&file, "example", g, []trace.GoroutineEvents{
		{ID: 1, Events: []trace.Event{
			{Kind: trace.EvClock, Time: 0}, {Kind: trace.EvBlock, Block: 0},
			{Kind: trace.EvSpawn, Site: 0, Ordinal: 1, Child: 2},
			{Kind: trace.EvSync, Op: trace.OpSend, Site: 1, Object: 0xc0, End: 4000},
			{Kind: trace.EvExit, Block: 0}, {Kind: trace.EvClock, Time: 5000}}},
		{ID: 2, Parent: 1, Site: 0, Ordinal: 1, Events: []trace.Event{
			{Kind: trace.EvClock, Time: 1000}, {Kind: trace.EvBlock, Block: 1},
			{Kind: trace.EvSync, Op: trace.OpRecv, Site: 2, Object: 0xc0, Waited: true, Begin: 1500, End: 4100},
			{Kind: trace.EvExit, Block: 1}, {Kind: trace.EvClock, Time: 4200}}},
	})
	if err != nil {
		log.Fatal(err)
	}
	r, err := trace.NewReader(bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		log.Fatal(err)
	}

	var out bytes.Buffer
	if err := perfetto.WriteTrace(&out, r); err != nil {
		log.Fatal(err)
	}
	f, err := perfetto.Validate(out.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range f.TraceEvents {
		switch {
		case e.Ph == "M" && *e.Name == "thread_name":
			fmt.Printf("thread %d: %s\n", *e.Tid, e.Args["name"])
		case e.Ph == "X" && *e.Cat == "wait":
			fmt.Printf("tid %d: %s from %.1fµs for %.1fµs, released by %s\n", *e.Tid, *e.Name, *e.Ts, *e.Dur, e.Args["releaser"])
		case e.Ph == "s" || e.Ph == "f":
			fmt.Printf("tid %d: arrow %s %s at %.3fµs\n", *e.Tid, *e.Cat, e.Ph, *e.Ts)
		}
	}
	// Output:
	// thread 101: main
	// thread 102: main/worker@main.go:5#1
	// tid 101: arrow spawn s at 1.000µs
	// tid 102: arrow spawn f at 1.001µs
	// tid 102: recv @ main.go:10 from 1.5µs for 2.6µs, released by main (goroutine 1)
	// tid 101: arrow release s at 4.000µs
	// tid 102: arrow release f at 4.099µs
}
