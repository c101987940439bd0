package perfetto

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// testGraph is a small program in main.go:
//
//	func main() {                 // block 0, line 5
//		for ... { go worker() }   // block 1, line 6: spawn
//		other()                   // block 2, line 8
//	}
//	func worker() {               // block 3, line 12: branch at 13, CP block 5
//		if shared { ... }         // block 4, line 14
//		ch <- 1; mu.Unlock()      // block 5, line 16
//	}
//	func other() {                // block 6, line 20: no TCP
//		if x { ... }              // block 7, line 21
//		return                    // block 8, line 22
//	}
//	func compute() {}             // block 9, line 26
func testGraph(t testing.TB) *tbb.Graph {
	t.Helper()
	return mkGraph(t,
		[]*tbb.Func{
			{ID: 0, Name: "example.com/m.main", Pkg: "example.com/m", Pos: pos(4), Entry: 0, Blocks: []int{0, 1, 2}},
			{ID: 1, Name: "example.com/m.worker", Pkg: "example.com/m", Pos: pos(11), Entry: 3, Blocks: []int{3, 4, 5}},
			{ID: 2, Name: "example.com/m.other", Pkg: "example.com/m", Pos: pos(19), Entry: 6, Blocks: []int{6, 7, 8}},
			{ID: 3, Name: "example.com/m.compute", Pkg: "example.com/m", Pos: pos(25), Entry: 9, Blocks: []int{9}},
		},
		[]*tbb.Block{
			{ID: 0, Func: 0, Kind: "entry", Pos: pos(5), Probe: true, Instrs: 4, Succs: []int{1}},
			{ID: 1, Func: 0, Kind: "for.body", Pos: pos(6), Probe: true, Instrs: 10, Succs: []int{1, 2},
				TCP: &tbb.TCP{Kind: tbb.Spawn, Pos: tbb.Pos{File: "main.go", Line: 6, Col: 3}, CP: 2, CPPos: pos(8)}},
			{ID: 2, Func: 0, Kind: "for.done", Pos: pos(8), Probe: true, Instrs: 2, Succs: []int{}, Exit: true, CP: true},
			{ID: 3, Func: 1, Kind: "entry", Pos: pos(12), Probe: true, Instrs: 3, Succs: []int{4, 5},
				TCP: &tbb.TCP{Kind: tbb.Branch, Pos: pos(13), CP: 5, CPPos: pos(16)}},
			{ID: 4, Func: 1, Kind: "if.then", Pos: pos(14), Probe: true, Instrs: 5, Succs: []int{5}},
			{ID: 5, Func: 1, Kind: "if.done", Pos: pos(16), Probe: true, Instrs: 2, Succs: []int{}, Exit: true, CP: true},
			{ID: 6, Func: 2, Kind: "entry", Pos: pos(20), Probe: true, Instrs: 3, Succs: []int{7, 8}},
			{ID: 7, Func: 2, Kind: "if.then", Pos: pos(21), Probe: true, Instrs: 3, Succs: []int{8}},
			{ID: 8, Func: 2, Kind: "if.done", Pos: pos(22), Probe: true, Instrs: 1, Succs: []int{}, Exit: true},
			{ID: 9, Func: 3, Kind: "entry", Pos: pos(26), Probe: true, Instrs: 7, Succs: []int{}, Exit: true},
		})
}

// pos is a position in main.go.
func pos(line int) tbb.Pos { return tbb.Pos{File: "main.go", Line: line} }

