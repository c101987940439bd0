package flow

import (
	"go/ast"
	"sort"

	"github.com/divergo/divergo/internal/tbb"
)

// maxMinimize is the largest function, in blocks, whose probes are
// minimized. Each candidate costs a walk of the implied region around it,
// so the work grows with the square of a function's size at worst; the
// generated giants above this size keep every probe.
const maxMinimize = 4000

// minimizer turns probed blocks of one function into implied ones while
// the readers can still reconstruct them exactly and see the same stream
// (see "Fewer probes" in the package doc).
type minimizer struct {
	f      *Func
	preds  [][]*Block
	quiet  []bool
	keep   []bool
	newly  []bool // made implied by the minimizer
	defers bool   // the function defers calls: they record after its last block
	mark   []int  // walk marks, by epoch
	epoch  int
}

// minimize turns probed blocks of f into implied ones, greedily: innermost
// loops first, and in a loop the blocks that run most first (a static
// estimate), keeping a block implied only when the rules of "Fewer probes"
// still hold.
func minimize(f *Func, body *ast.BlockStmt) {
	n := len(f.Blocks)
	if n < 2 || n > maxMinimize {
		return
	}
	m := &minimizer{
		f:      f,
		preds:  make([][]*Block, n),
		quiet:  make([]bool, n),
		keep:   make([]bool, n),
		newly:  make([]bool, n),
		defers: body != nil && hasDefer(body),
		mark:   make([]int, n),
	}
	for _, b := range f.Blocks {
		for _, s := range b.Succs {
			m.preds[s.Index] = append(m.preds[s.Index], b)
		}
		m.quiet[b.Index] = quiet(b)
	}
	m.mustProbe()
	for _, b := range m.order() {
		if m.keep[b.Index] || !m.quiet[b.Index] || !m.samePlace(b) {
			continue
		}
		saved := b.Probe
		b.Probe.Mode = Implied
		if !m.unique(b) {
			b.Probe = saved
			continue
		}
		m.newly[b.Index] = true
	}
}

// mustProbe marks the blocks that keep their probe whatever the graph: the
// entry (the runtime's Enter records it and a frame begins there), blocks
// with a point TCP (their outcome, spawn or sync event is recorded inside
// the block, and a reader attaches an outcome to the last block it has
// seen), and the body of a range over a map, whose key outcome is recorded
// just after the body's probe and belongs to the implied head. Those that
// record an event are not quiet either, whatever their syntax says: an
// index outcome is an event too.
func (m *minimizer) mustProbe() {
	m.keep[0] = true
	for _, b := range m.f.Blocks {
		for _, t := range b.TCPs() {
			switch t.Kind {
			case tbb.Lock, tbb.Once, tbb.Index, tbb.Spawn, tbb.Input:
				m.keep[b.Index] = true
				m.quiet[b.Index] = false
			case tbb.MapRange:
				for _, s := range b.Succs {
					if s.Kind == "range.body" {
						m.keep[s.Index] = true
						m.quiet[s.Index] = false
					}
				}
			}
		}
	}
}

// eagerEdge reports whether a reader steps from p to its successor as soon
// as it has p, before anything p evaluates: p has one successor and cannot
// leave the function (compare's stream does this so that a loop condition's
// calls belong to the loop head).
func eagerEdge(p *Block) bool { return len(p.Succs) == 1 && !p.Exit }

// anchored reports whether a reader always puts implied block b right
// after a probed block with only quiet blocks in between, so that nothing
// recorded lies between where b's probe was and where b is put back: b is
// quiet and either probed, or implied and entered only by eager edges from
// anchored blocks. visiting breaks cycles (a cycle is not anchored).
func (m *minimizer) anchored(b *Block, visiting map[*Block]bool) bool {
	if !m.quiet[b.Index] {
		return false
	}
	if b.Probed() {
		return true
	}
	if visiting[b] || len(m.preds[b.Index]) == 0 {
		return false
	}
	visiting[b] = true
	defer delete(visiting, b)
	for _, p := range m.preds[b.Index] {
		if !eagerEdge(p) || !m.anchored(p, visiting) {
			return false
		}
	}
	return true
}

// samePlace reports whether implying quiet block x keeps every block where
// the reader put it before, relative to the other events of the stream:
//
//   - an eager edge into x must come from an anchored block: the reader then
//     puts x back right after that block's probe, and nothing is recorded in
//     between;
//   - any other edge makes the reader put x back lazily, just before the
//     next probed block (or the exit) it sees. Then the blocks that follow
//     x through single successors, which the reader used to put right after
//     x's probe, must be quiet too, and when the function defers calls none
//     of them may leave it: the deferred calls record after them.
func (m *minimizer) samePlace(x *Block) bool {
	lazy := false
	for _, p := range m.preds[x.Index] {
		if eagerEdge(p) {
			if !m.anchored(p, map[*Block]bool{}) {
				return false
			}
			continue
		}
		lazy = true
	}
	if !lazy {
		return true
	}
	c := x
	for range m.f.Blocks {
		if c.Exit && m.defers {
			return false
		}
		if !eagerEdge(c) {
			return true
		}
		c = c.Succs[0]
		if c.Probed() || c == x {
			return true
		}
		if !m.quiet[c.Index] {
			return false
		}
	}
	return false
}

