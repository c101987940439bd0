package compare

import (
	"github.com/divergo/divergo/internal/flow"
	"github.com/divergo/divergo/internal/tbb"
)

// naturalLoops gives every block of f the header of the innermost natural
// loop it lies in (blockInfo.inLoop, noBlock outside any loop) and every
// header the header of the loop around its own (blockInfo.outerLoop,
// noBlock for an outermost loop).
//
// A natural loop is a back edge t→h, h dominating t, and the blocks that
// reach t without passing h; loops sharing a header are one. A section's
// walk from a select in an endless loop asks whether a block is still in
// the select's own loop (pairCmp.advance): a side that left it (a break to
// an outer loop) is not at the select "again" when it comes back, and
// only the dominator tree tells an inner loop from an outer one when
// neither head decides anything (for { select {...} } inside
// for i := 0; i < n; i++).
func (p *program) naturalLoops(f *tbb.Func) {
	g := p.g
	n := len(f.Blocks)
	idx := make(map[int]int, n)
	for i, b := range f.Blocks {
		idx[b] = i
	}
	succs := make([][]int, n)
	preds := make([][]int, n)
	for i, b := range f.Blocks {
		for _, s := range g.Blocks[b].Succs {
			if j, ok := idx[s]; ok {
				succs[i] = append(succs[i], j)
				preds[j] = append(preds[j], i)
			}
		}
	}
	// Dominators are post-dominators of the reversed graph whose only
	// exit is the entry.
	entry := make([]bool, n)
	if n > 0 {
		entry[0] = true
	}
	idom := flow.IPostDom(preds, entry)
	dominates := func(h, x int) bool {
		for steps := 0; x >= 0 && steps <= n; steps++ {
			if x == h {
				return true
			}
			x = idom[x]
		}
		return false
	}
	// body[h] for every header h, in the order headers are found.
	body := map[int][]bool{}
	var heads []int
	for t := range n {
		for _, h := range succs[t] {
			if !dominates(h, t) {
				continue
			}
			in := body[h]
			if in == nil {
				in = make([]bool, n)
				in[h] = true
				body[h] = in
				heads = append(heads, h)
			}
			stack := []int{t}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if in[x] {
					continue
				}
				in[x] = true
				stack = append(stack, preds[x]...)
			}
		}
	}
	size := make(map[int]int, len(heads))
	for _, h := range heads {
		for _, in := range body[h] {
			if in {
				size[h]++
			}
		}
	}
	// The innermost loop of a block is the smallest body holding it; the
	// loop around a header's is the smallest other one holding the header.
	innermost := func(x, not int) int32 {
		best, bestSize := int32(noBlock), n+1
		for _, h := range heads {
			if h != not && body[h][x] && size[h] < bestSize {
				best, bestSize = int32(f.Blocks[h]), size[h]
			}
		}
		return best
	}
	for x := range n {
		p.blocks[f.Blocks[x]].inLoop = innermost(x, -1)
	}
	for _, h := range heads {
		p.blocks[f.Blocks[h]].outerLoop = innermost(h, h)
	}
}

// within reports whether block b lies in the natural loop headed by h, or
// in a loop inside it.
func (p *program) within(b, h int32) bool {
	if b < 0 || int(b) >= len(p.blocks) {
		return false
	}
	for x, steps := p.blocks[b].inLoop, 0; x != noBlock && steps <= len(p.blocks); steps++ {
		if x == h {
			return true
		}
		x = p.blocks[x].outerLoop
	}
	return false
}
