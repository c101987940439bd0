package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLibraryGoroutines records testdata/httpstore, whose handlers net/http
// runs on goroutines of its own: each handler call is a goroutine of the
// trace from the handler's entry to its return, ended, named by what
// started it, the handler, and its place among the calls of it ("net/http
// handler (*store).incr #3"), so that two runs pair every one of them,
// where they all used to show "(did not end)" and pair by order of
// appearance. The callback of a time.AfterFunc is named by the function
// literal's line.
func TestLibraryGoroutines(t *testing.T) {
	t.Parallel()
	p := prepare(t, "httpstore", false)
	dir := t.TempDir()
	traces := []string{filepath.Join(dir, "run-1.dvt"), filepath.Join(dir, "run-2.dvt")}
	for _, tr := range traces {
		out := execProg(t, p.dir, p.bin, nil, "DIVERGO_TRACE="+tr)
		if !strings.Contains(out, "k0=6 k1=6") {
			t.Fatalf("the program printed:\n%s", out)
		}
	}
	r := readRun(t, traces[0], "")
	handlers := map[string]int{}
	callbacks := 0
	for _, g := range r.gs {
		if !g.Ended {
			t.Errorf("%s did not end", g.Path)
		}
		if rest, ok := strings.CutPrefix(g.Path, "net/http handler "); ok {
			if fn, _, ok := strings.Cut(rest, " #"); ok {
				handlers[fn]++
			}
		}
		if g.Path == "time.AfterFunc at main.go:81 #1" {
			callbacks++
		}
	}
	// 4 clients, 5 requests each: 3 incr and 2 get.
	if handlers["(*store).incr"] != 12 || handlers["(*store).get"] != 8 || callbacks != 1 {
		var paths []string
		for _, g := range r.gs {
			paths = append(paths, g.Path)
		}
		t.Errorf("handler goroutines %v and %d AfterFunc callbacks, want 12 of (*store).incr, 8 of (*store).get and 1; goroutines:\n%s",
			handlers, callbacks, strings.Join(paths, "\n"))
	}
	status, stdout, stderr := divergo(t, p.dir, "diff", traces[0], traces[1])
	if status != 0 && status != 1 {
		t.Fatalf("divergo diff: status %d\n%s%s", status, stdout, stderr)
	}
	if !strings.Contains(stdout, "none only in one run") && !strings.Contains(stdout, "the same") {
		t.Errorf("the handlers of two runs did not all pair:\n%.1500s", stdout)
	}
}
