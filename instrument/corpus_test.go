package instrument

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus instruments real code, this repository's own packages (all
// but the runtime and what it imports, which would make a cycle), through
// the whole pipeline (load, analyzer, graph, flow plans, rewrite), and
// checks that the result builds and vets. It catches rewrites that are
// right on small programs and wrong on real ones (generics, closures,
// labels, embedded locks).
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the repository")
	}
	patterns := []string{"./compare", "./waittime", "./internal/flow", "./internal/load", "./cmd/divergo"}
	// A snapshot: others may be editing the repository meanwhile.
	root := t.TempDir()
	if err := copyTree("..", root); err != nil {
		t.Fatal(err)
	}
	res, err := instrument(Config{Dir: root, Patterns: patterns, Env: testEnv()}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files instrumented, %d warnings", res.Files, len(res.Warnings))
	for _, w := range res.Warnings {
		t.Log(w)
		if strings.Contains(w, "no site") {
			t.Errorf("the rewriter wraps an operation internal/syncop does not list: %s", w)
		}
	}
	if res.Files < 20 {
		t.Errorf("only %d files instrumented", res.Files)
	}
	for _, args := range [][]string{{"build"}, {"vet", "-printf=false", "-unusedresult=false"}} {
		cmd := exec.Command("go", append(append(args, "-overlay="+res.Overlay), patterns...)...)
		cmd.Dir, cmd.Env = root, testEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s of the rewritten packages: %v\n%s", args[0], err, out)
		}
	}
}

// copyTree copies the Go module at src to dst, without .git and .divergo.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == OutDir {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o777)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o666)
	})
}
