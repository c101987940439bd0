package runtime

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestReplaceTrace runs twice with the same trace path: the second trace
// replaces the first, and nothing else is left in the directory.
func TestReplaceTrace(t *testing.T) {
	path := startSession(t)
	if err := os.WriteFile(path, bytes.Repeat([]byte("old trace "), 1<<17), 0o644); err != nil {
		t.Fatal(err)
	}
	g := Main(testGraphJSON(t), bMain)
	g.B(bDone)
	g.Exit(bMain)
	r, gs := readTrace(t, path)
	if r.Truncated() || gs["main"].info.Blocks != 2 {
		t.Errorf("truncated %v, main %+v", r.Truncated(), gs["main"].info)
	}
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if e.Name() != filepath.Base(trace.CPUProfileBeside(path)) {
			names = append(names, e.Name())
		}
	}
	if len(names) != 1 || names[0] != filepath.Base(path) {
		t.Errorf("directory holds %v, want only the trace and its CPU samples", ents)
	}
}
