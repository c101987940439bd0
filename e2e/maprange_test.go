package e2e

import (
	"fmt"
	"slices"
	"testing"
)

// TestMapRangeLength: main ranges over a map another goroutine fills, so
// runs differ in how many entries main sees. Two runs that saw different
// numbers part at the range's head, which the analyzer marked: the
// sections are map-range sections converging after the loop, and nothing
// is unflagged (compare once reported the loop's exit as a block without
// a TCP).
func TestMapRangeLength(t *testing.T) {
	t.Parallel()
	p := prepare(t, "mapfill", false)
	bySeen := map[int]string{} // entries main saw → a trace
	for seed := 1; seed <= 60 && len(bySeen) < 2; seed++ {
		tr, out := p.runSeed(t, seed)
		var seen, sum int
		if _, err := fmt.Sscanf(out, "seen %d sum %d", &seen, &sum); err != nil {
			t.Fatalf("output %q: %v", out, err)
		}
		if bySeen[seen] == "" {
			bySeen[seen] = tr
		}
	}
	if len(bySeen) < 2 {
		t.Fatalf("60 perturbed runs all saw %v entries", keys(bySeen))
	}
	seen := keys(bySeen)
	slices.Sort(seen)
	_, rep := correspondence(t, bySeen[seen[0]], bySeen[seen[1]], nil)
	mapranges := 0
	for _, s := range rep.Sections {
		switch {
		case s.Unflagged:
			t.Errorf("unflagged section at %s in %s → %s", s.TCP.Pos, s.TCP.Func, s.CP.Pos)
		case s.TCP.Kind == "maprange":
			mapranges++
			if s.TCP.Pos != "main.go:33" || s.CP.Pos != "main.go:37" || s.Unresolved {
				t.Errorf("map-range section %s → %s (unresolved %v), want main.go:33 → main.go:37", s.TCP.Pos, s.CP.Pos, s.Unresolved)
			}
		}
	}
	if mapranges != 1 {
		t.Errorf("%d map-range sections, want 1: %+v", mapranges, rep.Sections)
	}
}
