package flow

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// insertion is text to insert at a byte offset of a file.
type insertion struct {
	off  int
	text string
}

// probeEdits returns the insertions that put stmt at every probe point of
// every function of file, as the instrumenter would.
func probeEdits(t *testing.T, fset *token.FileSet, file *ast.File, o Oracle, mayReturn func(*ast.CallExpr) bool, stmt string) []insertion {
	t.Helper()
	var eds []insertion
	for _, body := range funcBodies(file) {
		f := Build(fset, body, o, mayReturn)
		if err := Check(f); err != nil {
			t.Errorf("%s: %v\n%s", fset.Position(body.Pos()), err, f.Format(fset))
		}
		for _, b := range f.Blocks {
			off := fset.Position(b.Probe.Pos).Offset
			switch b.Probe.Mode {
			case Open:
				eds = append(eds, insertion{off + 1, stmt + ";"})
			case Before:
				eds = append(eds, insertion{off, stmt + ";"})
			case After:
				eds = append(eds, insertion{off, ";" + stmt})
			}
		}
	}
	return eds
}

// apply performs the insertions on src, in offset order.
func apply(src []byte, eds []insertion) []byte {
	sort.SliceStable(eds, func(i, j int) bool { return eds[i].off < eds[j].off })
	var out []byte
	last := 0
	for _, e := range eds {
		out = append(out, src[last:e.off]...)
		out = append(out, e.text...)
		last = e.off
	}
	return append(out, src[last:]...)
}

func typeCheck(fset *token.FileSet, name string, src []byte) error {
	file, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return err
	}
	conf := types.Config{Importer: importer.Default()}
	_, err = conf.Check("p", fset, []*ast.File{file}, nil)
	return err
}

// TestProbesCompile inserts a statement at every probe point of the
// testdata programs and checks that the result still type-checks: no probe
// lands where Go forbids a statement, after a terminating statement that
// ends a function with results, or between a label and its loop.
func TestProbesCompile(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "probes", "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata programs: %v", err)
	}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name      string
			oracle    func(*token.FileSet) Oracle
			mayReturn func(*ast.CallExpr) bool
		}{
			{"none", func(*token.FileSet) Oracle { return nil }, nil},
			{"all", func(fset *token.FileSet) Oracle { return allOracle{fset} }, mayReturnTest},
		} {
			t.Run(filepath.Base(path)+"/"+tc.name, func(t *testing.T) {
				fset := token.NewFileSet()
				if err := typeCheck(fset, path, src); err != nil {
					t.Fatalf("original does not type-check: %v", err)
				}
				file, err := parser.ParseFile(fset, path, src, 0)
				if err != nil {
					t.Fatal(err)
				}
				eds := probeEdits(t, fset, file, tc.oracle(fset), tc.mayReturn, "_ = 0")
				out := apply(src, eds)
				if err := typeCheck(token.NewFileSet(), path, out); err != nil {
					t.Errorf("with %d probes: %v\n%s", len(eds), err, numbered(out))
				}
			})
		}
	}
}

func numbered(src []byte) string {
	var sb strings.Builder
	for i, l := range strings.Split(string(src), "\n") {
		sb.WriteString(strings.Repeat(" ", 4-len(itoa(i+1))) + itoa(i+1) + " " + l + "\n")
	}
	return sb.String()
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
