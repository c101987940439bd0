package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceCap runs a binary that writes its trace without end (this
// test binary, as TestTraceCapWriter) under a cap of 1 MB: the run is
// stopped, its record says why, and the trace is gone.
func TestTraceCap(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rec := &runRecord{Package: "example.com/big", Runs: 2, Run: 1, Trace: "run-1.dvt", dir: dir}
	env := []string{"DIVERGO_TRACE=" + rec.tracePath(), "DIVERGO_TEST_TRACE_WRITER=1"}
	if err := rec.runCapped(self, []string{"-test.run=^TestTraceCapWriter$"}, dir, env, 1<<20); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Died, "trace passed the cap of 1 MB") {
		t.Errorf("died %q, want the cap named", rec.Died)
	}
	if _, err := os.Stat(rec.tracePath()); !os.IsNotExist(err) {
		t.Errorf("the trace over the cap is still there: %v", err)
	}
	recs, err := readRecords(dir)
	if err != nil || len(recs) != 1 || recs[0].Died != rec.Died {
		t.Errorf("the record read back: %v, %v", recs, err)
	}
}

// TestTraceCapWriter is TestTraceCap's child: it writes to DIVERGO_TRACE
// until it is stopped.
func TestTraceCapWriter(t *testing.T) {
	if os.Getenv("DIVERGO_TEST_TRACE_WRITER") == "" {
		t.Skip("run by TestTraceCap")
	}
	f, err := os.Create(filepath.Clean(os.Getenv("DIVERGO_TRACE")))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			t.Fatal(err)
		}
	}
}
