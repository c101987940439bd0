package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/divergo/divergo/internal/flow"
	"github.com/divergo/divergo/internal/syncop"
	"github.com/divergo/divergo/internal/tbb"
)

// Analyzer reports the trace change points of a package with their
// convergence points, and returns the TBB graph of every function as a
// [*Result].
var Analyzer = &analysis.Analyzer{
	Name:       "divergo",
	Doc:        doc,
	URL:        "https://pkg.go.dev/github.com/divergo/divergo/analyzer",
	Run:        run,
	Requires:   []*analysis.Analyzer{ctrlflow.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(funcFact)},
}

// Result is the analysis of one package: the TBB graph of each of its
// functions, in source order.
type Result struct {
	Pkg   *types.Package
	Funcs []*FuncGraph
	// instrs counts SSA instructions per source position, and poss lists
	// those positions in order, for Graph.
	instrs map[token.Pos]int
	poss   []token.Pos
	// at is the position of every TCP, for Graph.
	at map[*tbb.TCP]token.Pos
}

// FuncGraph is the TBB graph of one function declaration or literal.
type FuncGraph struct {
	Name string   // types.Func.FullName, or "pkg.F$1" for literals as in SSA
	Node ast.Node // *ast.FuncDecl or *ast.FuncLit
	Flow *flow.Func
}

func run(pass *analysis.Pass) (any, error) {
	res := buildSSA(pass)
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	ps := newPkgState(pass, res)
	ps.run()
	ps.exportFacts()

	o := &oracle{ps: ps, fset: pass.Fset, info: pass.TypesInfo, at: map[*tbb.TCP]token.Pos{}}
	mayReturn := func(call *ast.CallExpr) bool {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
			if b, ok := pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
				return false
			}
		}
		if fn := typeutil.StaticCallee(pass.TypesInfo, call); fn != nil {
			return !cfgs.NoReturn(fn)
		}
		return true
	}

	// build makes g's flow graph from its body.
	build := func(g *FuncGraph) {
		body := funcBody(g.Node)
		g.Flow = flow.Build(pass.Fset, body, withDisabled(o), mayReturn)
		for _, op := range syncop.Find(body, pass.TypesInfo, pass.Pkg) {
			g.Flow.AddSite(op.Op, op.Pos, op.At)
		}
		if d, ok := g.Node.(*ast.FuncDecl); ok && isMainMain(pass, d) {
			addBegin(o, g.Flow, d)
		}
	}

	out := &Result{Pkg: pass.Pkg, instrs: map[token.Pos]int{}, at: o.at}
	for _, fn := range res.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if _, ok := in.(*ssa.DebugRef); !ok && in.Pos().IsValid() {
					out.instrs[in.Pos()]++
				}
			}
		}
	}
	for p := range out.instrs {
		out.poss = append(out.poss, p)
	}
	sort.Slice(out.poss, func(i, j int) bool { return out.poss[i] < out.poss[j] })
	for _, file := range pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			var name string
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body == nil {
					return false
				}
				if obj, ok := pass.TypesInfo.Defs[n.Name].(*types.Func); ok {
					name = obj.FullName()
				}
			case *ast.FuncLit:
				if fn := res.bySyntax[n]; fn != nil {
					name = fn.String()
				}
			default:
				return true
			}
			g := &FuncGraph{Name: name, Node: n}
			build(g)
			out.Funcs = append(out.Funcs, g)
			return true
		})
	}
	silence(o, out.Funcs, build)
	for _, g := range out.Funcs {
		report(pass, o, g.Flow)
	}
	return out, nil
}

func funcBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return n.Body
	case *ast.FuncLit:
		return n.Body
	}
	return nil
}

func isMainMain(pass *analysis.Pass, d *ast.FuncDecl) bool {
	return pass.Pkg.Name() == "main" && d.Recv == nil && d.Name.Name == "main"
}

// addBegin marks the program's begin at main.main's entry block. Its CP is
// the return of main.
func addBegin(o *oracle, f *flow.Func, d *ast.FuncDecl) {
	t := o.newTCP(tbb.Begin, d.Pos(), "program begin: main.main starts the main goroutine")
	t.CP = tbb.Return
	t.CPPos = tbb.Pos{File: o.fset.Position(d.Body.Rbrace).Filename, Line: o.fset.Position(d.Body.Rbrace).Line}
	entry := f.Blocks[0]
	if entry.TCP == nil {
		entry.TCP = t
		entry.CP = nil
		return
	}
	entry.Also = append(entry.Also, t)
}

// report emits one diagnostic per TCP, in position order.
func report(pass *analysis.Pass, o *oracle, f *flow.Func) {
	type diag struct {
		pos token.Pos
		msg string
	}
	var ds []diag
	for _, b := range f.Blocks {
		for _, t := range b.TCPs() {
			cp := "return"
			if b.CP != nil && t.Kind != tbb.Begin {
				p := pass.Fset.Position(b.CP.Pos)
				cp = (tbb.Pos{File: relFile(p.Filename), Line: p.Line}).FileLine()
			}
			ds = append(ds, diag{o.at[t], "trace change point (" + string(t.Kind) + "): " + t.Why + "; converges at " + cp})
		}
	}
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].pos < ds[j].pos })
	for _, d := range ds {
		pass.Report(analysis.Diagnostic{Pos: d.pos, Category: "tcp", Message: d.msg})
	}
}
