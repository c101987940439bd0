package analyzer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/ssa"
)

// ssaResult is the SSA of one package.
type ssaResult struct {
	Pkg   *ssa.Package
	Funcs []*ssa.Function // source functions and their literals, in source order
	// bySyntax maps a FuncDecl or FuncLit to its function.
	bySyntax map[ast.Node]*ssa.Function
	// refs maps an expression to the DebugRefs that give its value. An
	// expression can have several (a value and an address, or copies in
	// code the builder duplicates).
	refs map[ast.Expr][]*ssa.DebugRef
}

// buildSSA builds the SSA form of the package in debug mode, the way
// buildssa does otherwise. Debug mode records a DebugRef for every
// expression, which is how a statement of the source (what the
// instrumenter can probe) is joined to the SSA value that decides it;
// buildssa deliberately builds without it. It is no analyzer of its own,
// so that a dependency whose facts come from the cache (driver.go) builds
// none.
func buildSSA(pass *analysis.Pass) *ssaResult {
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	prog := ssa.NewProgram(pass.Fset, ssa.GlobalDebug)
	prog.SetNoReturn(cfgs.NoReturn)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()

	res := &ssaResult{Pkg: pkg, bySyntax: map[ast.Node]*ssa.Function{}, refs: map[ast.Expr][]*ssa.DebugRef{}}
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		res.Funcs = append(res.Funcs, f)
		switch syn := f.Syntax().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			res.bySyntax[syn] = f
		}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if ref, ok := in.(*ssa.DebugRef); ok {
					e := ast.Unparen(ref.Expr)
					res.refs[e] = append(res.refs[e], ref)
				}
			}
		}
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			decl, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, ok := pass.TypesInfo.Defs[decl.Name].(*types.Func)
			if !ok {
				continue
			}
			if f := prog.FuncValue(obj); f != nil {
				add(f)
			}
		}
	}
	// The synthetic init function runs the package-level variable
	// initializers: its calls are call sites like any other, it may use
	// functions as values, and literals in initializers belong to it.
	if init := pkg.Func("init"); init != nil {
		add(init)
	}
	return res
}
