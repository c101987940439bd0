package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// A function whose runs cannot differ (no change point) and that reaches
// no code that records (no synchronization, no go statement, only calls
// of leaf functions and of other such functions) need not record its
// entry, exit or blocks: both runs' traces leave it out alike, and its
// time belongs to the block that called it. Recording a tiny function
// called millions of times (spectral-norm's a(i, j)) costs far more than
// the function. Such a function is silenced (flow.Func.Silence), and its
// calls are leaves for its callers (Leaf), so that loops calling it can
// be packed.
//
// Only functions that are called and nothing else qualify: not main.main,
// init or functions of test files, and not functions that unknown code may
// call, that a go or defer statement runs or that are used as values (a
// goroutine that never enters a recorded function has no stream of its
// own). A silent function makes no closure, defers nothing, and calls
// panic nowhere: a panic passing through a frame that was never entered
// would unwind the recorded frames of its callers unseen.

// silence finds the silent functions of the package among graphs, marks
// them, and rebuilds the graphs of the functions that call them, whose
// loops may now pack.
func silence(o *oracle, graphs []*FuncGraph, build func(*FuncGraph)) {
	cand := map[*types.Func]*FuncGraph{}
	for _, g := range graphs {
		if obj := o.silentCandidate(g); obj != nil {
			cand[obj] = g
		}
	}
	for changed := true; changed; {
		changed = false
		for obj, g := range cand {
			if !o.silentBody(g.Node.(*ast.FuncDecl).Body, cand) {
				delete(cand, obj)
				changed = true
			}
		}
	}
	if len(cand) == 0 {
		return
	}
	o.silent = map[*types.Func]bool{}
	for obj := range cand {
		o.silent[obj] = true
	}
	for _, g := range graphs {
		if o.callsSilent(funcBody(g.Node)) {
			build(g)
		}
	}
	for _, g := range cand {
		g.Flow.Silence()
	}
}

// silentCandidate returns the function of g if g may be silent by what
// its graph and its uses say.
func (o *oracle) silentCandidate(g *FuncGraph) *types.Func {
	d, ok := g.Node.(*ast.FuncDecl)
	if !ok || d.Body == nil || len(g.Flow.Sites) > 0 {
		return nil
	}
	if d.Recv == nil && (d.Name.Name == "init" || d.Name.Name == "main" && o.ps.isMain) {
		return nil
	}
	if strings.HasSuffix(o.fset.File(d.Pos()).Name(), "_test.go") {
		return nil
	}
	for _, b := range g.Flow.Blocks {
		if len(b.TCPs()) > 0 {
			return nil
		}
	}
	obj, _ := o.info.Defs[d.Name].(*types.Func)
	if obj == nil {
		return nil
	}
	s := o.ps.byObj[obj]
	if s == nil || s.escapes || s.spawned || o.deferred()[obj] {
		return nil
	}
	return obj
}

// deferred are the package's functions that some defer statement calls.
func (o *oracle) deferred() map[*types.Func]bool {
	if o.defers != nil {
		return o.defers
	}
	o.defers = map[*types.Func]bool{}
	for _, f := range o.ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if d, ok := n.(*ast.DeferStmt); ok {
				if fn := typeutil.StaticCallee(o.info, d.Call); fn != nil {
					o.defers[fn.Origin()] = true
				}
			}
			return true
		})
	}
	return o.defers
}

// silentBody reports whether body records nothing when the candidates
// record nothing.
func (o *oracle) silentBody(body *ast.BlockStmt, cand map[*types.Func]*FuncGraph) bool {
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt, *ast.SelectStmt, *ast.SendStmt:
			ok = false
		case *ast.UnaryExpr:
			ok = n.Op != token.ARROW
		case *ast.RangeStmt:
			switch coreType(o.info.TypeOf(n.X)).(type) {
			case *types.Chan, *types.Signature, nil:
				ok = false
			}
		case *ast.CallExpr:
			if id, isID := ast.Unparen(n.Fun).(*ast.Ident); isID {
				if b, isB := o.info.Uses[id].(*types.Builtin); isB && (b.Name() == "panic" || b.Name() == "recover") {
					ok = false
					break
				}
			}
			fn := typeutil.StaticCallee(o.info, n)
			ok = (fn != nil && cand[fn.Origin()] != nil && !o.methodOnLoopVar(n, fn)) || o.Leaf(n)
		}
		return ok
	})
	return ok
}

// callsSilent reports whether body calls a silent function.
func (o *oracle) callsSilent(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && !found {
			if fn := typeutil.StaticCallee(o.info, c); fn != nil && o.silent[fn.Origin()] {
				found = true
			}
		}
		return !found
	})
	return found
}

// methodOnLoopVar reports whether call calls method fn on the address of
// a for statement's variable, which a packed loop must not be given (see
// loopVarAddr).
func (o *oracle) methodOnLoopVar(call *ast.CallExpr, fn *types.Func) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && o.info.Selections[sel] != nil && o.loopVarAddr(sel.X, fn)
}
