package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// prioOffCopy opens the test for recording off after a spawned literal's
// Start and Done (so that its parent's spawn is answered however the child
// runs) and before the entry.
const prioOffCopy = -3500

// prioOffCopyEnd closes the instrumented body and puts the copy after it,
// after everything else inserted before the function's closing brace.
const prioOffCopyEnd = 1 << 30

// offCopy puts a copy of the function's original body after it, run when
// nothing is recorded (DIVERGO_TRACE=off): with recording off every
// probe still tested the empty buffer and kept the loop's registers
// spilled around its slow call, every entry and return still paid its
// call and defer, 1.2-1.5× the plain program on tight loops and calls
// (PERFORMANCE.md, "Recording off"). The copy is the original text, so with
// recording off the program runs its own code and one test per call:
//
//	{if !_dvg.Off() { instrumented body } else {/*line*/ copy /*line*/}}
//
// The copy comes second because the compiler numbers a function's
// literals in the order they appear (main.main.func1, func2, ...): the
// instrumented body's literals, which run when the program is recorded,
// keep the numbers the plain build gives them, and a recorded panic names
// the same functions the plain one does. With recording off, the copy's
// literals are numbered after the instrumented body's.
//
// The copy lives in a block of its own, where its labels would clash with
// the instrumented body's: they are renamed. A /*line*/ directive before
// the copy gives it the original's positions (panics and runtime.Caller
// name the right lines), and one after it gives the closing brace its own.
// As both bodies are branches of one if-else, neither runs on into the
// other, and the compiler checks that both end in a return where the
// function has results. Not copied: a body whose top-level := assigns a
// parameter or a result, which in a block would declare a new variable
// instead, and an example, whose output comment must be the only one in
// its function.
func (r *rewriter) offCopy(node ast.Node, body *ast.BlockStmt) {
	if len(body.List) == 0 || r.assignsParam(body) || r.isExample(node) {
		return
	}
	start, end := r.off(body.Lbrace)+1, r.off(body.Rbrace)
	text := r.renameLabels(body, start, end)
	from, to := r.fset.Position(body.Lbrace), r.fset.Position(body.Rbrace)
	var b strings.Builder
	fmt.Fprintf(&b, "} else {/*line %s:%d:%d*/", r.tf.Name(), from.Line, from.Column+1)
	b.WriteString(text)
	fmt.Fprintf(&b, "/*line %s:%d:%d*/}", r.tf.Name(), to.Line, to.Column)
	r.buf.insert(start, prioOffCopy, "if !_dvg.Off() {")
	r.buf.insert(end, prioOffCopyEnd, b.String())
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
