package instrument

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotInModule: outside a module the error says so in one line and says
// what to do, instead of the go command's "outside main module or its
// selected dependencies".
func TestNotInModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	_, err := instrument(Config{Dir: dir, Env: append(testEnv(), "GO111MODULE=on")}, t.TempDir())
	if err == nil {
		t.Fatal("instrumenting outside a module succeeded")
	}
	msg := err.Error()
	if !strings.Contains(msg, "not in a Go module") || !strings.Contains(msg, "go mod init") || strings.Contains(msg, "\n") {
		t.Errorf("error = %q, want one line saying the directory is not in a module and to run go mod init", msg)
	}
}

// TestGitignore: the side directory ignores itself, so that a user who
// commits with git add -A does not commit generated copies.
func TestGitignore(t *testing.T) {
	out := filepath.Join(t.TempDir(), OutDir)
	if _, err := write(Module{Dir: t.TempDir(), Path: "example.com/m"}, out, []byte("{}"), nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\n*\n") {
		t.Errorf(".gitignore = %q, want it to ignore everything", data)
	}
}

// TestReuse: a second Instrument with nothing changed takes .divergo as
// the first wrote it, and so does one for the packages a target links
// when .divergo holds them and more; an edit, or other patterns,
// instrument again.
func TestReuse(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	dir := t.TempDir()
	for name, data := range map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.21\n",
		"main.go":  "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { go lib.F(); lib.F() }\n",
		"lib/l.go": "package lib\n\nimport \"sync\"\n\nvar mu sync.Mutex\n\n// F locks.\nfunc F() { mu.Lock(); mu.Unlock() }\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	runCfg := func(cfg Config) *Result {
		t.Helper()
		cfg.Dir, cfg.Env = dir, testEnv()
		res, err := Instrument(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	run := func(patterns ...string) *Result {
		t.Helper()
		return runCfg(Config{Patterns: patterns})
	}
	first := run("./...")
	if first.Reused {
		t.Fatal("the first run reused a .divergo that was not there")
	}
	again := run("./...")
	if !again.Reused || again.Files != first.Files || again.Packages != first.Packages || len(again.Graph.Blocks) != len(first.Graph.Blocks) {
		t.Errorf("second run: reused %v, %d files of %d packages, %d blocks; want reused, %d of %d, %d",
			again.Reused, again.Files, again.Packages, len(again.Graph.Blocks), first.Files, first.Packages, len(first.Graph.Blocks))
	}
	if res := run("example.com/m", "example.com/m/lib"); !res.Reused {
		t.Error("the packages ./... names, named one by one, did not reuse its copies")
	}
	// run and test name what their target links: the copies of ./...
	// build the same binary.
	if res := runCfg(Config{Patterns: []string{"example.com/m/lib"}, Linked: true}); !res.Reused {
		t.Error("the packages a target links, among those of ./..., did not reuse its copies")
	}
	if res := run("."); res.Reused {
		t.Error("a pattern naming fewer packages reused the copies of ./...")
	}
	if res := runCfg(Config{Patterns: []string{"./..."}, Linked: true}); res.Reused {
		t.Error("the copies of one package were taken for the two of ./...")
	}
	run("./...")
	if err := os.WriteFile(filepath.Join(dir, "lib", "l.go"), []byte("package lib\n\n// F does nothing.\nfunc F() {}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if res := run("./..."); res.Reused {
		t.Error("an edited file reused the copies of its old text")
	}
}
