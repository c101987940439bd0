package analyzer

import "golang.org/x/tools/go/ssa"

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
	// Reverse CFG: preds of the virtual exit.
	succs := make([][]int, n+1)
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			succs[b.Index] = append(succs[b.Index], s.Index)
		}
		if len(b.Succs) == 0 {
			succs[b.Index] = append(succs[b.Index], exit)
		}
	}
	preds := func() [][]int {
		p := make([][]int, n+1)
		for b, ss := range succs {
			for _, s := range ss {
				p[s] = append(p[s], b)
			}
		}
		return p
	}
	rpreds := preds()
	// Blocks that cannot reach the exit get an edge to it.
	reach := make([]bool, n+1)
	var mark func(int)
	stack := []int{exit}
	reach[exit] = true
	mark = func(int) {
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, p := range rpreds[x] {
				if !reach[p] {
					reach[p] = true
					stack = append(stack, p)
				}
			}
		}
	}
	mark(exit)
	added := false
	for b := n - 1; b >= 0; b-- {
		if !reach[b] {
			succs[b] = append(succs[b], exit)
			reach[b] = true
			added = true
		}
	}
	if added {
		rpreds = preds()
	}

	// Cooper, Harvey, Kennedy on the reverse graph rooted at exit.
	order := make([]int, 0, n+1) // postorder of the reverse graph
	num := make([]int, n+1)
	for i := range num {
		num[i] = -1
	}
	visited := make([]bool, n+1)
	type frame struct{ b, i int }
	st := []frame{{exit, 0}}
	visited[exit] = true
	for len(st) > 0 {
		top := &st[len(st)-1]
		if top.i < len(rpreds[top.b]) {
			p := rpreds[top.b][top.i]
			top.i++
			if !visited[p] {
				visited[p] = true
				st = append(st, frame{p, 0})
			}
			continue
		}
		num[top.b] = len(order)
		order = append(order, top.b)
		st = st[:len(st)-1]
	}
	ipdom := make([]int, n+1)
	for i := range ipdom {
		ipdom[i] = -1
	}
	ipdom[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for num[a] < num[b] {
				a = ipdom[a]
			}
			for num[b] < num[a] {
				b = ipdom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			b := order[i]
			if b == exit {
				continue
			}
			nd := -1
			for _, s := range succs[b] {
				if ipdom[s] == -1 {
					continue
				}
				if nd == -1 {
					nd = s
				} else {
					nd = intersect(s, nd)
				}
			}
			if nd != -1 && ipdom[b] != nd {
				ipdom[b] = nd
				changed = true
			}
		}
	}
	for b := range ipdom {
		if ipdom[b] == -1 { // unreachable from exit even after patching: be safe
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
