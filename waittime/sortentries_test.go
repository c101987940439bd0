package waittime

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortEntries: the radix sort orders keys as compareKeys does, with
// places from -1 and recorder ids up to 2^32-1, and keys that do not fit
// its word (an id of 2^32) fall back to compareKeys; merged, both give the
// same entries.
func TestSortEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		n     int
		maxG  uint64
		wantR bool
	}{
		{10, 300, false}, {3000, 300, true}, {500, 1<<32 - 1, true}, {500, 1 << 33, false},
	} {
		es := make([]entry, c.n)
		for i := range es {
			es[i] = entry{stepKey{g: rng.Uint64N(c.maxG) + 1, at: int32(rng.IntN(40)) - 1, state: State(rng.IntN(int(numStates)))}, rng.Int64N(1000) - 500}
		}
		if c.wantR {
			for _, e := range es {
				if !sortable(e.key) {
					t.Fatalf("%v does not fit the sort word", e.key)
				}
			}
		}
		want := slices.Clone(es)
		slices.SortStableFunc(want, func(x, y entry) int { return compareKeys(x.key, y.key) })
		got := slices.Clone(es)
		var tmp []entry
		sortEntries(got, &tmp)
		for i := range got {
			if compareKeys(got[i].key, want[i].key) != 0 {
				t.Fatalf("n=%d: entry %d is %v, want %v", c.n, i, got[i].key, want[i].key)
			}
		}
		if c.wantR && !slices.Equal(got, want) {
			t.Errorf("n=%d: the radix sort is not stable", c.n)
		}
		m1, m2 := mergeEntries(slices.Clone(es), &tmp), mergeEntries(want, new([]entry))
		if !slices.Equal(m1, m2) {
			t.Errorf("n=%d: merged entries differ", c.n)
		}
	}
	if sortable(stepKey{g: 1, at: -2}) || sortable(stepKey{g: 1 << 32, at: 0}) {
		t.Error("keys outside the sort word taken as sortable")
	}
}
