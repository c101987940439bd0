package instrument

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// goStmt rewrites a go statement so that the parent records the spawn and
// the child announces itself before running the callee. The function value
// and the arguments are evaluated in the parent, as the go statement does,
// into variables of a block of their own:
//
//	{ _dvg_f, _dvg_a0 := f, x; _dvg_c := _dvg_r.Spawn(7); go func() { _dvg_c.Start(); defer _dvg_c.Done(); _dvg_f(_dvg_a0) }() }
//
// The source of f and x stays where it was, so positions inside them hold.
// Constants, untyped nil, generic functions (which cannot be values
// without instantiation) and builtins stay inline in the call. A function
// literal callee gets Start and Done first in its own body instead. A
// callee that takes and returns nothing needs no literal, which would be a
// frame of its own in the child's tracebacks: the runtime's Go calls it
// between Start and Done, from a frame tracebacks leave out
// (runtime/hidden.go):
//
//	{ _dvg_f := s.loop; _dvg_c := _dvg_r.Spawn(7); go _dvg.Go(_dvg_c, _dvg_f) }
func (r *rewriter) goStmt(g *ast.GoStmt) {
	call := g.Call
	site, ok := r.site(g.Pos(), "go")
	if !ok {
		r.walk(call)
		return
	}
	spawn := "_dvg_c := _dvg_r.Spawn(" + site + "); "
	start := "_dvg_c.Start(); defer _dvg_c.Done(); "
	r.push(g)
	defer r.pop()
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		r.buf.insert(r.off(g.Pos()), r.depth, "{ "+spawn)
		r.buf.insert(r.off(lit.Body.Lbrace)+1, prioStart, start)
		r.buf.insert(r.off(call.End()), -r.depth, " }")
		r.walk(call)
		return
	}
	type piece struct {
		e    ast.Expr
		name string
	}
	var pieces []piece
	var inner strings.Builder
	if r.inlineFunc(call.Fun) {
		if !r.movable(call.Fun) {
			r.warn(g.Pos(), "go statement with a callee that spans lines or holds a comment: spawn not recorded")
			r.walk(call)
			return
		}
		inner.WriteString(r.text(call.Fun))
	} else {
		pieces = append(pieces, piece{call.Fun, "_dvg_f"})
		inner.WriteString("_dvg_f")
	}
	inner.WriteString("(")
	for i, a := range call.Args {
		if i > 0 {
			inner.WriteString(", ")
		}
		if r.inlineArg(a) {
			if !r.movable(a) {
				r.warn(g.Pos(), "go statement with a constant argument that spans lines or holds a comment: spawn not recorded")
				r.walk(call)
				return
			}
			inner.WriteString(r.text(a))
			continue
		}
		name := fmt.Sprintf("_dvg_a%d", i)
		pieces = append(pieces, piece{a, name})
		inner.WriteString(name)
	}
	if call.Ellipsis.IsValid() {
		inner.WriteString("...")
	}
	inner.WriteString(")")
	tail := spawn + "go func() { " + start + inner.String() + " }() }"
	if len(call.Args) == 0 && len(pieces) == 1 && niladic(r.info.TypeOf(call.Fun)) {
		tail = spawn + "go _dvg.Go(_dvg_c, _dvg_f) }"
	}
	if len(pieces) == 0 {
		r.buf.replace(r.off(g.Pos()), r.off(call.End()), "{ "+tail)
		return
	}
	names := make([]string, len(pieces))
	for i, p := range pieces {
		names[i] = p.name
	}
	r.buf.replace(r.off(g.Pos()), r.off(pieces[0].e.Pos()), "{ "+strings.Join(names, ", ")+" := ")
	for i := 1; i < len(pieces); i++ {
		r.buf.replace(r.off(pieces[i-1].e.End()), r.off(pieces[i].e.Pos()), ", ")
	}
	r.buf.replace(r.off(pieces[len(pieces)-1].e.End()), r.off(call.End()), "; "+tail)
	r.push(call)
	for _, p := range pieces {
		r.walk(p.e)
	}
	r.pop()
}

// inlineFunc reports whether a go statement's callee must stay in the call:
// builtins and generic functions whose type arguments are inferred.
func (r *rewriter) inlineFunc(fun ast.Expr) bool {
	fun = ast.Unparen(fun)
	explicit := 0
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun, explicit = x.X, 1
	case *ast.IndexListExpr:
		fun, explicit = x.X, len(x.Indices)
	}
	var id *ast.Ident
	switch x := fun.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		if r.info.Selections[x] != nil {
			return false // a method value
		}
		id = x.Sel
	default:
		return false
	}
	switch obj := r.info.Uses[id].(type) {
	case *types.Builtin:
		return true
	case *types.Func:
		sig := obj.Type().(*types.Signature)
		return sig.TypeParams().Len() > explicit
	}
	return false
}

// niladic reports whether t is a function type that takes and returns
// nothing, whose values the runtime's Go can run.
func niladic(t types.Type) bool {
	if t == nil {
		return false
	}
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Params().Len() == 0 && sig.Results().Len() == 0
}

// inlineArg reports whether an argument stays in the call: constants and
// untyped nil have no value of their own type to store.
func (r *rewriter) inlineArg(a ast.Expr) bool {
	tv, ok := r.info.Types[a]
	return ok && (tv.Value != nil || tv.IsNil())
}

// wgGo rewrites wg.Go(f) (Go 1.25) as the spawn it is, recording the
// WaitGroup's Add in the parent and its Done in the child, all three at
// the wg.Go statement's site:
//
//	{ _dvg_w, _dvg_f := &(wg), f; _dvg_c := _dvg_r.Spawn(7); _dvg_r.WGAdd(7, _dvg_w, 1); go func() { _dvg_g := _dvg_c.Start(); defer _dvg_c.Done(); defer _dvg_g.WGDone(7, _dvg_w); _dvg_f() }() }
func (r *rewriter) wgGo(call *ast.CallExpr) {
	sel := call.Fun.(*ast.SelectorExpr)
	prefix, suffix, ok := r.addr(sel)
	if !ok || len(call.Args) != 1 {
		r.warn(call.Pos(), "WaitGroup.Go through an unexported embedded field: spawn not recorded")
		r.walk(call)
		return
	}
	site, ok := r.site(call.Pos(), "wg.go")
	if !ok {
		r.walk(call)
		return
	}
	arg := call.Args[0]
	r.buf.insert(r.off(sel.X.Pos()), r.depth, "{ _dvg_w, _dvg_f := "+prefix)
	r.buf.replace(r.off(sel.X.End()), r.off(arg.Pos()), suffix+", ")
	r.buf.replace(r.off(arg.End()), r.off(call.End()), "; _dvg_c := _dvg_r.Spawn("+site+"); _dvg_r.WGAdd("+site+", _dvg_w, 1); "+
		"go func() { _dvg_g := _dvg_c.Start(); defer _dvg_c.Done(); defer _dvg_g.WGDone("+site+", _dvg_w); _dvg_f() }() }")
	r.push(call)
	r.walk(sel.X)
	r.walk(arg)
	r.pop()
}