// mkGraph makes a graph of package example.com/m, through its JSON form
// as a trace carries it. It has one site per block, site i in block i at
// the block's line, so that the synthetic events below name block b's
// operation as site b.
func mkGraph(t testing.TB, funcs []*tbb.Func, blocks []*tbb.Block) *tbb.Graph {
	t.Helper()
	g := &tbb.Graph{Version: tbb.Version, Module: "example.com/m", Packages: []string{"example.com/m"}, Funcs: funcs, Blocks: blocks}
	for _, b := range blocks {
		g.Sites = append(g.Sites, &tbb.Site{ID: b.ID, Block: b.ID, Op: "lock", Pos: b.Pos})
	}
	data, err := tbb.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	g, err = tbb.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// open encodes a synthetic trace and opens it with the streaming reader.
func open(t testing.TB, g *tbb.Graph, gs []trace.GoroutineEvents) *trace.Reader {
	t.Helper()
	var buf bytes.Buffer
	if err := trace.Encode(&buf, "prog", g, gs); err != nil {
		t.Fatal(err)
	}
	r, err := trace.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Event constructors, to keep the synthetic traces readable.
func clk(t int64) trace.Event  { return trace.Event{Kind: trace.EvClock, Time: t} }
func blk(b uint32) trace.Event { return trace.Event{Kind: trace.EvBlock, Block: b} }
func ext(b uint32) trace.Event { return trace.Event{Kind: trace.EvExit, Block: b} }
func spawn(b uint32, ord uint32, child uint64) trace.Event {
	return trace.Event{Kind: trace.EvSpawn, Site: b, Block: b, Ordinal: ord, Child: child}
}
func syn(op trace.Op, b uint32, obj uint64, end int64) trace.Event {
	return trace.Event{Kind: trace.EvSync, Op: op, Site: b, Block: b, Object: obj, End: end}
}
func wait(op trace.Op, b uint32, obj uint64, begin, end int64) trace.Event {
	return trace.Event{Kind: trace.EvSync, Op: op, Site: b, Block: b, Object: obj, Waited: true, Begin: begin, End: end}
}

// slice is a slice drawn on a thread, B/E paired or X, for assertions.
type slice struct {
	name, cat  string
	pid, tid   int64
	start, end int64 // ns
	depth      int
	args       map[string]any
}

// slices pairs the B and E events of a validated file (in file order per
// thread, which is how this package writes them) and adds the X events.
func slices(f *File) []slice {
	var out []slice
	stacks := map[[2]int64][]int{}
	for i := range f.TraceEvents {
		e := &f.TraceEvents[i]
		k := [2]int64{deref(e.Pid), deref(e.Tid)}
		switch e.Ph {
		case "B":
			stacks[k] = append(stacks[k], len(out))
			out = append(out, slice{name: *e.Name, cat: str0(e.Cat), pid: k[0], tid: k[1], start: ns(*e.Ts), depth: len(stacks[k]) - 1, args: e.Args})
		case "E":
			s := stacks[k]
			out[s[len(s)-1]].end = ns(*e.Ts)
			stacks[k] = s[:len(s)-1]
		case "X":
			start := ns(*e.Ts)
			out = append(out, slice{name: *e.Name, cat: str0(e.Cat), pid: k[0], tid: k[1], start: start, end: start + ns(*e.Dur), depth: -1, args: e.Args})
		}
	}
	return out
}

func deref(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// threadNames maps pid/tid to thread names, and lists them per pid in sort
// index order.
func threadNames(f *File) (map[[2]int64]string, map[int64][]string) {
	names := map[[2]int64]string{}
	idx := map[[2]int64]int{}
	for _, e := range f.TraceEvents {
		if e.Ph != "M" {
			continue
		}
		k := [2]int64{deref(e.Pid), deref(e.Tid)}
		switch *e.Name {
		case "thread_name":
			names[k] = e.Args["name"].(string)
		case "thread_sort_index":
			idx[k] = int(e.Args["sort_index"].(float64))
		}
	}
	order := map[int64][]string{}
	for k, n := range names {
		list := order[k[0]]
		for len(list) <= idx[k] {
			list = append(list, "")
		}
		list[idx[k]] = n
		order[k[0]] = list
	}
	return names, order
}

// find returns the slices whose name is name, failing unless there are n.
func find(t *testing.T, ss []slice, name string, n int) []slice {
	t.Helper()
	var out []slice
	for _, s := range ss {
		if s.name == name {
			out = append(out, s)
		}
	}
	if len(out) != n {
		var names []string
		for _, s := range ss {
			names = append(names, fmt.Sprintf("%q", s.name))
		}
		t.Fatalf("%d slices named %q, want %d; slices: %v", len(out), name, n, names)
	}
	return out
}
