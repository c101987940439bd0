package compare

import (
	"github.com/divergo/divergo/internal/flow"
	"github.com/divergo/divergo/internal/tbb"
)

// postDominators returns the immediate post-dominator of every block of f,
// with noBlock standing for the virtual exit that every Exit block reaches.
// It is internal/flow's, the computation that placed the graph's CPs, so
// that a section of an unflagged block in a server's endless loop meets
// again where the analysis would have put its CP: inside the loop, at the
// latest at its head.
func postDominators(g *tbb.Graph, f *tbb.Func) map[int32]int32 {
	idx := make(map[int]int, len(f.Blocks))
	for i, b := range f.Blocks {
		idx[b] = i
	}
	succs := make([][]int, len(f.Blocks))
	exits := make([]bool, len(f.Blocks))
	for i, b := range f.Blocks {
		blk := g.Blocks[b]
		exits[i] = blk.Exit
		for _, s := range blk.Succs {
			if j, ok := idx[s]; ok {
				succs[i] = append(succs[i], j)
			}
		}
	}
	out := make(map[int32]int32, len(f.Blocks))
	for i, d := range flow.IPostDom(succs, exits) {
		if d < 0 {
			out[int32(f.Blocks[i])] = noBlock
		} else {
			out[int32(f.Blocks[i])] = int32(f.Blocks[d])
		}
	}
	return out
}
