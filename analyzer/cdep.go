package analyzer

import (
	"golang.org/x/tools/go/ssa"

	"github.com/divergo/divergo/internal/flow"
)

// cdep holds the post-dominator tree and control dependence of one SSA
// function. The CFG gets a virtual exit reached from every return and panic
// block and from every block that cannot reach one (an endless loop), so
// that every block has a post-dominator.
type cdep struct {
	fn    *ssa.Function
	ipdom []int      // immediate post-dominator by block index; exit = len(Blocks)
	ctrl  [][]cdEdge // ctrl[b]: the branch blocks on which b is directly control dependent
	memo  map[[2]int][]cdEdge
}

func newCdep(fn *ssa.Function) *cdep {
	n := len(fn.Blocks)
	exit := n
	succs := make([][]int, n)
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			succs[b.Index] = append(succs[b.Index], s.Index)
		}
	}
	// The virtual exit is reached from every block without successors
	// (return, panic) and, through internal/flow's rule, from the heads of
	// loops that never end: the same post-dominators the graph's CPs come
	// from, so that control dependence inside a server loop is the loop's.
	ipdom := flow.IPostDom(succs, make([]bool, n))
	ipdom = append(ipdom, exit)
	for b := range ipdom {
		if ipdom[b] < 0 {
			ipdom[b] = exit
		}
	}

	// Control dependence (Ferrante, Ottenstein, Warren): for an edge c→s
	// with s not the post-dominator of c, every block from s up the
	// post-dominator tree to ipdom(c), exclusive, depends on c.
	ctrl := make([][]cdEdge, n)
	for _, c := range fn.Blocks {
		if len(c.Succs) < 2 {
			continue
		}
		stop := ipdom[c.Index]
		for k, s := range c.Succs {
			for x := s.Index; x != stop && x != exit; x = ipdom[x] {
				if l := ctrl[x]; len(l) > 0 && l[len(l)-1].c == c.Index {
					l[len(l)-1].sides |= 1 << k
				} else {
					ctrl[x] = append(ctrl[x], cdEdge{c.Index, 1 << k})
				}
			}
		}
	}
	return &cdep{fn: fn, ipdom: ipdom[:n:n], ctrl: ctrl, memo: map[[2]int][]cdEdge{}}
}

// cdEdge says that a block depends on branch block c, reached through the
// successors of c whose indices are set in sides.
type cdEdge struct {
	c     int
	sides uint8
}

// conds returns the branch blocks that decide whether control reaches b
// once it has reached limit: the transitive control dependences of b that
// limit dominates, each with the sides of the branch that lead to b. limit
// < 0 means no limit.
func (c *cdep) conds(b, limit int) []cdEdge {
	key := [2]int{b, limit}
	if r, ok := c.memo[key]; ok {
		return r
	}
	var out []cdEdge
	at := map[int]int{} // branch block -> index in out
	stack := []int{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range c.ctrl[x] {
			if limit >= 0 && !c.fn.Blocks[limit].Dominates(c.fn.Blocks[d.c]) {
				continue
			}
			if i, ok := at[d.c]; ok {
				out[i].sides |= d.sides
				continue
			}
			at[d.c] = len(out)
			out = append(out, d)
			stack = append(stack, d.c)
		}
	}
	c.memo[key] = out
	return out
}
