package replay

import (
	"math/rand/v2"
	"testing"
)

// TestMinimizedSameAsFull runs random executions of loopGraph and replays
// them twice: every block recorded on a copy of the graph with all blocks
// probed, and only the probed blocks on the minimized graph. The steps
// must be the same: putting implied blocks back loses nothing.
func TestMinimizedSameAsFull(t *testing.T) {
	min := loopGraph()
	full := loopGraph()
	for _, b := range full.Blocks {
		b.Probe = true
	}
	pm, pf := NewPaths(NewProgram(min)), NewPaths(NewProgram(full))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		// One execution of f, as every block it runs; the loop head
		// evaluates cond, which may call g (-5 is g's exit, -100 f's).
		var evs []ev
		head := func(all []int32) []int32 {
			all = append(all, 1)
			if rng.IntN(2) == 0 {
				all = append(all, 5)
				if rng.IntN(2) == 0 {
					all = append(all, 6)
				}
				all = append(all, 7, -5)
			}
			return all
		}
		all := head([]int32{0})
		for range rng.IntN(4) {
			all = head(append(all, 2, 3))
		}
		all = append(all, 4, -100)
		var fullEvs []ev
		for _, b := range all {
			switch {
			case b == -100:
				fullEvs, evs = append(fullEvs, ret(0)), append(evs, ret(0))
			case b < 0:
				fullEvs, evs = append(fullEvs, ret(-b)), append(evs, ret(-b))
			default:
				fullEvs = append(fullEvs, blk(b))
				if min.Blocks[b].Probe {
					evs = append(evs, blk(b))
				}
			}
		}
		rm, rf := NewReplayer(pm), NewReplayer(pf)
		got, want := run(rm, evs...), run(rf, fullEvs...)
		if got != want || rm.Anomalies != 0 || rf.Anomalies != 0 {
			t.Fatalf("blocks %v:\nminimized %s (%d anomalies)\nfull      %s (%d anomalies)", all, got, rm.Anomalies, want, rf.Anomalies)
		}
	}
}
