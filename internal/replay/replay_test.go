package replay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// loopGraph is a minimized loop calling a helper:
//
//	func f() {          // 0 entry, probed
//		for cond() {     // 1 head, implied (loop TCP), cond may call g
//			x++          // 2 body, probed
//		}                // 3 post, implied
//	}                    // 4 done, implied, exit
//	func g() {          // 5 entry, probed
//		if x {           // 6 then, probed
//		}                // 7 done, implied, exit
//	}
func loopGraph() *tbb.Graph {
	b := func(id, fn int, probe, exit bool, succs ...int) *tbb.Block {
		return &tbb.Block{ID: id, Func: fn, Probe: probe, Exit: exit, Instrs: 1, Succs: succs}
	}
	return &tbb.Graph{
		Funcs: []*tbb.Func{
			{ID: 0, Name: "f", Entry: 0, Blocks: []int{0, 1, 2, 3, 4}},
			{ID: 1, Name: "g", Entry: 5, Blocks: []int{5, 6, 7}},
		},
		Blocks: []*tbb.Block{
			b(0, 0, true, false, 1),
			b(1, 0, false, false, 2, 4),
			b(2, 0, true, false, 3),
			b(3, 0, false, false, 1),
			b(4, 0, false, true),
			b(5, 1, true, false, 6, 7),
			b(6, 1, true, false, 7),
			b(7, 1, false, true),
		},
	}
}

// ev is a recorded event for the tests: a block, or the exit of the
// function whose entry is the block.
type ev struct {
	exit  bool
	block int32
}

func blk(b int32) ev { return ev{block: b} }
func ret(b int32) ev { return ev{exit: true, block: b} }

// run replays evs and writes the steps as "call 0@1<-1" (kind, block,
// depth, from) joined by spaces.
func run(r *Replayer, evs ...ev) string {
	var steps []Step
	for _, e := range evs {
		if e.exit {
			steps = r.Exit(e.block, steps)
		} else {
			steps = r.Block(e.block, steps)
		}
	}
	var out []string
	names := [...]string{Block: "b", Call: "call", Exit: "exit"}
	for _, s := range steps {
		out = append(out, fmt.Sprintf("%s %d@%d<-%d", names[s.Kind], s.Block, s.Depth, s.From))
	}
	return strings.Join(out, " ")
}

func TestReplay(t *testing.T) {
	p := NewProgram(loopGraph())
	cases := []struct {
		name      string
		evs       []ev
		want      string
		anomalies int64
	}{
		{
			// The head follows the entry eagerly (its only successor), and
			// post and head follow each body, before g's call: the call
			// belongs to the head that evaluates it. The exit path puts
			// done back.
			name: "loop twice",
			evs:  []ev{blk(0), blk(2), blk(2), ret(0)},
			want: "call 0@1<--1 b 1@1<-0 b 2@1<-1 b 3@1<-2 b 1@1<-3 b 2@1<-1 b 3@1<-2 b 1@1<-3 b 4@1<-1 exit 0@1<-4",
		},
		{
			name: "call from the loop head",
			evs:  []ev{blk(0), blk(2), blk(5), ret(5), ret(0)},
			want: "call 0@1<--1 b 1@1<-0 b 2@1<-1 b 3@1<-2 b 1@1<-3 call 5@2<-1 b 7@2<-5 exit 5@2<-7 b 4@1<-1 exit 0@1<-4",
		},
		{
			name: "single implied successor follows eagerly",
			evs:  []ev{blk(5), blk(6), ret(5)},
			want: "call 5@1<--1 b 6@1<-5 b 7@1<-6 exit 5@1<-7",
		},
		{
			// g's exit event was lost: f's block closes g's frame.
			name:      "block of an outer frame",
			evs:       []ev{blk(0), blk(5), blk(2)},
			want:      "call 0@1<--1 b 1@1<-0 call 5@2<-1 exit 5@2<-5 b 2@1<-1 b 3@1<-2 b 1@1<-3",
			anomalies: 1,
		},
		{
			name:      "exit of no open frame, block out of range",
			evs:       []ev{blk(0), ret(5), blk(99), blk(-1)},
			want:      "call 0@1<--1 b 1@1<-0",
			anomalies: 3,
		},
		{
			// No path from g's done block back to the then block: taken
			// as the block anyway, and counted.
			name:      "no path",
			evs:       []ev{blk(5), blk(6), blk(6)},
			want:      "call 5@1<--1 b 6@1<-5 b 7@1<-6 b 6@1<-7 b 7@1<-6",
			anomalies: 1,
		},
		{
			name:      "exit of an outer frame closes the inner one",
			evs:       []ev{blk(0), blk(2), blk(5), ret(0)},
			want:      "call 0@1<--1 b 1@1<-0 b 2@1<-1 b 3@1<-2 b 1@1<-3 call 5@2<-1 exit 5@2<-5 b 4@1<-1 exit 0@1<-4",
			anomalies: 1,
		},
	}
	paths := NewPaths(p)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewReplayer(paths)
			if got := run(r, c.evs...); got != c.want {
				t.Errorf("steps\n got %s\nwant %s", got, c.want)
			}
			if r.Anomalies != c.anomalies {
				t.Errorf("anomalies = %d, want %d", r.Anomalies, c.anomalies)
			}
		})
	}
}

// TestDepthCur checks the stack a reader sees between events.
func TestDepthCur(t *testing.T) {
	r := NewReplayer(NewPaths(NewProgram(loopGraph())))
	if r.Depth() != 0 || r.Cur() != NoBlock {
		t.Fatalf("fresh replayer: depth %d cur %d", r.Depth(), r.Cur())
	}
	r.Block(0, nil)
	r.Block(2, nil)
	r.Block(5, nil)
	if r.Depth() != 2 || r.Cur() != 5 {
		t.Errorf("in g: depth %d cur %d, want 2 and 5", r.Depth(), r.Cur())
	}
	r.Exit(5, nil)
	if r.Depth() != 1 || r.Cur() != 1 {
		t.Errorf("back in f: depth %d cur %d, want 1 and 1 (the loop head)", r.Depth(), r.Cur())
	}
}

// TestBadGraphs replays over graphs no reader would accept: nothing panics.
func TestBadGraphs(t *testing.T) {
	graphs := []*tbb.Graph{
		nil,
		{Blocks: []*tbb.Block{nil, {ID: 1, Succs: []int{7, -1, 1}}}, Funcs: []*tbb.Func{nil, {Entry: 9}}},
		// A cycle of implied blocks after the entry: eager stops.
		{Funcs: []*tbb.Func{{Entry: 0}}, Blocks: []*tbb.Block{{ID: 0, Probe: true, Succs: []int{1}}, {ID: 1, Succs: []int{2}}, {ID: 2, Succs: []int{1}}}},
	}
	for i, g := range graphs {
		r := NewReplayer(NewPaths(NewProgram(g)))
		for _, b := range []int32{0, 1, 2, 0, -3, 1 << 30} {
			r.Block(b, nil)
			r.Exit(b, nil)
		}
		r.Block(0, nil)
		if steps := r.Block(0, nil); i == 2 && len(steps) > 3*len(g.Blocks)+2 {
			t.Errorf("graph %d: %d steps for one block", i, len(steps))
		}
	}
}
