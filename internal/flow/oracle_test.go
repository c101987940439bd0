package flow

import (
	"go/ast"
	"go/token"

	"github.com/divergo/divergo/internal/tbb"
)

// allOracle marks every branch statement as a TCP, and as point TCPs every
// call of a method named Lock and every index expression. It lets tests
// exercise every TCP position without an analyzer.
type allOracle struct{ fset *token.FileSet }

func (o allOracle) pos(p token.Pos) tbb.Pos {
	q := o.fset.Position(p)
	return tbb.Pos{File: q.Filename, Line: q.Line, Col: q.Column}
}

func (o allOracle) Branch(s ast.Stmt) *tbb.TCP {
	var k tbb.Kind
	switch s.(type) {
	case *ast.IfStmt:
		k = tbb.Branch
	case *ast.ForStmt, *ast.RangeStmt:
		k = tbb.Loop
	case *ast.SwitchStmt, *ast.TypeSwitchStmt:
		k = tbb.Switch
	case *ast.SelectStmt:
		k = tbb.Select
	default:
		return nil
	}
	return &tbb.TCP{Kind: k, Pos: o.pos(s.Pos()), Why: "test"}
}

func (o allOracle) Point(n ast.Node) []*tbb.TCP {
	var out []*tbb.TCP
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IndexExpr:
			out = append(out, &tbb.TCP{Kind: tbb.Index, Pos: o.pos(x.Pos()), Why: "test"})
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Lock" {
				out = append(out, &tbb.TCP{Kind: tbb.Lock, Pos: o.pos(x.Pos()), Why: "test"})
			}
		case *ast.GoStmt:
			out = append(out, &tbb.TCP{Kind: tbb.Spawn, Pos: o.pos(x.Pos()), Why: "test"})
		}
		return true
	})
	return out
}

// funcBodies returns the bodies of every function declaration and literal
// in f.
func funcBodies(f *ast.File) []*ast.BlockStmt {
	var out []*ast.BlockStmt
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				out = append(out, n.Body)
			}
		case *ast.FuncLit:
			out = append(out, n.Body)
		}
		return true
	})
	return out
}
