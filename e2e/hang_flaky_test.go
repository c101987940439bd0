package e2e

import (
	"encoding/json"
	"testing"
)

// TestFlakyHangExplained runs divergo test on testdata/hang, whose
// TestLimiterWorkers hangs in wg.Wait until -test.timeout when a worker
// misses the other's wakeup (a Release between its Unlock and its
// receive). The report names both waits left blocked in the failing runs
// and, for each, what ended it in passing runs: the other worker's
// wg.Done for the test's wg.Wait, and Release's send for the worker's
// receive, which never came in the failing runs.
func TestFlakyHangExplained(t *testing.T) {
	t.Parallel()
	dir := setup(t, "hang", false)
	type hang struct {
		Goroutine, Pos, Op string
		Runs               int
		PassRuns           int `json:"pass_runs"`
		Released           *struct {
			Goroutine, Pos, Op string
			Never              int
		}
	}
	var rep struct {
		Flaky []struct {
			Name     string
			Failures int
			Hangs    []hang
		}
	}
	// A hang needs a perturbed run whose delay falls in the receive's
	// window: a few in 16 runs; other seeds when these found none.
	args := []string{"test", "-n", "16", "-sched", "delays", "-run", "^TestLimiterWorkers$", "-json", ".", "--", "-test.timeout=2s"}
	var stdout string
	for _, seed := range []string{"1", "101", "201"} {
		status, out, stderr := divergo(t, dir, append([]string{args[0], "-seed", seed}, args[1:]...)...)
		if status != 0 && status != 1 {
			t.Fatalf("divergo test: status %d\n%s\n%s", status, out, stderr)
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("divergo test -json: %v\n%s", err, out)
		}
		stdout = out
		if len(rep.Flaky) > 0 {
			break
		}
	}
	if len(rep.Flaky) != 1 {
		t.Fatalf("TestLimiterWorkers not found flaky in 48 runs:\n%s", stdout)
	}
	hangs := map[string]hang{} // by where it blocked
	for _, h := range rep.Flaky[0].Hangs {
		hangs[h.Pos] = h
	}
	for _, want := range []struct{ at, op, releasedAt, releasedOp string }{
		{"gate_test.go:26", "wg.wait", "gate_test.go:20", "wg.done"},
		{"gate.go:31", "recv", "gate.go:40", "send"},
	} {
		h, ok := hangs[want.at]
		switch {
		case !ok:
			t.Errorf("no hang at %s; hangs %+v", want.at, rep.Flaky[0].Hangs)
			continue
		case h.Op != want.op || h.Runs != rep.Flaky[0].Failures || h.PassRuns != 0:
			t.Errorf("hang at %s: %+v, want %s in every failing run (%d) and in no passing one", want.at, h, want.op, rep.Flaky[0].Failures)
		case h.Released == nil || h.Released.Pos != want.releasedAt || h.Released.Op != want.releasedOp:
			t.Errorf("hang at %s released by %+v, want the %s at %s", want.at, h.Released, want.releasedOp, want.releasedAt)
		}
	}
	if h := hangs["gate.go:31"]; h.Released != nil && h.Released.Never != h.Runs {
		t.Errorf("Release's send came in %d of the %d failing runs that hung in the receive, want none", h.Runs-h.Released.Never, h.Runs)
	}

}
