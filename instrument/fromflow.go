package instrument

import (
	"fmt"
	"go/ast"
	"go/token"

	"github.com/divergo/divergo/internal/flow"
	"github.com/divergo/divergo/internal/tbb"
)

// FromFlow turns the TBB graph of one function, with its global ids
// assigned, into the function's plan. main says the function is main.main.
func FromFlow(fset *token.FileSet, node ast.Node, f *flow.Func, main bool) (*Func, error) {
	if len(f.Blocks) == 0 {
		return nil, fmt.Errorf("function at %s has no blocks", fset.Position(node.Pos()))
	}
	if f.Blocks[0].ID < 0 {
		return nil, fmt.Errorf("function at %s: block ids not assigned", fset.Position(node.Pos()))
	}
	plan := &Func{Node: node, Entry: uint32(f.Blocks[0].ID), Main: main, Sites: map[SiteKey]uint32{}}
	for _, s := range f.Sites {
		if s.ID < 0 {
			return nil, fmt.Errorf("function at %s: site of %s at %s has no id", fset.Position(node.Pos()), s.Op, fset.Position(s.Pos))
		}
		plan.Sites[SiteKey{s.Pos, s.Op}] = uint32(s.ID)
	}
	packed := map[*flow.Block]*Loop{}
	codes := map[*flow.Block]uint64{}
	for _, l := range f.Loops() {
		pl := &Loop{Head: uint32(l.Head.ID), Bits: tbb.PackBits(len(l.Blocks)), Stmt: l.Stmt, PerIter: l.PerIter}
		for i, b := range l.Blocks {
			packed[b], codes[b] = pl, uint64(i)
			pl.IDs = append(pl.IDs, uint32(b.ID))
		}
		plan.Loops = append(plan.Loops, *pl)
	}
	for _, b := range f.Blocks {
		if b.ID < 0 {
			return nil, fmt.Errorf("function at %s: block %d has no id", fset.Position(node.Pos()), b.Index)
		}
		blk := Block{ID: uint32(b.ID), Nodes: b.Nodes, Pos: b.Probe.Pos, Pack: packed[b], Code: codes[b]}
		switch b.Probe.Mode {
		case flow.Before:
			blk.Mode = Before
		case flow.After:
			blk.Mode = After
		case flow.Open:
			blk.Mode = Open
		}
		for _, t := range b.TCPs() {
			if t.Kind == tbb.Index {
				if p := findIndex(fset, b.Nodes, t.Pos); p.IsValid() {
					blk.Indexes = append(blk.Indexes, p)
				}
			}
		}
		plan.Blocks = append(plan.Blocks, blk)
	}
	return plan, nil
}

// findIndex returns the position of the index of the index expression at
// at (its start, its '[' or its index) among nodes, or NoPos.
func findIndex(fset *token.FileSet, nodes []ast.Node, at tbb.Pos) token.Pos {
	same := func(p token.Pos) bool {
		q := fset.Position(p)
		return q.Line == at.Line && (at.Col == 0 || q.Column == at.Col)
	}
	found := token.NoPos
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if found.IsValid() {
				return false
			}
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IndexExpr:
				if same(x.Pos()) || same(x.Lbrack) || same(x.Index.Pos()) {
					found = x.Index.Pos()
				}
			}
			return true
		})
	}
	return found
}
