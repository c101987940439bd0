package tbb

import (
	"fmt"
	"strings"
)

// Version is the version of the graph format written by this package.
// Readers refuse a newer version.
const Version = 2

// Kind is the kind of a trace change point.
type Kind string

// The kinds of trace change points. Branch, Loop, Switch and Select decide
// between successors; Lock, Once, Index, MapRange and Input have an outcome
// that the block order does not show; Spawn and Begin start goroutines.
const (
	Branch   Kind = "branch"   // if statement on shared-dependent data
	Loop     Kind = "loop"     // loop condition or range length on shared-dependent data
	Switch   Kind = "switch"   // switch or type switch on shared-dependent data
	Select   Kind = "select"   // select among cases that can be ready together
	Lock     Kind = "lock"     // sync.Mutex or sync.RWMutex acquisition
	Once     Kind = "once"     // sync.Once.Do: whether this goroutine runs the function
	Index    Kind = "index"    // array, slice or map index with a shared-dependent index
	MapRange Kind = "maprange" // range over a map: the iteration order
	Spawn    Kind = "spawn"    // go statement (the paper's task_create)
	Begin    Kind = "begin"    // entry of main.main
	Input    Kind = "input"    // time, math/rand, crypto/rand: nondeterministic input
)

// Kinds lists every kind, in the order used by reports.
var Kinds = []Kind{Begin, Spawn, Branch, Loop, Switch, Select, Lock, Once, Index, MapRange, Input}

// Valid reports whether k is one of [Kinds].
func (k Kind) Valid() bool {
	for _, x := range Kinds {
		if k == x {
			return true
		}
	}
	return false
}

// Return is the convergence point "function return": the virtual exit of the
// function's control-flow graph.
const Return = -1

// Pos is a source position. File is relative to the module root and uses
// forward slashes ("cmd/app/main.go"); files outside the main module keep
// their import path ("fmt/print.go").
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col,omitempty"`
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.File != "" && p.Line > 0 }

// String formats p as file:line:col, or file:line without a column.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	if p.Col == 0 {
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// FileLine formats p as file:line, the form reports use.
func (p Pos) FileLine() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// Graph is the TBB graph of a set of packages.
type Graph struct {
	Version  int      `json:"version"`
	Module   string   `json:"module"`          // main module path
	Packages []string `json:"packages"`        // import paths analysed, sorted
	Funcs    []*Func  `json:"funcs"`           // indexed by Func.ID
	Blocks   []*Block `json:"blocks"`          // indexed by Block.ID
	Sites    []*Site  `json:"sites,omitempty"` // indexed by Site.ID (version 2)
	Hash     string   `json:"hash"`            // "sha256:<hex>" of the encoding with Hash empty
}

// Func is one function, method or function literal.
type Func struct {
	ID   int    `json:"id"`
	Name string `json:"name"` // types.Func full name or SSA-style name for literals: "pkg.F", "pkg.(*T).M", "pkg.F$1"
	Pkg  string `json:"pkg"`
	Pos  Pos    `json:"pos"`
	// End is the function's closing brace: where a deferred call runs,
	// which no block holds (graphs before it have none).
	End    Pos   `json:"end,omitzero"`
	Entry  int   `json:"entry"`  // id of the entry block
	Blocks []int `json:"blocks"` // ids of the function's blocks, entry first
}

