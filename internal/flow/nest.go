package flow

import "go/ast"

// Quiet loop nests (docs/FORMAT.md, "Quiet loop nests"). Only innermost
// loops pack, so a loop that holds another loop records a block event per
// iteration of its own beside its inner loop's words or short exits:
// fannkuch's flips loop, around its swap loop, wrote 86 MB at -n 10. When
// no block of the nest holds a change point, its path is fixed by the
// state it is entered in (Lemma 12), which is the same in two runs that
// had not parted before it; so, like a silent function, it is left out of
// the trace altogether. Its blocks are implied and the nest is a cycle of
// implied blocks, which Check allows for such a nest alone: a reader goes
// from the block before it to the block after it along the shortest path
// (no iteration), and every reader does so alike. Its time belongs to
// those blocks.

// quietNests takes the probes off the loops of f that hold another loop,
// no change point and nothing that records, outermost first (see
// quietNest for the rules), and marks their blocks (Block.Nest). A nest
// whose quieting would leave a path through implied blocks ambiguous
// (Check) keeps its probes.
func quietNests(f *Func, leaf func(*ast.CallExpr) bool, plainRange func(*ast.RangeStmt) bool) {
	if len(f.Blocks) > maxMinimize || f.Silent {
		return
	}
	for _, h := range f.Blocks {
		if h.Nest != nil {
			continue // inside a nest quieted already
		}
		nest, ok := quietNest(h, leaf, plainRange)
		if !ok {
			continue
		}
		saved := make([]Block, len(nest))
		for i, b := range nest {
			saved[i] = *b
			b.Probe.Mode = Implied
			b.Pack, b.PackPerIter = nil, 0
			b.Nest = h
		}
		if Check(f) != nil {
			for i, b := range nest {
				b.Probe, b.Pack, b.PackPerIter, b.Nest = saved[i].Probe, saved[i].Pack, saved[i].PackPerIter, nil
			}
		}
	}
}

// quietNest returns the blocks of the loop whose head is h, head first,
// when the loop can be left out of the trace:
//
//   - it is a for statement, or a range over a slice, a pointer to an
//     array or an integer (PlainRange), unlabeled, and so is every loop
//     inside it, and it holds at least one (an innermost loop packs);
//   - no block of it holds a TCP or is the convergence point of one, and
//     every block is quiet (a leaf call is quiet here): nothing is
//     recorded while it runs and no divergence can start or end in it;
//   - control leaves it only through its own done block: no return,
//     panic, goto or labeled branch out, so that the one way around it a
//     reader takes is where the program went;
//   - no cycle of it is made of blocks with a single successor (a loop
//     without a way out), which a reader stepping eagerly through single
//     successors would walk for ever.
func quietNest(h *Block, leaf func(*ast.CallExpr) bool, plainRange func(*ast.RangeStmt) bool) ([]*Block, bool) {
	s := h.Stmt
	if !loopHead(h, plainRange) {
		return nil, false
	}
	nest := []*Block{h}
	in := map[*Block]bool{h: true}
	inner := false
	for i := 0; i < len(nest); i++ {
		b := nest[i]
		if b != h && (b.Kind == "for.loop" || b.Kind == "range.loop") {
			if !loopHead(b, plainRange) {
				return nil, false
			}
			inner = true
		}
		if len(b.TCPs()) > 0 || b.IsCP || b.Exit || b.Kind == "label" {
			return nil, false
		}
		if b.Kind == "range.loop" {
			if !quietNodes(b, leaf) {
				return nil, false
			}
		} else if !quietWith(b, leaf) {
			return nil, false
		}
		for _, n := range b.Succs {
			if (n.Kind == "for.done" || n.Kind == "range.done") && n.Stmt == s {
				continue
			}
			if n.Pos < s.Pos() || n.Pos >= s.End() {
				return nil, false // a goto or labeled branch out
			}
			if !in[n] {
				in[n] = true
				nest = append(nest, n)
			}
		}
	}
	if !inner {
		return nil, false
	}
	for _, b := range nest {
		c := b
		for range nest {
			if len(c.Succs) != 1 || !in[c.Succs[0]] {
				break
			}
			c = c.Succs[0]
			if c == b {
				return nil, false
			}
		}
	}
	return nest, true
}

// loopHead reports whether h heads an unlabeled loop a nest may hold: a
// for statement, or a range whose head only assigns its key and value.
func loopHead(h *Block, plainRange func(*ast.RangeStmt) bool) bool {
	switch s := h.Stmt.(type) {
	case *ast.ForStmt:
		return h.Kind == "for.loop"
	case *ast.RangeStmt:
		return h.Kind == "range.loop" && plainRange != nil && plainRange(s)
	}
	return false
}
