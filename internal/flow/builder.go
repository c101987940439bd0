package flow

// This file builds the statement-level control-flow graph.
//
// It follows the shape of golang.org/x/tools/go/cfg's builder but is its own:
// go/cfg has no notion of where a statement can be inserted, evaluates every
// select communication as a separate statement, gives each expression of a
// multi-value case its own block (two paths from the switch to one clause
// body, which breaks the unique-path property), and cannot split a block
// after a point TCP. Refining its output would mean rebuilding every block.

import (
	"go/ast"
	"go/token"

	"github.com/divergo/divergo/internal/tbb"
)

// kindDead marks blocks that start after a return, a jump or a call that does
// not return. No edge leads into them; they are dropped with the other
// unreachable blocks.
const kindDead = "unreachable"

type builder struct {
	o         Oracle
	mayReturn func(*ast.CallExpr) bool
	cur       *Block
	started   []*Block // blocks in the order they became current: source order, roughly
	labels    map[string]*lblock
	targets   *targets
	points    map[*Block][]*tbb.TCP // point TCPs per block, in evaluation order
	branches  map[*Block]*tbb.TCP   // branch TCP of the decision that ends a block
	nPoints   int                   // point TCPs added since the current list statement began
}

// targets is the stack of destinations of unlabeled break, continue and
// fallthrough statements.
type targets struct {
	tail                *targets
	brk, cont, fallthru *Block
}

// lblock holds the destinations of a label.
type lblock struct {
	target    *Block // goto target
	brk, cont *Block
}

func newBuilder(o Oracle, mayReturn func(*ast.CallExpr) bool) *builder {
	return &builder{
		o:         o,
		mayReturn: mayReturn,
		labels:    map[string]*lblock{},
		points:    map[*Block][]*tbb.TCP{},
		branches:  map[*Block]*tbb.TCP{},
	}
}

func (b *builder) newBlock(kind string, s ast.Stmt, p Probe) *Block {
	return &Block{Index: -1, ID: -1, Kind: kind, Stmt: s, Probe: p}
}

// start makes blk the current block.
func (b *builder) start(blk *Block) {
	if blk.Index < 0 {
		blk.Index = len(b.started)
		b.started = append(b.started, blk)
	}
	b.cur = blk
}

// dead makes a fresh unreachable block current, for code after a jump.
func (b *builder) dead(s ast.Stmt) { b.start(b.newBlock(kindDead, s, Probe{})) }

func (b *builder) live() bool { return b.cur.Kind != kindDead }

// add appends n to the current block and collects its point TCPs.
func (b *builder) add(n ast.Node) {
	b.cur.Nodes = append(b.cur.Nodes, n)
	if b.o == nil {
		return
	}
	if ts := b.o.Point(n); len(ts) > 0 {
		b.points[b.cur] = append(b.points[b.cur], ts...)
		b.nPoints += len(ts)
	}
}

// decide records the branch TCP of s on the current block, which ends with
// the decision of s.
func (b *builder) decide(s ast.Stmt) {
	if b.o == nil {
		return
	}
	if t := b.o.Branch(s); t != nil {
		b.branches[b.cur] = t
	}
}

func (b *builder) jump(to *Block) {
	b.cur.Succs = append(b.cur.Succs, to)
	b.dead(nil)
}

func (b *builder) branch(to ...*Block) {
	b.cur.Succs = append(b.cur.Succs, to...)
	b.dead(nil)
}

// exit marks the current block as leaving the function and ends it.
func (b *builder) exit(s ast.Stmt) {
	b.cur.Exit = true
	b.dead(s)
}

