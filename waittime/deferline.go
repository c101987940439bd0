package waittime

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/divergo/divergo/internal/tbb"
)

// A deferred call runs when its function returns, and Go's stacks (the
// execution tracer's, the CPU profiler's) put the caller's frame at the
// function's closing brace or at the return statement: a wait inside
// `defer srv.Close()` was a site at the `}`. The statement that named the
// call is the defer; with the program's sources (Options.SourceRoot) a
// frame at a closing brace or a return whose callee a defer statement of
// that function calls is put at that defer's line.

// deferLines finds defer statements in the program's sources, parsing each
// file once.
type deferLines struct {
	root  string
	fset  *token.FileSet
	files map[string]*ast.File // by graph path; nil when unreadable
}

func newDeferLines(root string) *deferLines {
	if root == "" {
		return nil
	}
	return &deferLines{root: root, fset: token.NewFileSet(), files: map[string]*ast.File{}}
}

// line is the line of the defer statement whose deferred call is callee
// (a function's full name, "net/http/httptest.(*Server).Close"), in the
// innermost function of file that ends at line or has a return statement
// there; 0 when there is none, or more than one that could be it.
func (d *deferLines) line(file string, line int, callee string) int {
	if d == nil || file == "" || line <= 0 {
		return 0
	}
	f, ok := d.files[file]
	if !ok {
		f, _ = parser.ParseFile(d.fset, filepath.Join(d.root, filepath.FromSlash(file)), nil, parser.SkipObjectResolution)
		d.files[file] = f
	}
	if f == nil {
		return 0
	}
	name := calleeName(callee)
	if name == "" {
		return 0
	}
	var body *ast.BlockStmt
	ast.Inspect(f, func(n ast.Node) bool {
		var b *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			b = n.Body
		case *ast.FuncLit:
			b = n.Body
		}
		if b != nil && d.fset.Position(b.Lbrace).Line <= line && d.fset.Position(b.Rbrace).Line >= line {
			body = b // innermost last: Inspect goes outside in
		}
		return true
	})
	if body == nil {
		return 0
	}
	exits := d.fset.Position(body.Rbrace).Line == line
	found := 0
	walkOwn(body, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if d.fset.Position(n.Pos()).Line == line {
				exits = true
			}
		case *ast.DeferStmt:
			if callName(n.Call.Fun) == name {
				if found != 0 {
					found = -1 // two candidates: no guess
				} else {
					found = d.fset.Position(n.Pos()).Line
				}
			}
		}
	})
	if !exits || found <= 0 {
		return 0
	}
	return found
}

// walkOwn calls f on every node of body outside the function literals in
// it: their defers and returns are theirs.
func walkOwn(body *ast.BlockStmt, f func(ast.Node)) {
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if n != nil {
			f(n)
		}
		return true
	})
}

// calleeName is the last element of a function's full name: "Close" of
// "net/http/httptest.(*Server).Close", "Wait" of "golang.org/x/sync/errgroup.(*Group).Wait";
// "" for a function literal ("main.main.func1").
func calleeName(full string) string {
	if i := strings.LastIndexByte(full, '/'); i >= 0 {
		full = full[i+1:]
	}
	i := strings.LastIndexByte(full, '.')
	if i < 0 {
		return ""
	}
	name := full[i+1:]
	if strings.HasPrefix(name, "func") && strings.Trim(name[4:], "0123456789") == "" {
		return ""
	}
	return name
}

// callName is the name a call expression calls: F, x.F, x.y.F.
func callName(fun ast.Expr) string {
	switch fun := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return fun.Name
	case *ast.SelectorExpr:
		return fun.Sel.Name
	case *ast.IndexExpr: // a generic function instantiated
		return callName(fun.X)
	}
	return ""
}

// atDefer moves pos, a frame of the program at a closing brace or a
// return, to the line of the defer statement that called callee there.
func (a *analysis) atDefer(pos tbb.Pos, callee string) tbb.Pos {
	if l := a.defers.line(pos.File, pos.Line, callee); l > 0 {
		pos.Line, pos.Col = l, 0
	}
	return pos
}
