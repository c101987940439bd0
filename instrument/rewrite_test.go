package instrument

import (
	"bytes"
	"flag"
	"go/ast"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/divergo/divergo/internal/syncop"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fakePlan plans every function of pkg the way the analyzer would, with a
// simpler partition: the entry block holds the body's statements, and
// every if, loop or case body is a block probed after its '{' or ':'; an
// unlabeled loop also starts a block just before it, a labeled statement
// other than a loop just after its label, an if a block just after it, and
// every index with a variable index is an index TCP.
func fakePlan(pkg *packages.Package) []*Func {
	var funcs []*Func
	var next uint32
	var cur *Func
	block := func(mode Mode, pos token.Pos, nodes []ast.Stmt) {
		b := Block{ID: next, Mode: mode, Pos: pos}
		for _, s := range nodes {
			b.Nodes = append(b.Nodes, s)
		}
		next++
		cur.Blocks = append(cur.Blocks, b)
	}
	var fn func(node ast.Node, body *ast.BlockStmt, main bool)
	fn = func(node ast.Node, body *ast.BlockStmt, main bool) {
		saved := cur
		cur = &Func{Node: node, Entry: next, Main: main}
		funcs = append(funcs, cur)
		block(Open, body.Lbrace, body.List)
		labeled := map[ast.Stmt]bool{}
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.LabeledStmt:
				labeled[n.Stmt] = true
				switch n.Stmt.(type) {
				case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				default:
					block(Before, n.Stmt.Pos(), nil) // after the label, as flow does
				}
			case *ast.FuncLit:
				fn(n, n.Body, false)
				return false
			case *ast.IfStmt:
				block(Open, n.Body.Lbrace, n.Body.List)
				block(After, n.End(), nil)
			case *ast.ForStmt:
				if !labeled[n] {
					block(Before, n.Pos(), nil)
				}
				block(Open, n.Body.Lbrace, n.Body.List)
			case *ast.RangeStmt:
				block(Open, n.Body.Lbrace, n.Body.List)
			case *ast.CaseClause:
				block(Open, n.Colon, n.Body)
			case *ast.CommClause:
				block(Open, n.Colon, n.Body)
			case *ast.IndexExpr:
				if tv, ok := pkg.TypesInfo.Types[n.Index]; ok && tv.IsValue() && tv.Value == nil {
					b := &cur.Blocks[len(cur.Blocks)-1]
					b.Indexes = append(b.Indexes, n.Index.Pos())
				}
			}
			return true
		})
		cur = saved
	}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			if d, ok := d.(*ast.FuncDecl); ok && d.Body != nil {
				fn(d, d.Body, pkg.Name == "main" && d.Name.Name == "main" && d.Recv == nil)
			}
		}
	}
	// Sites as the analyzer lists them, numbered from 100 so that the
	// events' site ids cannot be taken for block ids.
	site := uint32(100)
	for _, f := range funcs {
		f.Sites = map[SiteKey]uint32{}
		var body *ast.BlockStmt
		switch n := f.Node.(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		}
		for _, op := range syncop.Find(body, pkg.TypesInfo, pkg.Types) {
			f.Sites[SiteKey{op.Pos, op.Op}] = site
			site++
		}
	}
	return funcs
}

// testEnv is the environment of the go commands the tests run: offline,
// no workspace, this toolchain.
func testEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=")
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o666); err != nil {
		t.Fatal(err)
	}
}

// fakeRecorder is the import path of the fake runtime TestRewrite's
// programs require.
const fakeRecorder = "github.com/divergo/divergo/runtime"

