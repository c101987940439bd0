package runtime

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
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
	if len(ents) != 1 || ents[0].Name() != filepath.Base(path) {
		t.Errorf("directory holds %v, want only the trace", ents)
	}
}
