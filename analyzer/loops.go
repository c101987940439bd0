package analyzer

import (
	"sort"

	"golang.org/x/tools/go/ssa"
)

// loopInfo describes the natural loops of a function, for the dependence
// of values that leave a loop. Inside a loop, the k-th iteration's values
// are the same in two runs whatever decides when the loop ends; after the
// loop, a value defined in it is the one of the iteration where it ended,
// so it depends on the conditions that can end the loop (a shared loop
// condition, a shared break). Go's SSA has no separate value for "after the
// loop", so the dependence is added where such a value is used outside.
type loopInfo struct {
	chain [][]int          // per block: headers of the loops holding it, innermost first
	exits map[int][]cdEdge // per header: the branches that can leave the loop
}

func newLoopInfo(fn *ssa.Function, cd *cdep) *loopInfo {
	n := len(fn.Blocks)
	body := map[int][]bool{}
	for _, h := range fn.Blocks {
		for _, p := range h.Preds {
			if !h.Dominates(p) {
				continue
			}
			in := body[h.Index]
			if in == nil {
				in = make([]bool, n)
				in[h.Index] = true
				body[h.Index] = in
			}
			stack := []*ssa.BasicBlock{p}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if in[x.Index] {
					continue
				}
				in[x.Index] = true
				stack = append(stack, x.Preds...)
			}
		}
	}
	if len(body) == 0 {
		return nil
	}
	li := &loopInfo{chain: make([][]int, n), exits: map[int][]cdEdge{}}
	size := map[int]int{}
	for h, in := range body {
		for b, ok := range in {
			if ok {
				size[h]++
				li.chain[b] = append(li.chain[b], h)
			}
		}
	}
	for b := range li.chain {
		sort.Slice(li.chain[b], func(i, j int) bool { return size[li.chain[b][i]] < size[li.chain[b][j]] })
	}
	for h, in := range body {
		seen := map[int]bool{}
		var exits []cdEdge
		add := func(e cdEdge) {
			if !seen[e.c] {
				seen[e.c] = true
				exits = append(exits, cdEdge{c: e.c})
			}
		}
		for b, ok := range in {
			if !ok {
				continue
			}
			blk := fn.Blocks[b]
			for _, s := range blk.Succs {
				if in[s.Index] {
					continue
				}
				if len(blk.Succs) > 1 {
					add(cdEdge{c: b})
				}
				for _, e := range cd.conds(b, h) {
					add(e)
				}
			}
		}
		li.exits[h] = exits
	}
	return li
}
