package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/divergo/divergo/internal/syncop"
	"github.com/divergo/divergo/internal/tbb"
)

// oracle answers internal/flow's questions for one package: which
// statements are TCPs, from the dependence analysis of their SSA values.
type oracle struct {
	ps   *pkgState
	fset *token.FileSet
	info *types.Info
	// at records the token position of every TCP handed out, for the
	// diagnostics (tbb.Pos has lost the file set).
	at map[*tbb.TCP]token.Pos
	// once finds the function values sync.OnceFunc & co. made; nil until
	// the first call of a function value.
	once *onceFuncs
	// forScopes are the scopes of the package's for statements (leaf.go);
	// nil until Leaf first needs them.
	forScopes map[*types.Scope]bool
	// silent are the package's functions that record nothing (silent.go),
	// nil before silence found them; defers are the functions defer
	// statements call.
	silent map[*types.Func]bool
	defers map[*types.Func]bool
}

func (o *oracle) newTCP(kind tbb.Kind, pos token.Pos, why string) *tbb.TCP {
	t := &tbb.TCP{Kind: kind, Pos: o.tbbPos(pos), Why: why}
	o.at[t] = pos
	return t
}

func (o *oracle) tbbPos(pos token.Pos) tbb.Pos {
	if !pos.IsValid() {
		return tbb.Pos{}
	}
	p := o.fset.Position(pos)
	return tbb.Pos{File: relFile(p.Filename), Line: p.Line, Col: p.Column}
}

func (o *oracle) where(p *source) string {
	if p == nil {
		return "shared data"
	}
	if !p.pos.IsValid() {
		return p.desc
	}
	return p.desc + " at " + o.tbbPos(p.pos).FileLine()
}

// exprTaint reports whether e is shared-dependent, and names the smallest
// shared-dependent part of it and its source.
func (o *oracle) exprTaint(e ast.Expr) (bool, string) {
	ok, p := o.tainted(e)
	if !ok {
		return false, ""
	}
	leaf := e
	for {
		next, q := o.leafChild(leaf, p)
		if next == nil {
			break
		}
		leaf, p = next, q
	}
	return true, fmt.Sprintf("%s depends on %s", types.ExprString(leaf), o.where(p))
}

// leafChild picks the direct subexpression of e that explains its taint:
// one with the same source, preferring values that are not phis (a loop
// variable is tainted by the loop condition it appears in); the callee of a
// call is never the explanation.
func (o *oracle) leafChild(e ast.Expr, p *source) (ast.Expr, *source) {
	var kids []ast.Expr
	skip := ast.Node(nil)
	switch x := e.(type) {
	case *ast.CallExpr:
		skip = x.Fun
	case *ast.SelectorExpr:
		return nil, nil // a field is read as a whole: s.f, not s
	case *ast.IndexExpr:
		skip = x.X // a[i] is explained by i, or is itself the read
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if n == nil || n == ast.Node(e) {
			return n != nil
		}
		if x, ok := n.(ast.Expr); ok && n != skip {
			if _, lit := x.(*ast.FuncLit); !lit {
				kids = append(kids, x)
			}
		}
		return false
	})
	var fallback ast.Expr
	var fallbackSrc *source
	for pass := 0; pass < 2; pass++ {
		for _, k := range kids {
			if pass == 0 && o.isPhi(k) {
				continue
			}
			t, q := o.tainted(k)
			if !t {
				continue
			}
			if q == p {
				return k, q
			}
			if fallback == nil && p == nil {
				fallback, fallbackSrc = k, q
			}
		}
	}
	return fallback, fallbackSrc
}

func (o *oracle) isPhi(e ast.Expr) bool {
	for _, ref := range o.ps.ssa.refs[ast.Unparen(e)] {
		if _, ok := ref.X.(*ssa.Phi); ok {
			return true
		}
	}
	return false
}

