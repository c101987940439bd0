package instrument

import (
	"go/ast"
	"go/token"
)

// Mode says where a block's probe goes. It mirrors internal/flow's probe
// modes; the rewriter is kept independent of flow so that it can be tested
// with plans written by hand.
type Mode int

const (
	Implied Mode = iota // no probe: readers reconstruct the block from the graph
	Before              // just before the statement starting at Pos
	After               // just after the statement ending at Pos
	Open                // just after the '{' or case ':' at Pos
)

// Func is the instrumentation plan of one function body.
type Func struct {
	Node   ast.Node // *ast.FuncDecl or *ast.FuncLit
	Entry  uint32   // id of the entry block
	Main   bool     // main.main: recording starts here (_dvg.Main)
	Blocks []Block
}

// Block is one block of a planned function.
type Block struct {
	ID    uint32
	Mode  Mode
	Pos   token.Pos
	Nodes []ast.Node // statements and expressions of the block: an operation belongs to the block whose node holds it
	// Indexes are the positions of the index expressions of the block's
	// index TCPs: their values are outcomes.
	Indexes []token.Pos
}

// siteOf returns the id of the block that holds pos: the block with the
// smallest node that contains it, else the block of the nearest node that
// ends before it (a select or a loop head has no node of its own), else
// the entry block.
func (f *Func) siteOf(pos token.Pos) uint32 {
	best, bestSize := f.Entry, token.Pos(-1)
	for _, b := range f.Blocks {
		for _, n := range b.Nodes {
			if n.Pos() <= pos && pos < n.End() {
				if size := n.End() - n.Pos(); bestSize < 0 || size < bestSize {
					best, bestSize = b.ID, size
				}
			}
		}
	}
	if bestSize >= 0 {
		return best
	}
	var nearest token.Pos
	for _, b := range f.Blocks {
		for _, n := range b.Nodes {
			if n.End() <= pos && n.End() > nearest {
				best, nearest = b.ID, n.End()
			}
		}
	}
	return best
}
