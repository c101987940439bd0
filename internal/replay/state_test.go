package replay

import (
	"math/rand/v2"
	"testing"
)

// TestContinuesMoved: a replayer that takes the block events Continues
// accepts with Moved, from the last step Block gave another replayer in
// the same state, stays in that state, on random events (anomalies
// included); SetState copies a state and SameState tells states apart.
func TestContinuesMoved(t *testing.T) {
	paths := NewPaths(NewProgram(loopGraph()))
	rng := rand.New(rand.NewPCG(5, 6))
	moved := 0
	for range 200 {
		r, o := NewReplayer(paths), NewReplayer(paths)
		var steps []Step
		for range 30 {
			b := int32(rng.IntN(9)) - 1
			if rng.IntN(6) == 0 {
				steps = r.Exit(b, steps[:0])
				o.Exit(b, nil)
			} else if cur, ok := o.Continues(b); ok {
				if cur != r.Cur() {
					t.Fatalf("Continues gives current block %d, Cur %d", cur, r.Cur())
				}
				an := r.Anomalies
				steps = r.Block(b, steps[:0])
				for _, s := range steps {
					if s.Kind != Block || s.Depth != r.Depth() {
						t.Fatalf("event %d continues its frame but gives step %+v at depth %d", b, s, r.Depth())
					}
				}
				o.Moved(steps[len(steps)-1].Block, r.Anomalies-an)
				moved++
			} else {
				steps = r.Block(b, steps[:0])
				o.Block(b, nil)
			}
			if !r.SameState(o) || r.Anomalies != o.Anomalies {
				t.Fatalf("after event %d: states differ", b)
			}
		}
		c := NewReplayer(paths)
		if r.Depth() > 0 && c.SameState(r) {
			t.Fatalf("an empty replayer is in the state of one at depth %d", r.Depth())
		}
		c.SetState(r)
		if !c.SameState(r) || c.Cur() != r.Cur() {
			t.Fatalf("SetState did not copy the state")
		}
	}
	if moved < 500 {
		t.Errorf("only %d events continued their frame", moved)
	}
}
