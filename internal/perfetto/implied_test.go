package perfetto

import (
	"bytes"
	"testing"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// impliedGraph is a loop minimized to one probe per iteration, as the
// instrumenter leaves it (internal/flow, "Fewer probes"):
//
//	func main() {       // block 0, line 5
//		for i < n {      // block 1, line 6: loop TCP, implied
//			x = f(x)     // block 2, line 7: probed
//		}                // block 3, line 6: post, implied, 40 instructions
//		                 // block 4, line 9: loop done, implied, the CP
//		ch <- x          // block 5, line 10: probed
//	}
func impliedGraph(t *testing.T) *tbb.Graph {
	t.Helper()
	return mkGraph(t,
		[]*tbb.Func{{ID: 0, Name: "example.com/m.main", Pkg: "example.com/m", Pos: pos(4), Entry: 0, Blocks: []int{0, 1, 2, 3, 4, 5}}},
		[]*tbb.Block{
			{ID: 0, Func: 0, Kind: "entry", Pos: pos(5), Probe: true, Instrs: 2, Succs: []int{1}},
			{ID: 1, Func: 0, Kind: "for.loop", Pos: pos(6), Instrs: 1, Succs: []int{2, 4},
				TCP: &tbb.TCP{Kind: tbb.Loop, Pos: pos(6), CP: 4, CPPos: pos(9)}},
			{ID: 2, Func: 0, Kind: "for.body", Pos: pos(7), Probe: true, Instrs: 2, Succs: []int{3}},
			{ID: 3, Func: 0, Kind: "for.post", Pos: pos(6), Instrs: 40, Succs: []int{1}},
			{ID: 4, Func: 0, Kind: "for.done", Pos: pos(9), Instrs: 2, Succs: []int{5}, CP: true},
			{ID: 5, Func: 0, Kind: "body", Pos: pos(10), Probe: true, Instrs: 2, Succs: []int{}, Exit: true},
		})
}

// TestDiffImpliedLoop checks that the divergent section of a loop whose
// head, post and exit have no probes covers exactly the extra iteration:
// the writer puts the implied blocks back as compare does, so the section
// starts at the extra body and ends at the loop's implied done block, and
// the post's 40 instructions take their share of the time.
func TestDiffImpliedLoop(t *testing.T) {
	g := impliedGraph(t)
	// The send's timestamp is 10 ns per instruction run before it.
	runOf := func(iters int) *trace.Reader {
		evs := []trace.Event{clk(0), blk(0)}
		for range iters {
			evs = append(evs, blk(2))
		}
		instrs := int64(2 + 1 + iters*(2+40+1) + 2 + 2) // entry, head, iterations, done, send block
		evs = append(evs, blk(5), syn(trace.OpSend, 5, 0xA, 10*instrs), ext(0), clk(10*instrs+100))
		return open(t, g, []trace.GoroutineEvents{{ID: 1, Events: evs}})
	}
	var buf bytes.Buffer
	rep, err := writeDiff(&buf, Run{Reader: runOf(3)}, Run{Reader: runOf(2)}, compare.Options{}, Options{MinFrame: -1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Sections != 1 {
		t.Fatalf("%d sections, want 1", rep.Summary.Sections)
	}
	f, err := Validate(buf.Bytes())
	if err != nil {
		t.Fatalf("output does not validate: %v\n%s", err, buf.Bytes())
	}
	var secA *slice
	for _, s := range slices(f) {
		if s.cat == "divergent" && s.pid == 1 {
			secA = &s
		}
	}
	if secA == nil {
		t.Fatalf("no divergent section in run A:\n%s", buf.Bytes())
	}
	if want := "divergent: loop at main.go:6"; secA.name != want {
		t.Errorf("section %q, want %q", secA.name, want)
	}
	// Before the third body: entry 2, head 1, two iterations of 43.
	// Before the done block: one more iteration.
	start, end := int64(10*(2+1+2*43)), int64(10*(2+1+3*43))
	if secA.start != start || secA.end != end {
		t.Errorf("section in run A from %d to %d ns, want %d to %d (the third iteration, implied blocks counted)", secA.start, secA.end, start, end)
	}
}
