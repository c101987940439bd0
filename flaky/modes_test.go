package flaky

import (
	"fmt"
	"strings"
	"testing"
)

// TestModes: TestX fails two ways, at line 12 when the first branch goes
// to then, at line 17 when the second goes to a; passing runs take
// neither. Each mode gets its own branch as its only separator, with score
// 1; mixed, the two branches also part failing runs of two modes, and
// score less.
func TestModes(t *testing.T) {
	x := newTwoBranches(t)
	first := Failure{Where: "x_test.go:12", Message: "x_test.go:12: first"}
	second := Failure{Where: "x_test.go:17", Message: "x_test.go:17: second"}
	var fails []*View
	for i, m := range []Failure{first, second, first, second, first} {
		v, _ := ViewTest(x.runAs(m == first, m == second, true), "TestX")
		v.Run, v.Failure = i+1, m
		fails = append(fails, v)
	}
	passes := views(t, "TestX", x.run(false, false), x.run(false, false), x.run(false, false))
	rep, err := Explain("TestX", fails, passes)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Modes) != 2 {
		t.Fatalf("%d modes, want 2", len(rep.Modes))
	}
	for i, want := range []struct {
		where string
		runs  int
		line  string
	}{{"x_test.go:12", 3, ":11"}, {"x_test.go:17", 2, ":16"}} {
		m := rep.Modes[i]
		if m.Where != want.where || m.Failures != want.runs || len(m.Messages) != 1 || m.Messages[0].N != want.runs {
			t.Errorf("mode %d: %s, %d failures, messages %v; want %s, %d", i+1, m.Where, m.Failures, m.Messages, want.where, want.runs)
		}
		if len(m.Separators) != 1 || !strings.HasSuffix(m.Separators[0].Pos, want.line) || m.Separators[0].Score != 1 {
			t.Errorf("mode %s: separators %+v, want the branch at line %s alone, score 1", m.Where, m.Separators, want.line)
		}
	}
	for _, s := range rep.Separators {
		if s.Score >= 1 {
			t.Errorf("all failing runs together: %s scores %v; the modes' failing runs part there too", s.Pos, s.Score)
		}
	}
}

// TestOneMode: with one failure mode, the mode's separators are the
// report's.
func TestOneMode(t *testing.T) {
	x := newTwoBranches(t)
	fails := views(t, "TestX", x.run(true, true), x.run(true, false))
	passes := views(t, "TestX", x.run(false, false), x.run(false, true))
	rep, err := Explain("TestX", fails, passes)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Modes) != 1 || rep.Modes[0].Failures != 2 || len(rep.Modes[0].Separators) != len(rep.Separators) || rep.Modes[0].Compared != rep.Compared {
		t.Errorf("modes %+v, want one with the report's separators %+v", rep.Modes, rep.Separators)
	}
}

func TestPick(t *testing.T) {
	for _, tc := range []struct {
		nx, ny int
		same   bool
		max    int
		want   string
	}{
		{3, 4, false, 5, "[[0 0] [1 1] [2 2] [0 1] [1 2]]"},
		{2, 2, false, 12, "[[0 0] [1 1] [0 1] [1 0]]"},
		{4, 0, true, 4, "[[0 1] [1 2] [2 3] [0 2]]"},
		{1, 0, true, 4, "[]"},
	} {
		if got := fmt.Sprint(pick(tc.nx, tc.ny, tc.same, tc.max)); got != tc.want {
			t.Errorf("pick(%d, %d, %v, %d) = %s, want %s", tc.nx, tc.ny, tc.same, tc.max, got, tc.want)
		}
	}
}
