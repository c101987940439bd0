package flaky

import (
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// memTrace is a run held in memory: a hand-made graph and event lists.
type memTrace struct {
	g   *tbb.Graph
	gs  []trace.GoroutineInfo
	evs map[uint64][]trace.Event
}

func (m *memTrace) Graph() *tbb.Graph                 { return m.g }
func (m *memTrace) Goroutines() []trace.GoroutineInfo { return m.gs }
func (m *memTrace) Events(id uint64) (trace.EventIter, error) {
	return trace.SliceIter(m.evs[id]), nil
}

// add records goroutine g with its events.
func (m *memTrace) add(g trace.GoroutineInfo, evs ...trace.Event) *memTrace {
	if m.evs == nil {
		m.evs = map[uint64][]trace.Event{}
	}
	m.gs = append(m.gs, g)
	m.evs[g.ID] = evs
	return m
}

func blk(id int) trace.Event    { return trace.Event{Kind: trace.EvBlock, Block: uint32(id)} }
func ret(entry int) trace.Event { return trace.Event{Kind: trace.EvExit, Block: uint32(entry)} }

// twoBranches is a test whose outcome one branch decides, with another
// branch that goes either way in any run:
//
//	10 func TestX(t *testing.T) {
//	11 	if raced() {        // branch TCP: decides the outcome
//	12 		t.Fatal()
//	13 	} else {
//	14 	}
//	16 	if coin() {         // branch TCP: goes either way
//	17 		a()
//	18 	} else { b() }
//	19 }
type twoBranches struct {
	g                                  *tbb.Graph
	entry, then, els, join, a, b, done int
}

func newTwoBranches(t testing.TB) *twoBranches {
	t.Helper()
	x := &twoBranches{}
	g := &tbb.Graph{Version: tbb.Version, Module: "example.com/m"}
	const file = "m/x_test.go"
	g.Funcs = []*tbb.Func{{ID: 0, Name: "example.com/m.TestX", Pkg: "example.com/m", Pos: tbb.Pos{File: file, Line: 10}, Entry: 0}}
	block := func(kind string, line int) int {
		id := len(g.Blocks)
		g.Blocks = append(g.Blocks, &tbb.Block{ID: id, Func: 0, Kind: kind, Pos: tbb.Pos{File: file, Line: line}, Probe: true, Instrs: 3, Succs: []int{}})
		g.Funcs[0].Blocks = append(g.Funcs[0].Blocks, id)
		g.Sites = append(g.Sites, &tbb.Site{ID: id, Block: id, Op: "lock", Pos: tbb.Pos{File: file, Line: line}})
		return id
	}
	x.entry, x.then, x.els, x.join = block("entry", 11), block("if.then", 12), block("if.else", 14), block("if.done", 16)
	x.a, x.b, x.done = block("if.then", 17), block("if.else", 18), block("if.done", 19)
	edge := func(from int, to ...int) { g.Blocks[from].Succs = append(g.Blocks[from].Succs, to...) }
	edge(x.entry, x.then, x.els)
	edge(x.then, x.join)
	edge(x.els, x.join)
	edge(x.join, x.a, x.b)
	edge(x.a, x.done)
	edge(x.b, x.done)
	g.Blocks[x.done].Exit = true
	tcp := func(b, line, cp int) {
		g.Blocks[b].TCP = &tbb.TCP{Kind: tbb.Branch, Pos: tbb.Pos{File: file, Line: line}, CP: cp, CPPos: g.Blocks[cp].Pos}
		g.Blocks[cp].CP = true
	}
	tcp(x.entry, 11, x.join)
	tcp(x.join, 16, x.done)
	data, err := tbb.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if x.g, err = tbb.Unmarshal(data); err != nil {
		t.Fatal(err)
	}
	return x
}

// run is one run of the test binary: TestX on goroutine 2 (then when it
// fails), coin deciding the second branch; another test, TestOther, on
// goroutine 1 takes the decisive branch the other way, so that a view
// that let it in would blur the separation.
func (x *twoBranches) run(fail, coin bool) *memTrace { return x.runAs(fail, coin, fail) }

// runAs is run with the outcome given apart from the first branch.
func (x *twoBranches) runAs(decide, coin, fail bool) *memTrace {
	path := func(decide, coin bool) []trace.Event {
		evs := []trace.Event{blk(x.entry)}
		if decide {
			evs = append(evs, blk(x.then))
		} else {
			evs = append(evs, blk(x.els))
		}
		evs = append(evs, blk(x.join))
		if coin {
			evs = append(evs, blk(x.a))
		} else {
			evs = append(evs, blk(x.b))
		}
		return append(evs, blk(x.done), ret(x.entry))
	}
	result := trace.TestPass
	if fail {
		result = trace.TestFail
	}
	m := &memTrace{g: x.g}
	m.add(trace.GoroutineInfo{ID: 1, Test: "TestOther", Result: trace.TestPass, Ended: true, Path: "TestOther"}, path(!decide, !coin)...)
	m.add(trace.GoroutineInfo{ID: 2, Test: "TestX", Result: result, Ended: true, Path: "TestX"}, path(decide, coin)...)
	return m
}
