package flow

import (
	"go/ast"
	"go/token"

	"github.com/divergo/divergo/internal/tbb"
)

// Oracle says which statements are trace change points. The analyzer
// implements it.
type Oracle interface {
	// Branch returns the TCP of the decision made by compound statement s
	// (*ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt,
	// *ast.TypeSwitchStmt, *ast.SelectStmt), or nil if that decision is
	// deterministic. Kind, Pos and Why are set; Build fills CP and CPPos.
	Branch(s ast.Stmt) *tbb.TCP
	// Point returns the TCPs inside simple statement n whose outcome the
	// block order does not show (lock, once, index, spawn, input), in source
	// order, or nil. Build calls it once for every node it places in a
	// block's Nodes: simple statements, var specs, and the expressions and
	// statements a compound statement evaluates (conditions, tags, case
	// expressions, range operands, select communications, init and post
	// statements). It never passes a compound statement.
	Point(n ast.Node) []*tbb.TCP
}

// A LeafOracle also knows, from types, which calls reach no instrumented
// code. Build then packs loops that make such calls (see packLoops); with
// a plain Oracle a loop that calls anything but a builtin is not packed.
type LeafOracle interface {
	Oracle
	// Leaf reports whether call surely records nothing and always
	// returns to its caller unless it panics: a builtin other than panic
	// and close, a conversion, or a function of a package that calls no
	// code it is not given, given no value that can carry code.
	Leaf(call *ast.CallExpr) bool
	// PlainRange reports whether the operand of s is a slice, a pointer
	// to an array or an integer: its head then runs no code and receives
	// nothing, and the loop can be packed as a loop over an index.
	PlainRange(s *ast.RangeStmt) bool
}

// ProbeMode says where the instrumenter inserts a block's probe statement.
type ProbeMode uint8

// The probe modes.
const (
	Implied ProbeMode = iota // no probe: the block's executions are inferred from its neighbours
	Before                   // insert the probe statement just before the statement starting at Probe.Pos
	After                    // insert it just after the statement ending at Probe.Pos (a compound statement's End)
	Open                     // insert it just after the '{' of a block or the ':' of a case clause at Probe.Pos
)

var modeNames = [...]string{Implied: "implied", Before: "before", After: "after", Open: "open"}

func (m ProbeMode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "mode(?)"
}

// Probe is where a block's probe statement goes.
type Probe struct {
	Mode ProbeMode
	Pos  token.Pos
}

// Block is one TCP basic block of a function: a node of the statement-level
// control-flow graph.
type Block struct {
	Index int    // position in Func.Blocks; Blocks[0] is the entry
	ID    int    // global id, set later by the analyzer when it builds the tbb.Graph (-1 until then)
	Kind  string // "entry", "if.then", "if.else", "if.done", "for.loop", "for.body", "for.post", "for.done",
	// "range.loop", "range.body", "range.done", "switch.case", "switch.next", "switch.done",
	// "select.case", "select.done", "label", "split" (begins after a point TCP)
	Stmt     ast.Stmt   // statement that gave rise to the block (for "split": the statement whose TCP ends the previous block)
	Nodes    []ast.Node // statements and expressions evaluated in the block, in order
	Pos, End token.Pos
	Succs    []*Block
	Exit     bool // control can leave the function from here (return, fall off the end, panic, os.Exit)
	Probe    Probe
	TCP      *tbb.TCP // at most one TCP per block (paper §6.1); Also for any that could not be split off
	Also     []*tbb.TCP
	CP       *Block // for a TCP block: its convergence point; nil means "function return"
	Pack     *Block // for a probed block of a packed loop: the loop's head (pack.go)
	// PackPerIter is, for the head of a packed loop, the most probes one
	// iteration runs.
	PackPerIter int
	IsCP        bool // some TCP converges here
	// Nest is, for a block of a quiet loop nest, the nest's head: the
	// nest records nothing and its blocks are implied (nest.go).
	Nest *Block
}

// Probed reports whether the block carries a probe statement.
func (b *Block) Probed() bool { return b.Probe.Mode != Implied }

// Func is the TBB graph of one function body.
type Func struct {
	Blocks []*Block
	Body   *ast.BlockStmt // the body it was built from
	Sites  []*Site        // recorded operations in source order; the analyzer adds them (AddSite)
	// Silent says the function records nothing: no entry, exit or probe
	// (Silence).
	Silent bool
}

// Silence makes f a function that records nothing: every block implied,
// no packed loop. The analyzer silences a function whose runs cannot
// differ and that reaches no code that records (a deterministic callee):
// its time belongs to the block of its caller, and both runs' traces
// leave it out alike.
func (f *Func) Silence() {
	f.Silent = true
	for _, b := range f.Blocks {
		b.Probe = Probe{}
		b.Pack = nil
		b.PackPerIter = 0
		b.Nest = nil
	}
}

// ResolveCPs rewrites the CP of every TCP of f to the global id of its
// convergence block (Block.ID), or tbb.Return. Build leaves the local
// Block.Index there; call this once the analyzer has set the ids. A Begin
// TCP (added by the analyzer to main's entry) always converges at return.
func (f *Func) ResolveCPs() {
	for _, b := range f.Blocks {
		cp := tbb.Return
		if b.CP != nil {
			cp = b.CP.ID
		}
		for _, t := range b.TCPs() {
			if t.Kind == tbb.Begin {
				t.CP = tbb.Return
				continue
			}
			t.CP = cp
		}
	}
}

// SetCPPos rewrites the CPPos of every TCP of f with pos applied to the
// position of its convergence block, or of the body's closing brace for
// "return". Build fills CPPos with file names as the file set has them;
// the analyzer uses this to make them relative to the module.
func (f *Func) SetCPPos(pos func(token.Pos) tbb.Pos) {
	for _, b := range f.Blocks {
		at := token.NoPos
		if f.Body != nil {
			at = f.Body.Rbrace
		}
		if b.CP != nil {
			at = b.CP.Pos
		}
		for _, t := range b.TCPs() {
			if t.Kind == tbb.Begin && f.Body != nil {
				t.CPPos = pos(f.Body.Rbrace)
				continue
			}
			t.CPPos = pos(at)
		}
	}
}

// TCPs returns the block's TCP followed by Also, or nil.
func (b *Block) TCPs() []*tbb.TCP {
	if b.TCP == nil {
		return nil
	}
	return append([]*tbb.TCP{b.TCP}, b.Also...)
}
