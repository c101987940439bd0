package compare

import "github.com/divergo/divergo/internal/tbb"

// postDominators returns the immediate post-dominator of every block of f,
// with noBlock standing for the virtual exit that every Exit block reaches.
// It is the Cooper–Harvey–Kennedy iteration run on the reversed graph.
// Blocks that cannot reach the exit (an endless loop) get noBlock too: the
// only place a comparison can meet again after them is the frame's return.
func postDominators(g *tbb.Graph, f *tbb.Func) map[int32]int32 {
	// Node 0 is the virtual exit; block ids map to 1..n.
	idx := make(map[int]int, len(f.Blocks))
	for i, b := range f.Blocks {
		idx[b] = i + 1
	}
	n := len(f.Blocks) + 1
	// rsucc: successors in the reversed graph (the original predecessors).
	rsucc := make([][]int, n)
	// rpred: predecessors in the reversed graph (the original successors).
	rpred := make([][]int, n)
	for i, b := range f.Blocks {
		blk := g.Blocks[b]
		if blk.Exit || len(blk.Succs) == 0 {
			rsucc[0] = append(rsucc[0], i+1)
			rpred[i+1] = append(rpred[i+1], 0)
		}
		for _, s := range blk.Succs {
			j, ok := idx[s]
			if !ok {
				continue
			}
			rsucc[j] = append(rsucc[j], i+1)
			rpred[i+1] = append(rpred[i+1], j)
		}
	}
	// Postorder numbering of the reversed graph from the exit, iteratively.
	order := make([]int, n) // node -> postorder number, -1 unvisited
	for i := range order {
		order[i] = -1
	}
	var post []int
	seen := make([]bool, n)
	type item struct{ node, next int }
	stack := []item{{0, 0}}
	seen[0] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(rsucc[top.node]) {
			s := rsucc[top.node][top.next]
			top.next++
			if !seen[s] {
				seen[s] = true
				stack = append(stack, item{s, 0})
			}
			continue
		}
		order[top.node] = len(post)
		post = append(post, top.node)
		stack = stack[:len(stack)-1]
	}
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[0] = 0
	intersect := func(a, b int) int {
		for a != b {
			for order[a] < order[b] {
				a = idom[a]
			}
			for order[b] < order[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(post) - 1; i >= 0; i-- { // reverse postorder
			v := post[i]
			if v == 0 {
				continue
			}
			nd := -1
			for _, p := range rpred[v] {
				if idom[p] == -1 {
					continue
				}
				if nd == -1 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd != -1 && idom[v] != nd {
				idom[v] = nd
				changed = true
			}
		}
	}
	out := make(map[int32]int32, len(f.Blocks))
	for i, b := range f.Blocks {
		d := idom[i+1]
		if d <= 0 {
			out[int32(b)] = noBlock
		} else {
			out[int32(b)] = int32(f.Blocks[d-1])
		}
	}
	return out
}
