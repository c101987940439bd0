package runtime

import (
	"reflect"
	"strconv"
	"testing"
)

// TestStrength: at strength P about P percent of the decisions act, half
// yields and half sleeps; unset, the decisions are decide's as before.
func TestStrength(t *testing.T) {
	t.Cleanup(readPerturb)
	t.Setenv("DIVERGO_PERTURB_STRENGTH", "")
	readPerturb()
	def := decisions(rootIdent(3), 1000)
	for _, p := range []int{0, 10, 50, 100} {
		t.Setenv("DIVERGO_PERTURB_STRENGTH", strconv.Itoa(p))
		readPerturb()
		yields, sleeps := 0, 0
		for _, a := range decisions(rootIdent(3), 4000) {
			switch {
			case a.yield:
				yields++
			case a.sleep > 0:
				sleeps++
			}
		}
		acts := float64(yields+sleeps) / 40 // percent
		if acts < float64(p)-4 || acts > float64(p)+4 || (p > 0 && (yields < sleeps/2 || sleeps < yields/2)) {
			t.Errorf("strength %d: %.1f%% acted (%d yields, %d sleeps)", p, acts, yields, sleeps)
		}
	}
	for _, bad := range []string{"x", "-1", "101"} {
		t.Setenv("DIVERGO_PERTURB_STRENGTH", bad)
		readPerturb()
		if perturbStrength != -1 {
			t.Errorf("DIVERGO_PERTURB_STRENGTH=%q: strength %d, want the default", bad, perturbStrength)
		}
	}
	t.Setenv("DIVERGO_PERTURB_STRENGTH", "")
	readPerturb()
	if got := decisions(rootIdent(3), 1000); !reflect.DeepEqual(got, def) {
		t.Error("unset, the decisions differ from decide's")
	}
}
