package instrument

import (
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestCorpus rewrites real code, this repository's own packages (all but
// the runtime and what it imports, which would make a cycle), with a plan
// that probes every body and treats every variable index as a TCP, and
// checks that the result builds and vets. It catches rewrites that are
// right on small programs and wrong on real ones (generics, closures,
// labels, embedded locks).
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the repository")
	}
	patterns := []string{"../compare", "../waittime", "../analyzer", "../internal/flow", "../internal/load", "../cmd/divergo"}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Env: testEnv()}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var ps []*Package
	for _, p := range pkgs {
		ps = append(ps, &Package{
			Path: p.PkgPath, Name: p.Name, Dir: filepath.Dir(p.GoFiles[0]), Fset: p.Fset,
			Files: p.Syntax, Info: p.TypesInfo, Types: p.Types, Funcs: fakePlan(p),
		})
	}
	res, err := write(root, t.TempDir(), []byte(`{}`), ps)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files instrumented, %d warnings", res.Files, len(res.Warnings))
	for _, w := range res.Warnings {
		t.Log(w)
	}
	if res.Files < 20 {
		t.Errorf("only %d files instrumented", res.Files)
	}
	for _, args := range [][]string{{"build"}, {"vet", "-printf=false", "-unusedresult=false"}} {
		cmd := exec.Command("go", append(append(args, "-overlay="+res.Overlay), patterns...)...)
		cmd.Env = testEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s of the rewritten packages: %v\n%s", args[0], err, out)
		}
	}
}
