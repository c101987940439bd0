package e2e

import "github.com/divergo/divergo/internal/trace"

// headKinds are the kinds of blocks that never carry a probe (loop heads,
// post statements, further case tests). The expected sequences leave them
// out; the other implied blocks, whose probes the builder took away
// (internal/flow, "Fewer probes"), are put back and listed.
var headKinds = map[string]bool{"for.loop": true, "range.loop": true, "for.post": true, "switch.next": true}

// executed returns the blocks goroutine g executed, in order: its probed
// blocks with the implied ones put back between them from the graph, as a
// trace reader does (the path through implied blocks between two probed
// blocks of one frame is unique), and those on the way to the exit when a
// frame returns. Blocks of headKinds are left out.
func (r *run) executed(g *gor) []uint32 {
	hasPred := make([]bool, len(r.graph.Blocks))
	for _, b := range r.graph.Blocks {
		for _, s := range b.Succs {
			hasPred[s] = true
		}
	}
	type frame struct{ fn, entry, cur int }
	var fs []frame
	var out []uint32
	emit := func(id int) {
		if b := r.graph.Blocks[id]; b.Probe || !headKinds[b.Kind] {
			out = append(out, uint32(id))
		}
	}
	for _, e := range g.evs {
		switch e.Kind {
		case trace.EvBlock:
			b := r.graph.Block(int(e.Block))
			if b == nil {
				continue
			}
			f := r.graph.Func(b.Func)
			if len(fs) == 0 || fs[len(fs)-1].fn != b.Func || (f.Entry == b.ID && !hasPred[b.ID]) {
				fs = append(fs, frame{b.Func, f.Entry, b.ID})
				emit(b.ID)
				continue
			}
			top := &fs[len(fs)-1]
			for _, m := range r.impliedPath(top.cur, b.ID) {
				emit(m)
			}
			emit(b.ID)
			top.cur = b.ID
		case trace.EvExit:
			i := len(fs) - 1
			for i >= 0 && fs[i].entry != int(e.Block) {
				i--
			}
			if i < 0 {
				continue
			}
			for _, m := range r.impliedPath(fs[i].cur, -1) {
				emit(m)
			}
			fs = fs[:i]
		}
	}
	return out
}

// impliedPath returns the implied blocks on the way from block from to
// block to, or to an exit block (included) when to is -1, breadth first.
func (r *run) impliedPath(from, to int) []int {
	if to < 0 && r.graph.Blocks[from].Exit {
		return nil
	}
	prev := map[int]int{}
	unwind := func(last int) []int {
		var rev []int
		for v := last; v != from; v = prev[v] {
			rev = append(rev, v)
		}
		for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
			rev[i], rev[j] = rev[j], rev[i]
		}
		return rev
	}
	queue := []int{from}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, s := range r.graph.Blocks[v].Succs {
			if s == to {
				return unwind(v)
			}
			if _, seen := prev[s]; seen || s == from || r.graph.Blocks[s].Probe {
				continue
			}
			prev[s] = v
			if to < 0 && r.graph.Blocks[s].Exit {
				return unwind(s)
			}
			queue = append(queue, s)
		}
	}
	return nil
}
