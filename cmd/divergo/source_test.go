package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// TestSourceRoot: the reports find the module the traces name from
// anywhere: above a trace, above the working directory, or as -src says;
// a module of another path above the working directory is not it.
func TestSourceRoot(t *testing.T) {
	mod, other := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(mod, "go.mod"), "module \"example.com/m\" // quoted, with a comment\n\ngo 1.21\n")
	writeFile(t, filepath.Join(other, "go.mod"), "module example.com/other\n")
	if root, path := enclosingModule(filepath.Join(mod, "a", "b")); root != mod || path != "example.com/m" {
		t.Errorf("enclosingModule = %q, %q; want %q, example.com/m", root, path, mod)
	}
	tr := filepath.Join(mod, "divergo-traces", "run-1.dvt")
	writeTraceOf(t, tr, "example.com/m")
	t.Chdir(other)
	if got := sourceRoot("", tr); got != mod {
		t.Errorf("from another module: %q, want the module above the trace, %q", got, mod)
	}
	if got := sourceRoot(""); got != other {
		t.Errorf("without traces: %q, want the working directory's module %q", got, other)
	}
	elsewhere := filepath.Join(t.TempDir(), "run-1.dvt")
	writeTraceOf(t, elsewhere, "example.com/m")
	if got := sourceRoot("", elsewhere); got != "" {
		t.Errorf("a trace moved out of its module, run from another: %q, want none", got)
	}
	if got := sourceRoot("some/dir", elsewhere); !filepath.IsAbs(got) || !strings.HasSuffix(got, filepath.Join("some", "dir")) {
		t.Errorf("-src some/dir: %q", got)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o666); err != nil {
		t.Fatal(err)
	}
}

// writeTraceOf writes a trace with no goroutine of a program of module.
func writeTraceOf(t *testing.T, path, module string) {
	t.Helper()
	g := &tbb.Graph{Module: module}
	data, err := tbb.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	w, err := trace.NewWriter(&file, trace.Header{Program: "prog", Start: time.Unix(0, 0), Graph: data, Hash: g.Hash})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, file.String())
}
