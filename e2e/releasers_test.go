package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
)

// goldenMinWait is the shortest wait the releasers golden lists: the
// program's waits by design last a millisecond or more (a tick, a value's
// work, a Signal two milliseconds apart); shorter ones (a lock taken while
// a woken Cond waiter relocks) depend on the schedule.
const goldenMinWait = 500_000

// TestReleasersGolden runs testdata/releasers and lists, for every wait
// of a millisecond or so, the statement that waited and the operation that
// ended it (or why none): the consumer's receive after each burst is
// released by the feeder's first send of the next burst (the select in
// the block of main.go:30), not by the last send of the burst before, which is the
// latest send before the receive's end only by timestamp in a run whose
// select stamped its send late; the select pipeline's waits by the select
// or the send of the stage before; the Cond waiters by main's Signal. The
// ticker's receive has no releaser: its sends are the runtime's. waittime
// names the same releasers.
func TestReleasersGolden(t *testing.T) {
	t.Parallel()
	p := prepare(t, "releasers", false)
	dvt := filepath.Join(t.TempDir(), "run.dvt")
	out := execProg(t, p.dir, p.bin, nil, "DIVERGO_TRACE="+dvt)
	expect(t, "output", out, fmt.Sprintf("exit 0\nstdout:\ntotal %d\nstderr:\n", sumSquares(12)))
	// Not checkReleasers: the ticker's receives have no recorded releaser.
	r := readRun(t, dvt, "")

	tr, err := trace.Open(dvt)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	pairs, err := replay.Pair(tr, 0)
	if err != nil {
		t.Fatal(err)
	}
	fn := func(g *gor) string {
		if g.ID == 1 {
			return "main"
		}
		s := g.Path[strings.LastIndex(g.Path, "/")+1:]
		return s[:strings.Index(s, "@")]
	}
	seen := map[string]int{}
	named := map[[2]int64]uint64{} // goroutine, begin → releaser
	for _, g := range r.gs {
		var n uint64
		for _, ev := range g.evs {
			if ev.Kind != trace.EvSync {
				continue
			}
			ref := replay.SyncRef{G: g.ID, N: n}
			n++
			if !ev.Waited || ev.Op == trace.OpSleep {
				continue
			}
			rel, ok := pairs.Of(ref)
			if ok {
				named[[2]int64{int64(g.ID), ev.Begin}] = rel.G
			}
			if ev.End-ev.Begin < goldenMinWait {
				continue
			}
			line := fmt.Sprintf("%s %s at %s: ", fn(g), ev.Op, sitePos(r.graph, ev.Site, ev.Block))
			if ok {
				line += fmt.Sprintf("%s %s at %s", fn(r.byID[rel.G]), rel.Op, sitePos(r.graph, rel.Site, rel.Block))
			} else {
				line += "no releaser: " + pairs.Why(ref).String()
			}
			seen[line]++
		}
	}
	// A wait the design makes happens three times or more; one seen once
	// or twice is the machine's doing (a select whose goroutine was
	// descheduled for half a millisecond counts as waiting).
	lines := make([]string, 0, len(seen))
	for l, k := range seen {
		if k >= 3 {
			lines = append(lines, l)
		}
	}
	slices.Sort(lines)
	goldenFile(t, "releasers.golden", strings.Join(lines, "\n")+"\n")
	// After each tick the consumer waits for the burst: four times.
	if k := seen["consume recv at main.go:54: feed send at main.go:31"]; k < 3 {
		t.Errorf("the consumer's receive was released by the first send of a burst %d times, want 4", k)
	}

	// waittime names the same releasers.
	rep, err := waittime.Analyze(tr, waittime.Options{KeepWaits: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Sites {
		for _, w := range s.Instances {
			want := named[[2]int64{int64(w.GID), w.Begin}]
			if w.Releaser != want {
				t.Errorf("waittime: %s %s at %s released by goroutine %d, replay.Pair says %d", w.Goroutine, w.Op, s.Pos, w.Releaser, want)
			}
		}
	}
}

func sumSquares(n int) int {
	s := 0
	for i := range n {
		s += i * i
	}
	return s
}
