package flow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// stdPackages are parsed by TestStdUniquePaths: chosen for gotos, labels,
// fallthrough, select and big switches, and small enough to run in seconds.
var stdPackages = []string{
	"strconv", "regexp/syntax", "go/scanner", "go/parser", "text/template/parse",
	"compress/flate", "net/textproto", "sync", "time", "encoding/json", "fmt",
}

// TestStdUniquePaths builds every function of some std packages, with no
// TCPs and with every TCP, and checks the invariants of Check: in
// particular that the path between two probed blocks through implied ones
// is unique.
func TestStdUniquePaths(t *testing.T) {
	fset := token.NewFileSet()
	configs := []struct {
		name      string
		o         Oracle
		mayReturn func(*ast.CallExpr) bool
	}{
		{"none", nil, nil},
		{"all", allOracle{fset}, nil},
		{"all+noreturn", allOracle{fset}, mayReturnTest},
	}
	funcs := 0
	probeable, probed := map[string]int{}, map[string]int{} // by config
	for _, pkg := range stdPackages {
		dir := filepath.Join(runtime.GOROOT(), "src", filepath.FromSlash(pkg))
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatalf("reading %s: %v", dir, err)
		}
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			path := filepath.Join(dir, e.Name())
			file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatalf("parsing %s: %v", path, err)
			}
			for _, body := range funcBodies(file) {
				funcs++
				for _, c := range configs {
					f := Build(fset, body, c.o, c.mayReturn)
					if err := Check(f); err != nil {
						t.Errorf("%s (%s): %v\n%s", fset.Position(body.Pos()), c.name, err, f.Format(fset))
					}
					checkPostDom(t, fset, f)
					for _, b := range f.Blocks {
						// A block the minimizer implied keeps its
						// probe position.
						if b.Probe.Pos.IsValid() {
							probeable[c.name]++
						}
						if b.Probed() {
							probed[c.name]++
						}
					}
				}
			}
		}
	}
	t.Logf("%d functions", funcs)
	for _, c := range configs {
		t.Logf("%s: %d of %d blocks that could carry a probe keep it", c.name, probed[c.name], probeable[c.name])
	}
	// Straight-line code keeps its probes (calls), but branches without
	// calls and the blocks after loops lose theirs.
	if n := probed["none"]; n == 0 || n > probeable["none"]*9/10 {
		t.Errorf("with no TCPs, %d of %d blocks keep their probe; the minimizer does little", n, probeable["none"])
	}
	if funcs < 1000 {
		t.Errorf("only %d functions built; the std packages moved?", funcs)
	}
}

// checkPostDom checks that each TCP's CP really post-dominates its block:
// every path from the block's successors to an exit passes the CP.
func checkPostDom(t *testing.T, fset *token.FileSet, f *Func) {
	t.Helper()
	for _, b := range f.Blocks {
		if b.TCP == nil || b.CP == nil {
			continue
		}
		// Search from b avoiding the CP: no Exit block may be reached.
		seen := map[*Block]bool{b.CP: true}
		stack := append([]*Block(nil), b.Succs...)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[x] {
				continue
			}
			seen[x] = true
			if x.Exit {
				t.Errorf("%s: block %d reaches an exit at block %d without passing its CP %d\n%s",
					fset.Position(b.Pos), b.Index, x.Index, b.CP.Index, f.Format(fset))
				return
			}
			stack = append(stack, x.Succs...)
		}
	}
}