// Block is one TBB.
type Block struct {
	ID     int    `json:"id"`
	Func   int    `json:"func"`
	Kind   string `json:"kind"` // where it comes from: "entry", "if.then", "for.body", "range.done", ...
	Pos    Pos    `json:"pos"`  // first statement, or the construct for implied blocks
	End    Pos    `json:"end"`  // end of the last statement
	Probe  bool   `json:"probe"`
	Instrs int    `json:"instrs"` // SSA instructions attributed to the block (a cost estimate)
	TCP    *TCP   `json:"tcp,omitempty"`
	// Also holds further TCPs of the block that could not be given a block
	// of their own because no statement can be inserted between them (an
	// index in an if statement's init, say). They share the block's CP.
	Also  []*TCP `json:"also,omitempty"`
	CP    bool   `json:"cp,omitempty"`   // the block is the convergence point of some TCP
	Succs []int  `json:"succs"`          // successor block ids
	Exit  bool   `json:"exit,omitempty"` // the block can leave the function (return, or falls off the end)
	// Pack is, for a probed block of a packed loop, the id of that loop's
	// head: the program records the block as a choice packed into a word
	// with the loop's other probed blocks (docs/FORMAT.md, "Packed
	// loops"). 0 for every other block: a loop head is never block 0,
	// the first function's entry.
	Pack int `json:"pack,omitempty"`
}

// TCP is a trace change point at the end of a block.
type TCP struct {
	Kind  Kind   `json:"kind"`
	Pos   Pos    `json:"pos"`
	Why   string `json:"why"` // which shared data, read where
	CP    int    `json:"cp"`  // convergence point block id, or Return
	CPPos Pos    `json:"cp_pos"`
}

// Converges formats where the TCP converges: "at file:line" or "at return".
func (t *TCP) Converges() string {
	if t.CP == Return {
		return "at return"
	}
	return "at " + t.CPPos.FileLine()
}

// Site is one operation the runtime records with its own statement: a
// synchronization operation or a go statement. Trace events name their
// site, and readers name the site's own position, not the first line of
// the block that holds it (a sleep two lines into a block is reported at
// its own line).
type Site struct {
	ID    int    `json:"id"`
	Block int    `json:"block"` // the block holding the operation
	Op    string `json:"op"`    // one of SiteOps
	Pos   Pos    `json:"pos"`   // the operation itself: the call, the <-, the send, the go or select keyword
}

// SiteOps lists the operations a site can be: the names of the sync
// operations of a trace (internal/trace.Op), "go" for a go statement and
// "wg.go" for sync.WaitGroup.Go (a spawn with its Add in the parent and its
// Done in the child, all three recorded at the one site).
var SiteOps = []string{
	"lock", "unlock", "rlock", "runlock", "trylock",
	"send", "recv", "close", "select",
	"wg.add", "wg.done", "wg.wait", "wg.go",
	"cond.wait", "cond.signal", "cond.broadcast",
	"once", "sleep", "go",
}

// ValidSiteOp reports whether op is one of [SiteOps].
func ValidSiteOp(op string) bool {
	for _, x := range SiteOps {
		if op == x {
			return true
		}
	}
	return false
}

// Site returns the site with the given id, or nil when it is out of range.
func (g *Graph) Site(id int) *Site {
	if id < 0 || id >= len(g.Sites) {
		return nil
	}
	return g.Sites[id]
}

// Block returns the block with the given id, or nil when it is out of range.
func (g *Graph) Block(id int) *Block {
	if id < 0 || id >= len(g.Blocks) {
		return nil
	}
	return g.Blocks[id]
}

// Func returns the function with the given id, or nil when it is out of range.
func (g *Graph) Func(id int) *Func {
	if id < 0 || id >= len(g.Funcs) {
		return nil
	}
	return g.Funcs[id]
}

// FuncByName returns the function with the given full name, or nil.
func (g *Graph) FuncByName(name string) *Func {
	for _, f := range g.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// TCPs returns the blocks that hold a TCP, in id order.
func (g *Graph) TCPs() []*Block {
	var out []*Block
	for _, b := range g.Blocks {
		if b.TCP != nil {
			out = append(out, b)
		}
	}
	return out
}

// ShortHash is the first 12 hex digits of the hash, for messages.
func (g *Graph) ShortHash() string {
	h := strings.TrimPrefix(g.Hash, "sha256:")
	if len(h) > 12 {
		h = h[:12]
	}
	return h
}
