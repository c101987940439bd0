package flow

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// buildSrc parses a file holding one function f and builds it with the
// all-TCPs oracle.
func buildSrc(t *testing.T, src string) (*token.FileSet, *Func) {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "x.go", "package p\n\n"+src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parsing: %v", err)
	}
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "f" {
			f := buildAll(fset, fd.Body, allOracle{fset}, mayReturnTest)
			if err := Check(f); err != nil {
				t.Errorf("check: %v\n%s", err, f.Format(fset))
			}
			return fset, f
		}
	}
	t.Fatal("no func f")
	return nil, nil
}

// mayReturnTest says panic, exit and fatal never return.
func mayReturnTest(call *ast.CallExpr) bool {
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return fn.Name != "panic" && fn.Name != "exit"
	case *ast.SelectorExpr:
		return fn.Sel.Name != "Exit" && fn.Sel.Name != "Fatal"
	}
	return true
}

// cps describes each TCP of f as "kind@line->where", where is the CP
// block's kind and line or "return", in block order.
func cps(fset *token.FileSet, f *Func) []string {
	var out []string
	for _, b := range f.Blocks {
		where := "return"
		if b.CP != nil {
			where = fmt.Sprintf("%s@%d", b.CP.Kind, fset.Position(b.CP.Pos).Line)
		}
		for _, tc := range b.TCPs() {
			out = append(out, fmt.Sprintf("%s@%d->%s", tc.Kind, tc.Pos.Line, where))
		}
	}
	return out
}

// probes describes each block as "kind:mode@line:col".
func probes(fset *token.FileSet, f *Func) []string {
	var out []string
	for _, b := range f.Blocks {
		s := b.Kind + ":" + b.Probe.Mode.String()
		if b.Probed() {
			p := fset.Position(b.Probe.Pos)
			s += fmt.Sprintf("@%d:%d", p.Line, p.Column)
		}
		out = append(out, s)
	}
	return out
}

func TestResolveCPs(t *testing.T) {
	fset, f := buildSrc(t, `func f(x int) int {
	if x > 0 {
		x++
	}
	return x
}`)
	for _, b := range f.Blocks {
		b.ID = 100 + b.Index
	}
	begin := &tbb.TCP{Kind: tbb.Begin}
	f.Blocks[0].Also = append(f.Blocks[0].Also, begin)
	f.ResolveCPs()
	f.SetCPPos(func(p token.Pos) tbb.Pos { return tbb.Pos{File: "rel.go", Line: fset.Position(p).Line} })
	br := f.Blocks[0].TCP
	if br.CP != 102 || br.CPPos.String() != "rel.go:7" {
		t.Errorf("branch converges at %d %s, want 102 rel.go:7", br.CP, br.CPPos)
	}
	if begin.CP != tbb.Return || begin.CPPos.String() != "rel.go:8" {
		t.Errorf("begin converges at %d %s, want return rel.go:8", begin.CP, begin.CPPos)
	}
}

// TestCaseLines: a case clause's block starts at its case keyword, whether
// its body starts on the next line, on the same line, or is empty; what
// follows a case (the body's own blocks) keeps its first statement's line.
func TestCaseLines(t *testing.T) {
	fset, f := buildSrc(t, `func f(a, b chan int, x int) int {
	select {
	case v := <-a:
		x += v
	case b <- x: x--
	default:
	}
	switch x {
	case 1, 2:
		x++
		if x > 2 {
			x--
		}
	default:
	}
	return x
}`)
	var got []string
	for _, b := range f.Blocks {
		got = append(got, fmt.Sprintf("%s@%d", b.Kind, fset.Position(b.Pos).Line))
	}
	want := []string{"select.case@5", "select.case@7", "select.case@8", "switch.case@11", "if.then@14", "switch.case@16"}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("no block %s in %v", w, got)
		}
	}
}
