package compare

import (
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// TestPostDomEndlessLoop: in a server's endless loop (for { select ... })
// compare meets two runs again where the analysis would have put the CP,
// inside the loop at its head, not at a return that never comes. It used
// its own post-dominators, which sent every such block to return.
func TestPostDomEndlessLoop(t *testing.T) {
	// 0 entry -> 1 head -> {2, 3} -> 1, no exit.
	g := &tbb.Graph{Blocks: []*tbb.Block{
		{ID: 0, Succs: []int{1}},
		{ID: 1, Succs: []int{2, 3}},
		{ID: 2, Succs: []int{1}},
		{ID: 3, Succs: []int{1}},
	}}
	f := &tbb.Func{Blocks: []int{0, 1, 2, 3}}
	got := postDominators(g, f)
	want := map[int32]int32{0: 1, 1: noBlock, 2: 1, 3: 1}
	for b, d := range want {
		if got[b] != d {
			t.Errorf("ipdom(%d) = %d, want %d", b, got[b], d)
		}
	}
}
