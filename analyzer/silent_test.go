package analyzer

import (
	"go/ast"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestSilent checks which functions record nothing: testdata/src/silent
// marks each function declaration "silent" or "recorded" on the line
// above it. A loop that calls a silent function packs.
func TestSilent(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), Analyzer, "silent")
	if len(results) != 1 {
		t.Fatalf("%d results, want 1", len(results))
	}
	res := results[0].Result.(*Result)
	pass := results[0].Pass
	seen := 0
	for _, g := range res.Funcs {
		d, ok := g.Node.(*ast.FuncDecl)
		if !ok {
			continue
		}
		want := ""
		if d.Doc != nil {
			want = strings.TrimSpace(d.Doc.Text())
		}
		if want != "silent" && want != "recorded" {
			t.Errorf("%s: no mark", g.Name)
			continue
		}
		seen++
		if got := g.Flow.Silent; got != (want == "silent") {
			t.Errorf("%s: Silent = %v, want %s", g.Name, got, want)
		}
		for _, b := range g.Flow.Blocks {
			if g.Flow.Silent && b.Probed() {
				t.Errorf("%s: block %d of a silent function is probed", g.Name, b.Index)
			}
		}
		if d.Name.Name == "packs" {
			packed := false
			for _, b := range g.Flow.Blocks {
				packed = packed || b.Pack != nil
			}
			if !packed {
				t.Errorf("%s: its loop calls only a silent function but is not packed", g.Name)
			}
		}
	}
	if seen < 10 {
		t.Errorf("%d functions marked in %s, want more", seen, pass.Pkg.Path())
	}
}

// TestPackRange checks which range loops pack: testdata/src/packrange
// marks each function "packed" or "not packed" on the line above it.
func TestPackRange(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), Analyzer, "packrange")
	if len(results) != 1 {
		t.Fatalf("%d results, want 1", len(results))
	}
	seen := 0
	for _, g := range results[0].Result.(*Result).Funcs {
		d, ok := g.Node.(*ast.FuncDecl)
		if !ok || d.Doc == nil {
			continue
		}
		want := strings.TrimSpace(d.Doc.Text())
		if want != "packed" && want != "not packed" {
			t.Errorf("%s: no mark", g.Name)
			continue
		}
		seen++
		packed := false
		for _, b := range g.Flow.Blocks {
			packed = packed || b.Pack != nil && b.Pack.Kind == "range.loop"
		}
		if packed != (want == "packed") {
			t.Errorf("%s: a range loop packed = %v, want %s", g.Name, packed, want)
		}
	}
	if seen != 8 {
		t.Errorf("%d functions marked, want 8", seen)
	}
}
