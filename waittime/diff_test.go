package waittime

import (
	"strings"
	"testing"
)

// TestDiff compares a fork-join run with the slow block against one
// without it: the slow class vanishes, the jitter class stays.
func TestDiff(t *testing.T) {
	slowRun, wait, slow := forkJoinTrace()
	a, err := Analyze(slowRun, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Analyze(forkJoinGenSlow(false), Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Diff(a, b, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sites) != 1 || d.Sites[0].Block != int(wait) || d.Sites[0].DeltaNs >= -400*ms {
		t.Fatalf("sites %+v, want the join with about 500 ms less", d.Sites)
	}
	changes := map[string]int{}
	slowGone := false
	for _, c := range d.Sites[0].Classes {
		changes[c.Change]++
		if c.Change == "vanished" && c.A.Steps[0].Block == int(slow) {
			slowGone = true
		}
	}
	if !slowGone || changes["appeared"] != 0 {
		t.Errorf("class changes %v, want the slow class vanished and none appeared", changes)
	}
	var buf strings.Builder
	if err := d.WriteText(&buf, 2); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "vanished") || !strings.Contains(buf.String(), "pool.go:22") {
		t.Errorf("text does not name the vanished slow line:\n%s", buf.String())
	}
	self, err := Diff(a, a, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range self.Sites[0].Classes {
		if c.Change != "same" || c.Distance != 0 {
			t.Errorf("a run against itself: class %s at distance %g", c.Change, c.Distance)
		}
	}
}

// forkJoinGenSlow is forkJoinTrace with or without the slow block.
func forkJoinGenSlow(slow bool) *fakeTrace {
	tr, _, _ := forkJoinTraceOpt(slow)
	return tr
}
