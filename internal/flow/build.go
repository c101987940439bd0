package flow

import (
	"go/ast"
	"go/token"

	"github.com/divergo/divergo/internal/tbb"
)

// Build builds the TBB graph of one function body. mayReturn reports whether
// a call can return (false for panic, os.Exit, log.Fatal, runtime.Goexit,
// t.Fatal...); it must say false for the builtin panic, since a probe after a
// terminating statement does not compile. nil means every call returns except
// panic. A nil Oracle marks no TCPs.
//
// Build fills the CP of every TCP with the local Index of its convergence
// block (or tbb.Return) and CPPos with that block's position, the file name
// as fset has it; see [Func.ResolveCPs].
//
// Last, Build takes the probes off the blocks a reader can do without
// (package doc, "Fewer probes").
func Build(fset *token.FileSet, body *ast.BlockStmt, o Oracle, mayReturn func(*ast.CallExpr) bool) *Func {
	f := buildAll(fset, body, o, mayReturn)
	minimize(f, body)
	var leaf func(*ast.CallExpr) bool
	var plainRange func(*ast.RangeStmt) bool
	if lo, ok := o.(LeafOracle); ok {
		leaf, plainRange = lo.Leaf, lo.PlainRange
	}
	packLoops(fset, f, leaf, plainRange)
	quietNests(f, leaf, plainRange)
	return f
}

// buildAll is Build without the minimization: every block that can carry a
// probe has one.
func buildAll(fset *token.FileSet, body *ast.BlockStmt, o Oracle, mayReturn func(*ast.CallExpr) bool) *Func {
	b := newBuilder(o, mayReturn)
	entry := b.newBlock("entry", body, Probe{Open, body.Lbrace})
	b.start(entry)
	b.stmtList(body.List)
	if b.live() {
		b.cur.Exit = true // falls off the end
	}
	f := &Func{Blocks: liveBlocks(entry, b.started), Body: body}
	for _, blk := range f.Blocks {
		blk.Pos, blk.End = span(blk)
		tcps := b.points[blk]
		if t := b.branches[blk]; t != nil {
			tcps = append([]*tbb.TCP{t}, tcps...)
		}
		if len(tcps) > 0 {
			blk.TCP, blk.Also = tcps[0], tcps[1:]
			if len(blk.Also) == 0 {
				blk.Also = nil
			}
		}
	}
	ipdom := PostDominators(f)
	for _, blk := range f.Blocks {
		if blk.TCP == nil {
			continue
		}
		cp, pos := tbb.Return, body.Rbrace
		if d := ipdom[blk.Index]; d >= 0 {
			blk.CP = f.Blocks[d]
			blk.CP.IsCP = true
			cp, pos = d, blk.CP.Pos
		}
		for _, t := range blk.TCPs() {
			t.CP = cp
			t.CPPos = tbbPos(fset, pos)
		}
	}
	return f
}

// liveBlocks returns the blocks reachable from entry, in the order they were
// started, renumbered, with duplicate successor edges removed (a path
// counts its edges, so a duplicate would read as two paths).
func liveBlocks(entry *Block, started []*Block) []*Block {
	live := map[*Block]bool{}
	var extra []*Block // reachable but never started: ill-typed code only
	stack := []*Block{entry}
	for len(stack) > 0 {
		blk := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if live[blk] {
			continue
		}
		live[blk] = true
		if blk.Index < 0 {
			extra = append(extra, blk)
		}
		stack = append(stack, blk.Succs...)
	}
	var out []*Block
	for _, blk := range append(started, extra...) {
		if live[blk] {
			blk.Index = len(out)
			out = append(out, blk)
		}
	}
	for _, blk := range out {
		seen := map[*Block]bool{}
		succs := blk.Succs[:0]
		for _, s := range blk.Succs {
			if !seen[s] {
				seen[s] = true
				succs = append(succs, s)
			}
		}
		blk.Succs = succs
	}
	return out
}

// span is a block's source extent: its nodes for a probed block, its probe
// point when it evaluates nothing, and the construct for an implied block.
// A case clause's block starts at its case keyword: the clause is what the
// switch or select chose, and its first statement is a line further down
// (reports named the case at line 17 "the case at line 18").
func span(blk *Block) (pos, end token.Pos) {
	if !blk.Probed() && blk.Stmt != nil {
		return blk.Stmt.Pos(), blk.Stmt.End()
	}
	pos, end = blk.Probe.Pos, blk.Probe.Pos
	if n := len(blk.Nodes); n > 0 {
		pos, end = blk.Nodes[0].Pos(), blk.Nodes[n-1].End()
	}
	if blk.Kind == "switch.case" || blk.Kind == "select.case" {
		pos = blk.Stmt.Pos()
	}
	return pos, end
}

func tbbPos(fset *token.FileSet, pos token.Pos) tbb.Pos {
	if fset == nil || !pos.IsValid() {
		return tbb.Pos{}
	}
	p := fset.Position(pos)
	return tbb.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}
