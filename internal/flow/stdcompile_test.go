package flow

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// stdCompilePackages are instrumented by TestStdProbesCompile: real code
// with gotos, labels, fallthrough and functions ending in terminating
// statements.
var stdCompilePackages = []string{"strconv", "regexp/syntax", "text/template/parse", "go/scanner", "compress/flate", "encoding/json"}

// TestStdProbesCompile inserts a statement at every probe point of some std
// packages and type-checks them.
func TestStdProbesCompile(t *testing.T) {
	imp := importer.Default()
	for _, pkg := range stdCompilePackages {
		dir := filepath.Join(runtime.GOROOT(), "src", filepath.FromSlash(pkg))
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		var files []*ast.File
		probesN := 0
		for _, e := range ents {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
				continue
			}
			path := filepath.Join(dir, name)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			pfset := token.NewFileSet()
			file, err := parser.ParseFile(pfset, path, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			eds := probeEdits(t, pfset, file, allOracle{pfset}, nil, "_ = 0")
			probesN += len(eds)
			out, err := parser.ParseFile(fset, path, apply(src, eds), 0)
			if err != nil {
				t.Fatalf("%s: instrumented file does not parse: %v", pkg, err)
			}
			files = append(files, out)
		}
		conf := types.Config{Importer: imp, Error: func(err error) { t.Errorf("%s: %v", pkg, err) }}
		conf.Check(pkg, fset, files, nil)
		t.Logf("%s: %d files, %d probes", pkg, len(files), probesN)
	}
}
