package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFlakyModes runs divergo test on TestFakeClockTicks (testdata/flaky),
// which fails at one select or at another: each failure mode is reported
// with its own separators, the select it failed at (or the fake clock's
// loop over its waiters, which decides both) among its first three; the
// test's t.Log line, printed in passing runs too, is not taken for a
// failure; a mode's first ordering, if it has one, is Advance's lock
// before After's; the text report lists both modes.
func TestFlakyModes(t *testing.T) {
	dir := setup(t, "flaky", false)
	deciding := map[string]string{ // where a mode failed → its select
		"clock_test.go:27": "clock_test.go:24",
		"clock_test.go:33": "clock_test.go:30",
	}
	var stdout, stderr string
	for _, seed := range []string{"1", "41"} {
		var status int
		status, stdout, stderr = divergo(t, dir, "test", "-n", "30", "-seed", seed, "-run", "^TestFakeClockTicks$", "-json", ".")
		if status != 1 {
			t.Fatalf("divergo test: status %d, want 1 (flaky)\n%s\n%s", status, stdout, stderr)
		}
		var rep struct {
			Flaky []struct {
				Name     string
				Failures int
				Modes    []struct {
					Where      string
					Failures   int
					Messages   []struct{ Message string }
					Separators []struct{ Pos string }
					Orderings  []struct{ First, Second struct{ Pos string } }
				}
			}
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("divergo test -json: %v\n%s", err, stdout)
		}
		if len(rep.Flaky) != 1 {
			t.Fatalf("flaky tests %+v, want TestFakeClockTicks", rep.Flaky)
		}
		f := rep.Flaky[0]
		if len(f.Modes) < 2 {
			continue // the rarer mode did not come up under these seeds
		}
		sum := 0
		for _, m := range f.Modes {
			sum += m.Failures
			sel, ok := deciding[m.Where]
			if !ok {
				t.Errorf("a failure mode at %q (messages %v), want one of the two selects' t.Fatal", m.Where, m.Messages)
				continue
			}
			var top []string
			for i, s := range m.Separators {
				if i < 3 {
					top = append(top, s.Pos)
				}
			}
			found := false
			for _, p := range top {
				found = found || strings.HasSuffix(p, sel) || strings.HasSuffix(p, "clock.go:39")
			}
			if !found {
				t.Errorf("mode %s: first separators %v, want %s or clock.go:39", m.Where, top, sel)
			}
			// The race, listed after the separators when the mode's runs
			// show it: Advance's lock before the ticker's After's.
			if len(m.Orderings) > 0 {
				if o := m.Orderings[0]; !strings.HasSuffix(o.First.Pos, "clock.go:35") || !strings.HasSuffix(o.Second.Pos, "clock.go:25") {
					t.Errorf("mode %s: first ordering %+v, want clock.go:35 before clock.go:25", m.Where, o)
				}
			}
		}
		if sum != f.Failures {
			t.Errorf("modes add up to %d failures, want %d", sum, f.Failures)
		}
		_, text, _ := divergo(t, dir, "test", "-n", "30", "-seed", seed, "-run", "^TestFakeClockTicks$", ".")
		for _, want := range []string{"2 ways", "failure 1 of 2", "failure 2 of 2", "clock_test.go:27: no first tick", "clock_test.go:33: no second tick"} {
			if !strings.Contains(text, want) {
				t.Errorf("the text report has no %q:\n%s", want, text)
			}
		}
		return
	}
	t.Errorf("TestFakeClockTicks failed one way only in 60 runs:\n%s\n%s", stdout, stderr)
}