// TestRewrite instruments each program of testdata/rewrite against a fake
// runtime that prints every goroutine's events, builds it with the
// overlay, runs it, and compares the events and the generated source with
// golden files. The program's own output must not change.
func TestRewrite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	tmp := t.TempDir()
	copyFile(t, "testdata/fakeruntime/go.mod", filepath.Join(tmp, "dvg", "go.mod"))
	copyFile(t, "testdata/fakeruntime/runtime/rt.go", filepath.Join(tmp, "dvg", "runtime", "rt.go"))
	names, err := filepath.Glob("testdata/rewrite/*/main.go")
	if err != nil || len(names) == 0 {
		t.Fatalf("no test programs: %v", err)
	}
	for _, name := range names {
		dir := filepath.Dir(name)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			mod := filepath.Join(tmp, filepath.Base(dir))
			copyFile(t, name, filepath.Join(mod, "main.go"))
			gomod := "module example.com/prog\n\ngo 1.26\n\nrequire github.com/divergo/divergo v0.0.0\n\nreplace github.com/divergo/divergo => ../dvg\n"
			if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o666); err != nil {
				t.Fatal(err)
			}
			orig, _ := os.ReadFile(filepath.Join(mod, "main.go"))

			plain := run(t, mod, "")
			// Syntax and types of the program; its imports from export
			// data, which the rewrite does not look into.
			cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo, Dir: mod, Env: testEnv()}
			pkgs, err := packages.Load(cfg, ".")
			if err != nil || packages.PrintErrors(pkgs) > 0 {
				t.Fatalf("loading: %v", err)
			}
			p := pkgs[0]
			res, err := Write(Module{Dir: mod, Path: "example.com/prog", GoVersion: "1.26", Recorder: fakeRecorder}, []byte(`{"fake":true}`), []*Package{{
				Path: p.PkgPath, Name: p.Name, Dir: mod, Fset: p.Fset, Files: p.Syntax,
				Info: p.TypesInfo, Types: p.Types, Funcs: fakePlan(p),
			}})
			if err != nil {
				t.Fatal(err)
			}
			var warnings strings.Builder
			for _, w := range res.Warnings {
				warnings.WriteString(strings.ReplaceAll(w, mod, "$MOD") + "\n")
				t.Logf("warning: %s", w)
				if strings.Contains(w, "no site") {
					t.Errorf("the rewriter wraps an operation internal/syncop does not list: %s", w)
				}
			}
			gen, err := os.ReadFile(filepath.Join(mod, OutDir, "main.go"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(gen, []byte(Header+"\n")) {
				t.Errorf("generated file does not start with the header")
			}
			events := run(t, mod, res.Overlay)
			// With recording off, every function runs the copy of its
			// original body: the program prints what it printed, and the
			// fake runtime has nothing to dump.
			if off := run(t, mod, res.Overlay, "FAKE_DIVERGO_OFF=1"); off != plain {
				t.Errorf("output with recording off differs from the plain program's:\nplain:\n%s\noff:\n%s", plain, off)
			}
			if now, _ := os.ReadFile(filepath.Join(mod, "main.go")); !bytes.Equal(now, orig) {
				t.Errorf("the user's main.go changed")
			}
			// The program prints the same; the fake runtime adds its dump.
			if !strings.HasPrefix(events, plain) && !strings.Contains(plain, "exit status") {
				t.Errorf("output changed:\nplain:\n%s\ninstrumented:\n%s", plain, events)
			}
			genText := strings.ReplaceAll(string(gen), mod, "$MOD")
			golden(t, filepath.Join(dir, "main.go.golden"), genText)
			golden(t, filepath.Join(dir, "events.golden"), events)
			golden(t, filepath.Join(dir, "warnings.golden"), warnings.String())
		})
	}
}

// run builds the module at dir (with the overlay if not "") and runs it
// with env added to its environment, returning its standard output.
func run(t *testing.T, dir, overlay string, env ...string) string {
	t.Helper()
	bin := filepath.Join(dir, "prog")
	args := []string{"build", "-o", bin}
	if overlay != "" {
		args = append(args, "-overlay="+overlay)
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir, cmd.Env = dir, testEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd = exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		stdout.WriteString("exit status " + strings.TrimPrefix(ee.Error(), "exit status ") + "\n")
	} else if err != nil {
		t.Fatalf("running: %v\n%s", err, stderr.Bytes())
	}
	return stdout.String()
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}
