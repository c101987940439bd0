package replay

// cachedPath is a path from some block to block to (NoBlock for the
// function's exit) through implied blocks.
type cachedPath struct {
	to   int32
	ok   bool
	path []int32
}

// Paths caches the implied paths of a program. It is not safe for
// concurrent use: give each goroutine of the reader its own, and share it
// among the replayers that goroutine runs.
type Paths struct {
	p *Program
	// by source block: a block has few successors worth caching, so a
	// short list beats a map. Allocated on first use.
	by [][]cachedPath
}

// NewPaths returns an empty cache for p.
func NewPaths(p *Program) *Paths { return &Paths{p: p} }

// Program is the program the paths are of.
func (c *Paths) Program() *Program { return c.p }

// path returns the implied blocks between from and to (exclusive), or up
// to and including an exit block when to is NoBlock. The path through
// implied blocks is unique by construction of the graph; breadth-first
// search takes the shortest should a graph break that rule, which every
// reader does alike. ok is false when no such path exists.
func (c *Paths) path(from, to int32) (path []int32, ok bool) {
	if c.by == nil {
		c.by = make([][]cachedPath, len(c.p.blocks))
	}
	for _, e := range c.by[from] {
		if e.to == to {
			return e.path, e.ok
		}
	}
	path, ok = c.search(from, to)
	c.by[from] = append(c.by[from], cachedPath{to: to, ok: ok, path: path})
	return path, ok
}

func (c *Paths) search(from, to int32) ([]int32, bool) {
	blocks := c.p.blocks
	prev := map[int32]int32{}
	var queue []int32
	for _, n := range blocks[from].succs {
		if n == to && to != NoBlock {
			return nil, true
		}
		if _, seen := prev[n]; !seen && !blocks[n].probe {
			prev[n] = from
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		if to == NoBlock && blocks[v].exit {
			return unwind(prev, from, v), true
		}
		for _, n := range blocks[v].succs {
			if n == to && to != NoBlock {
				return unwind(prev, from, v), true
			}
			if _, seen := prev[n]; !seen && n != from && !blocks[n].probe {
				prev[n] = v
				queue = append(queue, n)
			}
		}
	}
	return nil, false
}

// unwind returns the path from (exclusive) to last (inclusive).
func unwind(prev map[int32]int32, from, last int32) []int32 {
	var rev []int32
	for v := last; v != from; v = prev[v] {
		rev = append(rev, v)
	}
	out := make([]int32, len(rev))
	for i, v := range rev {
		out[len(rev)-1-i] = v
	}
	return out
}
