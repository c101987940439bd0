package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFlakyOrderings: divergo test names the race of a flaky test as the
// order of two sync operations, with both lines and goroutines: in
// TestSendClose's failing runs the test's lock (flaky_test.go:30) came
// before the producer's (:20); in TestFakeClockTicks's, Advance's lock
// (clock.go:35) before the ticker's After's (clock.go:25); in
// TestGroupForget's (singleflight's shape), the first call's doCall's lock
// (group.go:42) before the third Do's (group.go:20).
func TestFlakyOrderings(t *testing.T) {
	dir := setup(t, "flaky", false)
	type ref struct{ Pos, Goroutine string }
	want := map[string][2]string{
		"TestSendClose":      {"flaky_test.go:30", "flaky_test.go:20"},
		"TestFakeClockTicks": {"clock.go:35", "clock.go:25"},
		"TestGroupForget":    {"group.go:42", "group.go:20"},
	}
	status, stdout, stderr := divergo(t, dir, "test", "-n", "30", "-run", "^(TestSendClose|TestFakeClockTicks|TestGroupForget)$", "-json", ".")
	if status != 1 {
		t.Fatalf("divergo test: status %d, want 1\n%s\n%s", status, stdout, stderr)
	}
	var rep struct {
		Flaky []struct {
			Name      string
			Orderings []struct {
				First, Second ref
				Failing       [2]int
				Passing       [2]int
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("divergo test -json: %v\n%s", err, stdout)
	}
	found := map[string]bool{}
	for _, f := range rep.Flaky {
		w, ok := want[f.Name]
		if !ok {
			continue
		}
		found[f.Name] = true
		if len(f.Orderings) == 0 {
			t.Errorf("%s: no ordering", f.Name)
			continue
		}
		o := f.Orderings[0]
		if !strings.HasSuffix(o.First.Pos, w[0]) || !strings.HasSuffix(o.Second.Pos, w[1]) || o.First.Goroutine == o.Second.Goroutine {
			t.Errorf("%s: first ordering %+v, want %s before %s in two goroutines", f.Name, o, w[0], w[1])
		}
		if o.Failing[0] <= o.Failing[1] || o.Passing[1] <= o.Passing[0] {
			t.Errorf("%s: failing runs %v, passing %v (before, after): want mostly before in failing runs, after in passing", f.Name, o.Failing, o.Passing)
		}
	}
	for name := range want {
		if !found[name] {
			t.Errorf("%s not reported flaky:\n%s", name, stdout)
		}
	}
}
