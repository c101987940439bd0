package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// prioOffCopy puts a function's original body after a spawned literal's
// Start and Done (so that its parent's spawn is answered however the child
// runs) and before the entry.
const prioOffCopy = -3500

// offCopy puts a copy of the function's original body first in it, run
// when nothing is recorded (DIVERGO_TRACE=off): with recording off every
// probe still tested the empty buffer and kept the loop's registers
// spilled around its slow call, every entry and return still paid its
// call and defer, 1.2-1.5× the plain program on tight loops and calls
// (PERFORMANCE.md, "Recording off"). The copy is the original text, so with
// recording off the program runs its own code and one test per call.
//
// The copy lives in a block of its own, where its labels would clash with
// the instrumented body's: they are renamed. A /*line*/ directive before
// the copy gives it the original's positions (panics and runtime.Caller
// name the right lines), and one after it takes the rest of the function
// back to the line it is on. A function that returns nothing gets a
// return after the copy, so that it does not fall through into the
// instrumented body. Not copied: a body whose top-level := assigns a
// parameter or a result, which in the copy's block would declare a new
// variable instead, and an example, whose output comment must be the
// only one in its function.
func (r *rewriter) offCopy(node ast.Node, body *ast.BlockStmt) {
	if len(body.List) == 0 || r.assignsParam(body) || r.isExample(node) {
		return
	}
	start, end := r.off(body.Lbrace)+1, r.off(body.Rbrace)
	text := r.renameLabels(body, start, end)
	pos := r.fset.Position(body.Lbrace)
	at := fmt.Sprintf("/*line %s:%d:%d*/", r.tf.Name(), pos.Line, pos.Column+1)
	var b strings.Builder
	b.WriteString("if _dvg.Off() {")
	b.WriteString(at)
	b.WriteString(text)
	if ft := funcType(node); (ft.Results == nil || len(ft.Results.List) == 0) && !r.terminating(body) {
		b.WriteString(";return")
	}
	b.WriteString("};")
	b.WriteString(at)
	b.WriteString(" ")
	r.buf.insert(start, prioOffCopy, b.String())
}

// isExample reports whether node is an example of a test file, whose
// "// Output:" comment go test and vet allow once per function.
func (r *rewriter) isExample(node ast.Node) bool {
	d, ok := node.(*ast.FuncDecl)
	return ok && d.Recv == nil && strings.HasPrefix(d.Name.Name, "Example") && strings.HasSuffix(r.tf.Name(), "_test.go")
}

// assignsParam reports whether a statement at the top of body assigns a
// parameter, result or receiver with := (v, err := f() where err is a
// named result).
func (r *rewriter) assignsParam(body *ast.BlockStmt) bool {
	for _, s := range body.List {
		as, ok := s.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			continue
		}
		for _, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || id.Name == "_" || r.info.Defs[id] != nil {
				continue
			}
			if v, ok := r.info.Uses[id].(*types.Var); ok && v.Pos() < body.Lbrace {
				return true
			}
		}
	}
	return false
}

// renameLabels is the source between start and end (body's), with every
// label defined or named in it prefixed with _dvg_o.
func (r *rewriter) renameLabels(body *ast.BlockStmt, start, end int) string {
	var at []int
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.LabeledStmt:
			at = append(at, r.off(n.Label.Pos()))
		case *ast.BranchStmt:
			if n.Label != nil {
				at = append(at, r.off(n.Label.Pos()))
			}
		}
		return true
	})
	sort.Ints(at)
	var b strings.Builder
	last := start
	for _, o := range at {
		b.Write(r.src[last:o])
		b.WriteString("_dvg_o")
		last = o
	}
	b.Write(r.src[last:end])
	return b.String()
}

// terminating reports whether s is a terminating statement (the Go
// specification's "Terminating statements"): a function that returns
// nothing and ends in one needs no return after its copy, where vet would
// call that return unreachable.
func (r *rewriter) terminating(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.GOTO
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		b, ok := r.info.Uses[id].(*types.Builtin)
		return ok && b.Name() == "panic"
	case *ast.BlockStmt:
		return len(s.List) > 0 && r.terminating(s.List[len(s.List)-1])
	case *ast.IfStmt:
		return s.Else != nil && r.terminating(s.Body) && r.terminating(s.Else)
	case *ast.LabeledStmt:
		return r.terminating(s.Stmt)
	case *ast.ForStmt:
		return s.Cond == nil && !breaks(s.Body)
	case *ast.SwitchStmt:
		return r.clausesTerminate(s.Body)
	case *ast.TypeSwitchStmt:
		return r.clausesTerminate(s.Body)
	case *ast.SelectStmt:
		return r.clausesTerminate(s.Body)
	}
	return false
}

// clausesTerminate is the rule for switch and select: no break out of the
// statement, a default (a select needs none), and every clause ending in
// a terminating statement or, in a switch, a fallthrough.
func (r *rewriter) clausesTerminate(body *ast.BlockStmt) bool {
	hasDefault := false
	for _, c := range body.List {
		var list []ast.Stmt
		switch c := c.(type) {
		case *ast.CaseClause:
			hasDefault = hasDefault || c.List == nil
			list = c.Body
		case *ast.CommClause:
			hasDefault = true
			list = c.Body
		}
		if len(list) == 0 {
			return false
		}
		last := list[len(list)-1]
		if b, ok := last.(*ast.BranchStmt); !(ok && b.Tok == token.FALLTHROUGH) && !r.terminating(last) {
			return false
		}
		for _, s := range list {
			if breaks(s) {
				return false
			}
		}
	}
	return hasDefault
}

// breaks reports whether n holds a break out of the enclosing statement:
// an unlabeled break not inside a nested for, switch or select, or any
// labeled break (it may name the statement; erring that way adds a return
// vet may call unreachable, which still compiles).
func breaks(n ast.Node) bool {
	found := false
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				if m.Tok == token.BREAK && (m.Label != nil || !nested) {
					found = true
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, true)
					return false
				}
			}
			return true
		})
	}
	walk(n, false)
	return found
}
