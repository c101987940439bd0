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

// TestTraceAtLinkRefused: with a symbolic link at the trace path
// (divergo-traces/run-1.dvt -> elsewhere/keep.txt, or DIVERGO_TRACE naming
// one) the program runs unrecorded and the file the link points to is left
// as it was, where it used to be overwritten by the trace.
func TestTraceAtLinkRefused(t *testing.T) {
	path := startSession(t)
	keep := filepath.Join(t.TempDir(), "keep.txt")
	if err := os.WriteFile(keep, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(keep, path); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	g := Main(testGraphJSON(t), bMain)
	g.B(bDone)
	g.Exit(bMain)
	if data, err := os.ReadFile(keep); err != nil || string(data) != "keep me\n" {
		t.Errorf("the link's target now holds %q (%v)", data, err)
	}
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is gone: %v", err)
	}
}