// unique reports whether Check's path rules still hold now that x is
// implied. Only paths through x changed: from every probed block that
// reaches x through implied blocks, the walk through implied blocks must
// be a tree (no implied block reached twice, so no cycle and no second
// path) and meet each probed block and the exit at most once. That is a
// little stricter than Check, which lets two paths meet in a dead end.
func (m *minimizer) unique(x *Block) bool {
	// The probed blocks that reach x through implied blocks only.
	m.epoch++
	var srcs []*Block
	stack := []*Block{x}
	m.mark[x.Index] = m.epoch
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range m.preds[v.Index] {
			if p == x {
				return false // x is on a cycle of implied blocks
			}
			if m.mark[p.Index] == m.epoch {
				continue
			}
			m.mark[p.Index] = m.epoch
			if p.Probed() {
				srcs = append(srcs, p)
			} else {
				stack = append(stack, p)
			}
		}
	}
	for _, s := range srcs {
		if !m.tree(s) {
			return false
		}
	}
	return true
}

// tree walks the implied blocks after probed block s and reports whether
// each implied block, each probed block and the exit are met at most once.
func (m *minimizer) tree(s *Block) bool {
	m.epoch++
	exits := 0
	if s.Exit {
		exits++
	}
	stack := []*Block{s}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range v.Succs {
			if m.mark[w.Index] == m.epoch {
				return false
			}
			m.mark[w.Index] = m.epoch
			if w.Probed() {
				continue
			}
			if w.Exit {
				exits++
			}
			stack = append(stack, w)
		}
	}
	return exits <= 1
}

// order returns the candidate blocks: probed, not kept, quiet; innermost
// loops first, then by estimated frequency, then in block order.
func (m *minimizer) order() []*Block {
	f := m.f
	depth, freq := loopShape(f, m.preds)
	var out []*Block
	for _, b := range f.Blocks {
		if b.Probed() && !m.keep[b.Index] && m.quiet[b.Index] {
			out = append(out, b)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Index, out[j].Index
		if depth[a] != depth[b] {
			return depth[a] > depth[b]
		}
		if freq[a] != freq[b] {
			return freq[a] > freq[b]
		}
		return a < b
	})
	return out
}

// loopFactor is how many times a loop's head is taken to run per entry
// into the loop, for the frequency estimate.
const loopFactor = 8

// loopShape returns each block's loop depth (the number of natural loops
// around it) and a static estimate of how often it runs per call: a block
// splits its frequency evenly among its successors, and a loop head
// multiplies what enters it by loopFactor. Back edges are those a
// depth-first search from the entry meets to a block on its stack; with
// goto into a loop (irreducible flow) this is only an estimate, which is
// all the order needs: correctness does not depend on it.
func loopShape(f *Func, preds [][]*Block) (depth []int, freq []float64) {
	n := len(f.Blocks)
	depth = make([]int, n)
	freq = make([]float64, n)
	state := make([]uint8, n) // 0 new, 1 on stack, 2 done
	back := map[[2]int]bool{}
	heads := map[int][]int{} // head -> sources of its back edges
	var post []int
	type item struct{ b, next int }
	stack := []item{{0, 0}}
	state[0] = 1
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		b := f.Blocks[top.b]
		if top.next < len(b.Succs) {
			s := b.Succs[top.next].Index
			top.next++
			switch state[s] {
			case 0:
				state[s] = 1
				stack = append(stack, item{s, 0})
			case 1:
				back[[2]int{top.b, s}] = true
				heads[s] = append(heads[s], top.b)
			}
			continue
		}
		state[top.b] = 2
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	seen := make([]int, n)
	for h, srcs := range heads {
		stamp := h + 1
		seen[h] = stamp
		depth[h]++
		work := append([]int(nil), srcs...)
		for len(work) > 0 {
			v := work[len(work)-1]
			work = work[:len(work)-1]
			if seen[v] == stamp {
				continue
			}
			seen[v] = stamp
			depth[v]++
			for _, p := range preds[v] {
				work = append(work, p.Index)
			}
		}
	}
	for i := len(post) - 1; i >= 0; i-- {
		b := post[i]
		if b == 0 {
			freq[b] = 1
		}
		for _, p := range preds[b] {
			if !back[[2]int{p.Index, b}] {
				freq[b] += freq[p.Index] / float64(len(p.Succs))
			}
		}
		if len(heads[b]) > 0 {
			freq[b] *= loopFactor
		}
	}
	return depth, freq
}
