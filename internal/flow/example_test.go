package flow_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/divergo/divergo/internal/flow"
	"github.com/divergo/divergo/internal/tbb"
)

// branchOracle makes every if statement a branch TCP.
type branchOracle struct{ fset *token.FileSet }

func (o branchOracle) Branch(s ast.Stmt) *tbb.TCP {
	if _, ok := s.(*ast.IfStmt); ok {
		return &tbb.TCP{Kind: tbb.Branch, Pos: tbb.Pos{Line: o.fset.Position(s.Pos()).Line}, Why: "example"}
	}
	return nil
}

func (branchOracle) Point(ast.Node) []*tbb.TCP { return nil }

func ExampleBuild() {
	src := `package p

func f(xs []int) (n int) {
	for _, x := range xs {
		if x > 0 {
			n++
		}
	}
	return n
}`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		panic(err)
	}
	body := file.Decls[0].(*ast.FuncDecl).Body
	f := flow.Build(fset, body, branchOracle{fset}, nil)
	fmt.Print(f.Format(fset))
	fmt.Println(flow.Check(f))
	// Output:
	// 0 entry open@3:26 [1]
	// 1 range.loop implied [2 5]
	// 2 range.body implied [3 4] tcp=branch@5 cp=4
	// 3 if.then open@5:12 [4]
	// 4 if.done after@7:4 [1] cp
	// 5 range.done implied [] exit
	// <nil>
}
