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
	// Loops are the function's packed loops (docs/FORMAT.md, "Packed
	// loops"): their blocks' probes are codes in a word, written after
	// the loop.
	Loops []Loop
	// Sites are the ids of the graph's sites of the function: the rewriter
	// passes them to the runtime wrappers, so that every event names its
	// own statement.
	Sites map[SiteKey]uint32
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
	// Pack is the packed loop the block's probe belongs to, nil for a
	// probe of its own.
	Pack *Loop
	Code uint64 // the block's code in Pack
}

// Loop is a packed loop: its head's id, the bits of a code, its for
// statement (an *ast.ForStmt or *ast.RangeStmt), and the most probes one
// iteration runs.
type Loop struct {
	Head    uint32
	Bits    uint
	Stmt    ast.Stmt
	PerIter int
	// IDs are the probed blocks' ids, by code: the loop's exit writes
	// one probe, or a few of a loop of one block, as block events.
	IDs []uint32
}

// SiteKey identifies a recorded operation of a function: its position and
// its operation (a tbb.SiteOps name), as internal/syncop finds them; two
// operations can start at one position (<-a <- v).
type SiteKey struct {
	Pos token.Pos
	Op  string
}