// tainted looks up the SSA values of e. Expressions without one (&&, ||,
// !, parentheses) are tainted if an operand is; constants never are.
func (o *oracle) tainted(e ast.Expr) (bool, *source) {
	e = ast.Unparen(e)
	if tv, ok := o.info.Types[e]; ok && (tv.Value != nil || tv.IsType() || tv.IsNil()) {
		return false, nil
	}
	if refs := o.ps.ssa.refs[e]; len(refs) > 0 {
		// Prefer values to addresses: the address of a variable used as
		// a receiver says nothing about the call.
		if len(refs) > 1 {
			var vals []*ssa.DebugRef
			for _, ref := range refs {
				if !ref.IsAddr {
					vals = append(vals, ref)
				}
			}
			if len(vals) > 0 {
				refs = vals
			}
		}
		for _, ref := range refs {
			s := o.ps.byFn[ref.Parent()]
			if s == nil {
				return true, nil // not analysed: assume the worst
			}
			s.at = ref.Block()
			t := s.get(ref.X)
			if ref.IsAddr {
				t = s.load(ref.X, ref, ref.Pos())
			}
			if ok, p := s.eval(t); ok {
				return true, p
			}
		}
		return false, nil
	}
	switch e := e.(type) {
	case *ast.Ident, *ast.FuncLit, *ast.BasicLit:
		// names of functions, types, packages; dead code has no SSA at all
		return false, nil
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			if ok, p := o.tainted(el); ok {
				return true, p
			}
		}
		return false, nil
	case *ast.KeyValueExpr:
		return o.tainted(e.Value)
	}
	var found bool
	var src *source
	skip := ast.Node(nil)
	if c, ok := e.(*ast.CallExpr); ok {
		skip = c.Fun
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n == ast.Node(e) {
			return true
		}
		if x, ok := n.(ast.Expr); ok && n != skip {
			if _, lit := x.(*ast.FuncLit); !lit {
				found, src = o.tainted(x)
			}
		}
		return false
	})
	return found, src
}

// Branch implements flow.Oracle.
func (o *oracle) Branch(s ast.Stmt) *tbb.TCP {
	switch s := s.(type) {
	case *ast.IfStmt:
		if ok, why := o.exprTaint(s.Cond); ok {
			return o.newTCP(tbb.Branch, s.Pos(), why)
		}
	case *ast.ForStmt:
		if s.Cond == nil {
			return nil
		}
		if ok, why := o.exprTaint(s.Cond); ok {
			return o.newTCP(tbb.Loop, s.Pos(), why)
		}
	case *ast.RangeStmt:
		return o.rangeTCP(s)
	case *ast.SwitchStmt:
		if s.Tag != nil {
			if ok, why := o.exprTaint(s.Tag); ok {
				return o.newTCP(tbb.Switch, s.Pos(), why)
			}
		}
		for _, c := range s.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				if ok, why := o.exprTaint(e); ok {
					return o.newTCP(tbb.Switch, s.Pos(), why)
				}
			}
		}
	case *ast.TypeSwitchStmt:
		var x ast.Expr
		switch a := s.Assign.(type) {
		case *ast.AssignStmt:
			if len(a.Rhs) == 1 {
				x = a.Rhs[0]
			}
		case *ast.ExprStmt:
			x = a.X
		}
		if ta, ok := ast.Unparen(x).(*ast.TypeAssertExpr); ok {
			x = ta.X
		}
		if x == nil {
			return o.newTCP(tbb.Switch, s.Pos(), "type switch on an unknown value")
		}
		if ok, why := o.exprTaint(x); ok {
			return o.newTCP(tbb.Switch, s.Pos(), "type of "+why)
		}
	case *ast.SelectStmt:
		if n := len(s.Body.List); n >= 2 {
			return o.newTCP(tbb.Select, s.Pos(), fmt.Sprintf("select chooses among %d cases that can be ready together", n))
		}
	}
	return nil
}