// noReturn reports whether call never returns. A mayReturn from the analyzer
// is trusted; without one, only a call of panic is taken as terminating, as
// the language does: probes inserted after a terminating statement would
// break "missing return".
func (b *builder) noReturn(call *ast.CallExpr) bool {
	if b.mayReturn != nil {
		return !b.mayReturn(call)
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	return ok && id.Name == "panic" && len(call.Args) == 1
}

func (b *builder) stmtList(list []ast.Stmt) {
	for i, s := range list {
		b.nPoints = 0
		b.stmt(s, nil)
		// Split after a simple statement with point TCPs: its block ends
		// there and the next statement begins a probed block, the CP.
		if b.nPoints > 0 && i+1 < len(list) && b.live() && isSimple(unlabel(s)) {
			next := b.newBlock("split", unlabel(s), Probe{Before, list[i+1].Pos()})
			b.jump(next)
			b.start(next)
		}
	}
}

func unlabel(s ast.Stmt) ast.Stmt {
	for {
		l, ok := s.(*ast.LabeledStmt)
		if !ok {
			return s
		}
		s = l.Stmt
	}
}

func isSimple(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.ExprStmt, *ast.SendStmt, *ast.IncDecStmt, *ast.AssignStmt,
		*ast.GoStmt, *ast.DeferStmt, *ast.DeclStmt:
		return true
	}
	return false
}

// isBreakable reports whether a label on s can be the target of break or
// continue. Such a label cannot take a probe of its own: `L: probe(); for`
// would move the label off the loop.
func isBreakable(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		return true
	}
	return false
}

func (b *builder) stmt(s ast.Stmt, label *lblock) {
	switch s := s.(type) {
	case *ast.BadStmt, *ast.SendStmt, *ast.IncDecStmt, *ast.GoStmt,
		*ast.AssignStmt, *ast.DeferStmt:
		b.add(s)

	case *ast.EmptyStmt:
		// Evaluates nothing.

	case *ast.ExprStmt:
		b.add(s)
		if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok && b.noReturn(call) {
			b.exit(s)
		}

	case *ast.DeclStmt:
		if d, ok := s.Decl.(*ast.GenDecl); ok && d.Tok == token.VAR {
			for _, spec := range d.Specs {
				b.add(spec)
			}
		}

	case *ast.LabeledStmt:
		lb := b.label(s.Label.Name)
		blk := lb.target
		blk.Stmt = s
		if !isBreakable(s.Stmt) {
			// A goto target: `L: probe(); stmt` keeps the label a
			// valid goto target and the probe first in the block.
			blk.Probe = Probe{Before, s.Stmt.Pos()}
		}
		b.jump(blk)
		b.start(blk)
		b.stmt(s.Stmt, lb)

	case *ast.ReturnStmt:
		b.add(s)
		b.exit(s)

	case *ast.BranchStmt:
		b.branchStmt(s)

	case *ast.BlockStmt:
		b.stmtList(s.List)

	case *ast.IfStmt:
		b.ifStmt(s, nil)

	case *ast.ForStmt:
		b.forStmt(s, label)

	case *ast.RangeStmt:
		b.rangeStmt(s, label)

	case *ast.SwitchStmt:
		if s.Init != nil {
			b.stmt(s.Init, nil)
		}
		if s.Tag != nil {
			b.add(s.Tag)
		}
		b.switchStmt(s, s.Body, label, true)

	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			b.stmt(s.Init, nil)
		}
		b.add(s.Assign)
		b.switchStmt(s, s.Body, label, false)

	case *ast.SelectStmt:
		b.selectStmt(s, label)
	}
}

func (b *builder) label(name string) *lblock {
	lb := b.labels[name]
	if lb == nil {
		lb = &lblock{target: b.newBlock("label", nil, Probe{})}
		b.labels[name] = lb
	}
	return lb
}

func (b *builder) branchStmt(s *ast.BranchStmt) {
	var to *Block
	switch s.Tok {
	case token.BREAK:
		if s.Label != nil {
			to = b.label(s.Label.Name).brk
		} else {
			for t := b.targets; t != nil && to == nil; t = t.tail {
				to = t.brk
			}
		}
	case token.CONTINUE:
		if s.Label != nil {
			to = b.label(s.Label.Name).cont
		} else {
			for t := b.targets; t != nil && to == nil; t = t.tail {
				to = t.cont
			}
		}
	case token.FALLTHROUGH:
		for t := b.targets; t != nil && to == nil; t = t.tail {
			to = t.fallthru
		}
	case token.GOTO:
		if s.Label != nil {
			to = b.label(s.Label.Name).target
		}
	}
	if to == nil {
		// Ill-typed code (an undefined label): control goes nowhere.
		b.dead(s)
		return
	}
	b.jump(to)
}
