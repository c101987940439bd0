package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/trace"
)

// TestGoInSelectLoop: main is a server loop that starts a handler for each
// request in one case of a select and counts ticks in the other
// (testdata/selectspawn); runs under different seeds take the cases in
// different orders. Two runs are kept where some iteration of the loop
// started a handler in both, but of different requests: one run had
// taken the request case once more before, so the go statement's ordinal
// differed there. diff used to report a hole at every such spawn. Now
// the runs part at the select (and at the branches on a closed channel)
// only, and each handler is paired with the other run's handler of the
// same request: handle loops over its request's work, so handlers of
// different requests execute different numbers of blocks.
func TestGoInSelectLoop(t *testing.T) {
	t.Parallel()
	p := prepare(t, "selectspawn", false)
	type rec struct {
		path   string
		spawns []uint32 // per iteration of main's loop: the handler's ordinal, 0 for none
	}
	var runs []rec
	var a, b string
	for seed := 1; seed <= 30 && a == ""; seed++ {
		tr, out := p.runSeed(t, seed)
		if out != "handled 6 ticks 3\n" {
			t.Fatalf("seed %d: output %q", seed, out)
		}
		r := rec{path: tr, spawns: loopSpawns(t, readRun(t, tr, out))}
		for _, prev := range runs {
			if shifted(prev.spawns, r.spawns) {
				a, b = prev.path, r.path
				break
			}
		}
		runs = append(runs, r)
	}
	if a == "" {
		t.Fatalf("in 30 runs, no two started handlers of different requests in the same iteration")
	}

	status, out, errs := divergo(t, p.dir, "diff", "-json", a, b)
	if status != 1 {
		t.Fatalf("diff -json: status %d, want 1 (the runs differ)\n%s", status, errs)
	}
	var rep compare.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("diff -json: %v\n%s", err, out)
	}
	for _, s := range rep.Sections {
		if s.Unflagged || s.Spawn != "main" {
			t.Errorf("section in %s at %s (%s), unflagged %v: want only flagged sections of main", s.Spawn, s.TCP.Pos, s.TCP.Kind, s.Unflagged)
		}
	}
	if rep.Summary.Unflagged != 0 || rep.Summary.OnlyA+rep.Summary.OnlyB != 0 {
		t.Errorf("%d unflagged sections, %d goroutines in one run only; want none", rep.Summary.Unflagged, rep.Summary.OnlyA+rep.Summary.OnlyB)
	}
	handlers := map[int64]bool{}
	for _, pr := range rep.Goroutines.Matched {
		if !strings.Contains(pr.Spawn, "@main.go:58#") { // main/handle@main.go:58#k
			continue
		}
		handlers[pr.BlocksA] = true
		if pr.BlocksA != pr.BlocksB {
			t.Errorf("%s: %d blocks in run A, %d in run B: handlers of different requests paired", pr.Spawn, pr.BlocksA, pr.BlocksB)
		}
	}
	if len(handlers) != 6 {
		t.Errorf("%d handlers with distinct block counts, want 6 (one per request)", len(handlers))
	}

	_, text, _ := divergo(t, p.dir, "diff", a, b)
	if !strings.Contains(text, "main.go:51  select") || strings.Contains(text, "hole") {
		t.Errorf("diff does not name the select first, or names a hole:\n%s", text)
	}
	status, out, errs = checkParted(t, p.dir, 8, ".")
	if status != 0 || !strings.Contains(out, "\nno hole: ") {
		t.Errorf("check: status %d, want 0 and no hole\n%s%s", status, out, errs)
	}
}

// loopSpawns lists, per iteration of main's loop (each select), the
// ordinal of the handler it started, 0 when it started none.
func loopSpawns(t *testing.T, r *run) []uint32 {
	t.Helper()
	var out []uint32
	for _, g := range r.gs {
		if g.Path != "main" {
			continue
		}
		for _, ev := range g.evs {
			switch {
			case ev.Kind == trace.EvSync && ev.Op == trace.OpSelect:
				out = append(out, 0)
			case ev.Kind == trace.EvSpawn && len(out) > 0:
				out[len(out)-1] = ev.Ordinal
			}
		}
		return out
	}
	t.Fatal("no main goroutine")
	return nil
}

// shifted reports whether some iteration started a handler in both runs,
// with different ordinals.
func shifted(x, y []uint32) bool {
	for i := range min(len(x), len(y)) {
		if x[i] != 0 && y[i] != 0 && x[i] != y[i] {
			return true
		}
	}
	return false
}
