package runtime

import (
	"slices"
	"testing"
)

// TestBeginTestCounts checks that a test's steps count from zero, with
// change points of its own: the same test name gives the same ones
// whatever ran before it, and another name (or seed) others.
func TestBeginTestCounts(t *testing.T) {
	ctlTest(t, 3, nil)
	a := testIdent(7, "TestA")
	ctlBeginTest(a)
	first := slices.Clone(ctl.changes)
	if len(first) != 2 {
		t.Fatalf("depth 3: change points %v", first)
	}
	ctl.steps, ctl.lowered = 40, 1 // the test ran
	ctlBeginTest(testIdent(7, "TestB"))
	if ctl.steps != 0 || ctl.lowered != 0 {
		t.Errorf("a new test: steps %d, lowered %d", ctl.steps, ctl.lowered)
	}
	ctlBeginTest(a)
	if !slices.Equal(ctl.changes, first) {
		t.Errorf("TestA again: change points %v, then %v", first, ctl.changes)
	}
	differ := false
	for seed := range uint64(20) {
		ctlBeginTest(testIdent(seed, "TestA"))
		differ = differ || !slices.Equal(ctl.changes, first)
	}
	if !differ {
		t.Errorf("20 seeds gave TestA the change points %v", first)
	}
}

// TestWalkPick checks the walk's draw: the same ready goroutines, in
// whatever order they got ready, give the same pick from the same state,
// and the draws spread over all of them.
func TestWalkPick(t *testing.T) {
	ctlTest(t, 0, nil)
	ctl.walk = true
	t.Cleanup(func() { ctl.walk = false })
	gs := []*G{newG(2, 2), newG(3, 3), newG(4, 4)}
	for i, g := range gs {
		g.cg.prio = initialPrio(uint64(i + 10))
	}
	picked := map[*G]int{}
	for seed := range uint64(60) {
		var got []*G
		for _, order := range [][]int{{0, 1, 2}, {2, 0, 1}, {1, 2, 0}} {
			ctl.ready = ctl.ready[:0]
			for _, i := range order {
				ctl.ready = append(ctl.ready, gs[i])
			}
			ctl.draws, ctl.drawStep = seed, -1
			got = append(got, ctl.ready[walkPick()])
		}
		if got[0] != got[1] || got[0] != got[2] {
			t.Fatalf("seed %d: picks %d, %d, %d by the order of the ready", seed, got[0].id, got[1].id, got[2].id)
		}
		picked[got[0]]++
	}
	for _, g := range gs {
		if picked[g] < 10 {
			t.Errorf("60 draws among 3 picked %d only %d times", g.id, picked[g])
		}
	}
}

// TestSweep checks the sweep's runs: two per step, the first newest
// first and the second oldest first, through sweepSpan steps, then again.
func TestSweep(t *testing.T) {
	ctlTest(t, 2, nil)
	t.Cleanup(func() { ctl.sweep = 0 })
	old, young := newG(2, 2), newG(9, 9)
	for i, want := range []int64{1, 1, 2, 2, 3, 3} {
		ctl.sweep = i + 1
		ctlBeginTest(testIdent(uint64(i), "TestA")) // the seed does not matter
		if !slices.Equal(ctl.changes, []int64{want}) {
			t.Errorf("sweep %d: change points %v, want [%d]", i, ctl.changes, want)
		}
		oldFirst := old.firstPrio() > young.firstPrio()
		if oldFirst != (i%2 == 1) || min(old.firstPrio(), young.firstPrio()) <= maxDepth {
			t.Errorf("sweep %d: priorities %d (started first), %d", i, old.firstPrio(), young.firstPrio())
		}
	}
	if got := sweepStep(2 * sweepSpan); got != 1 {
		t.Errorf("sweep %d: step %d, want 1 again", 2*sweepSpan, got)
	}
}