func (o *oracle) rangeTCP(s *ast.RangeStmt) *tbb.TCP {
	t := o.info.TypeOf(s.X)
	if t == nil {
		return o.newTCP(tbb.Loop, s.Pos(), "range over an expression of unknown type")
	}
	x := types.ExprString(s.X)
	switch u := coreType(t).(type) {
	case *types.Map:
		return o.newTCP(tbb.MapRange, s.Pos(), "iteration order of map "+x)
	case *types.Chan:
		return o.newTCP(tbb.Loop, s.Pos(), "range over channel "+x+" receives shared data")
	case *types.Signature:
		return o.newTCP(tbb.Loop, s.Pos(), "range over iterator "+x+": the function decides how often it yields")
	case *types.Array:
		return nil
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Array); ok {
			return nil
		}
	case nil:
		return o.newTCP(tbb.Loop, s.Pos(), "range over "+x+" of a type parameter without a core type")
	}
	if ok, why := o.exprTaint(s.X); ok {
		return o.newTCP(tbb.Loop, s.Pos(), "length of "+why)
	}
	return nil
}

// Point implements flow.Oracle.
func (o *oracle) Point(n ast.Node) []*tbb.TCP {
	var out []*tbb.TCP
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit, *ast.BlockStmt:
			return false
		case *ast.GoStmt:
			out = append(out, o.newTCP(tbb.Spawn, x.Pos(), "go statement starts "+callName(x.Call)))
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(o.info, x).(*types.Func)
			if fn == nil {
				if maker, ok := o.onceCall(x); ok {
					out = append(out, o.newTCP(tbb.Once, x.Pos(), "calls "+types.ExprString(x.Fun)+", made by "+maker+": whether this goroutine runs the function"))
				}
				break
			}
			switch {
			case isLock(fn), syncop.LockerLock(o.info, o.ps.pass.Pkg, x):
				// A Lock through a sync.Locker (c.L.Lock() on a Cond, a
				// mutex passed as a Locker) is one too: the runtime
				// records its acquisition and ticket by the value's
				// dynamic type, as it does a direct Mutex.Lock's.
				out = append(out, o.newTCP(tbb.Lock, x.Pos(), fnName(fn)+" on "+recvString(x)+": the acquisition order"))
			case isOnceDo(fn):
				out = append(out, o.newTCP(tbb.Once, x.Pos(), fnName(fn)+" on "+recvString(x)+": whether this goroutine runs the function"))
			case isInput(fn) && !(isGenerator(fn) && o.drawsSeeded(x)):
				out = append(out, o.newTCP(tbb.Input, x.Pos(), fnName(fn)+"() is a nondeterministic input"))
			}
		case *ast.IndexExpr:
			if o.isIndexable(x.X) {
				if ok, why := o.exprTaint(x.Index); ok {
					out = append(out, o.newTCP(tbb.Index, x.Pos(), "index "+why))
				}
			}
		}
		return true
	})
	return out
}

// isIndexable reports whether x is an array, slice, string or map value
// (and not a generic function or type being instantiated).
func (o *oracle) isIndexable(x ast.Expr) bool {
	tv, ok := o.info.Types[x]
	if !ok || tv.IsType() {
		return false
	}
	t := coreType(tv.Type)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	switch t := t.(type) {
	case *types.Array, *types.Slice, *types.Map:
		return true
	case *types.Basic:
		return t.Info()&types.IsString != 0
	}
	return false
}

func callName(c *ast.CallExpr) string {
	if _, ok := ast.Unparen(c.Fun).(*ast.FuncLit); ok {
		return "a function literal"
	}
	return types.ExprString(c.Fun)
}

func recvString(c *ast.CallExpr) string {
	if sel, ok := astutil.Unparen(c.Fun).(*ast.SelectorExpr); ok {
		return types.ExprString(sel.X)
	}
	return "a mutex"
}
