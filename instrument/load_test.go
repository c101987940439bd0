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
