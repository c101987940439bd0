package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// rangeCounter reports whether the index e is the key of an enclosing
// range loop that counts: for i := range n (an integer), or over a slice,
// an array or a pointer to one, with i never assigned nor addressed in
// the body. Such an i is the number of the loop's iteration, which the
// loop's recorded path already says: two runs at the same step of one
// frame have run its body equally often, so an outcome event for i
// could never differ where the blocks agree. Recording it anyway cost
// an event per iteration in tight filling loops (vals[j] = rand.Float64()
// over 10,000 values, a hundred times over, in client_golang's
// concurrency tests), a fifth of those tests' trace.
func (r *rewriter) rangeCounter(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	obj, ok := r.info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	for i := len(r.stack) - 1; i >= 0; i-- {
		rs, ok := r.stack[i].(*ast.RangeStmt)
		if !ok || rs.Tok != token.DEFINE {
			continue
		}
		key, ok := rs.Key.(*ast.Ident)
		if !ok || r.info.Defs[key] != obj {
			continue
		}
		return countsFromZero(r.info.TypeOf(rs.X)) && !assignedIn(r.info, rs.Body, obj)
	}
	return false
}

// countsFromZero reports whether a range over a value of type t gives the
// keys 0, 1, 2 ... one per iteration (a string's keys are byte offsets,
// a map's and a channel's are values).
func countsFromZero(t types.Type) bool {
	if t == nil {
		return false
	}
	u := t.Underlying()
	if p, ok := u.(*types.Pointer); ok {
		u = p.Elem().Underlying()
		_, isArray := u.(*types.Array)
		return isArray
	}
	switch u := u.(type) {
	case *types.Slice, *types.Array:
		return true
	case *types.Basic:
		return u.Info()&types.IsInteger != 0
	}
	return false
}

// assignedIn reports whether body assigns obj, changes it with ++ or --,
// ranges into it or takes its address.
func assignedIn(info *types.Info, body *ast.BlockStmt, obj types.Object) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == obj
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || is(l)
			}
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				found = found || (n.Key != nil && is(n.Key)) || (n.Value != nil && is(n.Value))
			}
		case *ast.UnaryExpr:
			found = found || (n.Op == token.AND && is(n.X))
		}
		return !found
	})
	return found
}
