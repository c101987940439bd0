package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/divergo/divergo/compare"
)

// lockerLines returns the lines of testdata/condlocker's two locks taken
// through a sync.Locker: the mutex count is handed, and the Cond's c.L.
func lockerLines(t *testing.T) (count, cond int) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "condlocker", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		switch strings.TrimSpace(l) {
		case "l.Lock()":
			count = i + 1
		case "t.c.L.Lock()":
			cond = i + 1
		}
	}
	if count == 0 || cond == 0 {
		t.Fatal("testdata/condlocker/main.go has no l.Lock() or t.c.L.Lock() line")
	}
	return count, cond
}

// TestLockerCheck: the workers of testdata/condlocker take their locks
// through sync.Lockers, in blocks that decide nothing (count's only block,
// worker's only block), and in another order in practically every pair of
// runs. The runtime records those acquisitions and their tickets as it
// does a direct Mutex.Lock's, so the analyzer must mark them as lock
// change points: before it did, check called both blocks holes, diff
// reported each worker's whole body as a hole whose two sides "went
// straight on", and the loop where the runs really parted was inside it
// (the context package's ExampleAfterFunc_cond, docs/REALPROGRAMS.md). Now
// there is no hole, the lock order is an annotation at the two Lock lines,
// and the runs part at wait's loop only.
func TestLockerCheck(t *testing.T) {
	t.Parallel()
	countLine, condLine := lockerLines(t)
	dir := setup(t, "condlocker", false)
	traces := filepath.Join(dir, "traces")
	status, out, errs := checkParted(t, dir, 10, "-o", traces, ".")
	if status != 0 {
		t.Fatalf("check: status %d, want 0\n%s%s", status, out, errs)
	}
	if !strings.Contains(out, "\nno hole: ") || strings.Contains(out, " hole: runs parted") {
		t.Errorf("check reports unflagged divergences:\n%s", out)
	}
	// Not vacuous: the runs took the locks in other orders.
	if !regexp.MustCompile(`(?m)^lock order differed from run 1 in \d+ runs`).MatchString(out) {
		t.Errorf("check saw no other lock order in 10 runs:\n%s", out)
	}

	// diff of run 1 with each other run: nothing unflagged, the lock order
	// noted at the two Lock lines and nowhere else, and every section at
	// wait's loop.
	locks := map[string]int64{}
	for k := 2; k <= 10; k++ {
		a, b := filepath.Join(traces, "run-1.dvt"), filepath.Join(traces, fmt.Sprintf("run-%d.dvt", k))
		ra, rb := openTrace(t, a), openTrace(t, b)
		rep, err := compare.Traces(compare.FromReader(ra), compare.FromReader(rb), compare.Options{})
		ra.Close()
		rb.Close()
		if err != nil {
			t.Fatalf("comparing run %d with run 1: %v", k, err)
		}
		if rep.Summary.Unflagged != 0 {
			status, text, _ := divergo(t, dir, "diff", a, b)
			t.Errorf("runs 1 and %d: %d unflagged sections (diff status %d):\n%s", k, rep.Summary.Unflagged, status, text)
		}
		for _, s := range rep.Sections {
			if s.TCP.Kind != "loop" || !strings.HasSuffix(s.TCP.Func, ".wait") {
				t.Errorf("runs 1 and %d: a section at %s (%s in %s), want wait's loop only", k, s.TCP.Pos, s.TCP.Kind, s.TCP.Func)
			}
		}
		for _, n := range rep.LockOrder {
			locks[n.TCP.Pos] += n.Count
		}
	}
	want := []string{fmt.Sprintf("main.go:%d", countLine), fmt.Sprintf("main.go:%d", condLine)}
	for _, pos := range want {
		if locks[pos] == 0 {
			t.Errorf("no lock-order note at %s in 9 comparisons; notes: %v", pos, locks)
		}
	}
	if len(locks) > len(want) {
		t.Errorf("lock-order notes at %v, want at %v only", locks, want)
	}
}
