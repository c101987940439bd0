package instrument

import (
	"fmt"
	"go/ast"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// handoffArgs numbers each function literal that call hands to a function
// of another package, such as errgroup's g.Go(func() error {...}), where
// it is evaluated: the literal becomes
//
//	func(_dvg_h *_dvg.Handoff) TYPE { return func... { _dvg_r := _dvg.EnterFrom(_dvg_h, E); ... } }(_dvg_r.Handoff(E))
//
// so that the goroutine the other package starts to run it, which no go
// statement of the program names, is paired with its counterpart in
// another run by the order its creator evaluated the literals
// (runtime/handoff.go). The call (Go often inlines it) costs a small
// allocation per evaluation, and nothing with recording off but the call.
// Literals of this package's functions are left alone: a goroutine they
// start runs a go statement of the program, which is recorded as a spawn.
// So is a literal whose type is written over lines or with a comment
// (copying it into the wrapper would move lines), and a test's function
// (TestEnter names its goroutine by the test).
func (r *rewriter) handoffArgs(call *ast.CallExpr) {
	if r.fn == nil {
		return
	}
	callee := typeutil.StaticCallee(r.info, call)
	if callee == nil || callee.Pkg() == nil || callee.Pkg() == r.pkg || r.syncMethod(call) != "" {
		return
	}
	for _, arg := range call.Args {
		lit, ok := ast.Unparen(arg).(*ast.FuncLit)
		if !ok {
			continue
		}
		f := r.funcs[lit]
		typ := r.text(lit.Type)
		if f == nil || r.testParam(lit) != "" || strings.ContainsAny(typ, "\n/") {
			continue
		}
		if r.handed == nil {
			r.handed = map[ast.Node]bool{}
		}
		r.handed[lit] = true
		r.buf.insert(r.off(lit.Pos()), r.depth+1, "func(_dvg_h *_dvg.Handoff) "+typ+" { return ")
		r.buf.insert(r.off(lit.End()), -(r.depth + 1), fmt.Sprintf(" }(_dvg_r.Handoff(%d))", f.Entry))
	}
}
