package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestKeepPlaceOwnDirectory: each invocation keeps its runs in a
// directory of its own, so that what an earlier report's commands name
// is still there after the next; the same runs (-explain of them) keep
// theirs where the invocation did, and latest links to the newest.
func TestKeepPlaceOwnDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	runs := func(output string) []*runRecord {
		var recs []*runRecord
		for k := range 2 {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "run.dvt"), "trace")
			recs = append(recs, &runRecord{Package: "example.com/p", Run: k + 1, Seed: int64(k + 1), Output: output, Trace: "run.dvt", dir: dir})
		}
		return recs
	}
	first := runs("--- FAIL: TestX (0.01s)\n")
	pl := newKeepPlace(first)
	d1, err := pl.claim()
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := pl.claim(); again != d1 {
		t.Errorf("the same invocation claimed %s, then %s", d1, again)
	}
	kept := filepath.Join(d1, "TestX", "fail-1.sched")
	writeFile(t, kept, "schedule\n")

	// The same runs, read back in another order: the same directory.
	reread := []*runRecord{first[1], first[0]}
	if d, err := newKeepPlace(reread).claim(); err != nil || d != d1 {
		t.Errorf("the same runs claimed %s (%v), want %s", d, err, d1)
	}
	// Another invocation: another directory, the first left as it was.
	d2, err := newKeepPlace(runs("--- FAIL: TestX (0.02s)\n")).claim()
	if err != nil {
		t.Fatal(err)
	}
	if d2 == d1 || filepath.Dir(d2) != filepath.Dir(d1) {
		t.Errorf("the next invocation claimed %s after %s: want another directory beside it", d2, d1)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("the next invocation removed the first one's runs: %v", err)
	}
	if to, err := os.Readlink(filepath.Join(keepDir, keepLatest)); err != nil || to != filepath.Base(d2) {
		t.Errorf("latest links to %q (%v), want %s", to, err, filepath.Base(d2))
	}
}
