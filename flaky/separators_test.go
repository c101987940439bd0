package flaky

import (
	"strings"
	"testing"
)

func views(t *testing.T, name string, runs ...*memTrace) []*View {
	t.Helper()
	var vs []*View
	for i, r := range runs {
		v, ok := ViewTest(r, name)
		if !ok {
			t.Fatalf("run %d: no test %s", i+1, name)
		}
		v.Run = i + 1
		vs = append(vs, v)
	}
	return vs
}

// TestSeparators: the branch that decides the outcome parts every failing
// run from every passing one and no like pair: it is the only separator,
// with score 1. The branch that goes either way parts like pairs as often
// as unlike ones and is left out.
func TestSeparators(t *testing.T) {
	x := newTwoBranches(t)
	fails := views(t, "TestX", x.run(true, true), x.run(true, false), x.run(true, true))
	passes := views(t, "TestX", x.run(false, false), x.run(false, true), x.run(false, false))
	rep, err := Explain("TestX", fails, passes)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Compared != [3]int{9, 3, 3} {
		t.Errorf("compared %v, want 9 fail-pass, 3 pass-pass, 3 fail-fail", rep.Compared)
	}
	if len(rep.Separators) != 1 {
		t.Fatalf("separators %+v, want the branch at line 11 alone", rep.Separators)
	}
	s := rep.Separators[0]
	if !strings.HasSuffix(s.Pos, "x_test.go:11") || s.Kind != "branch" || s.Score != 1 || s.Pairs != [3]int{9, 0, 0} {
		t.Errorf("separator %s %s score %v pairs %v, want the branch at x_test.go:11, 1, [9 0 0]", s.Pos, s.Kind, s.Score, s.Pairs)
	}
	if len(s.Goroutines) != 1 || s.Goroutines[0].N != 1 {
		t.Errorf("goroutines %v, want the test's own, once", s.Goroutines)
	}
	if rep.WaitRuns != [2]int{1, 1} || rep.GroupRuns != [2]int{3, 3} {
		t.Errorf("wait runs %v, group runs %v", rep.WaitRuns, rep.GroupRuns)
	}
	if len(rep.Blocked) != 0 {
		t.Errorf("blocked %v, want none: every goroutine ended", rep.Blocked)
	}
}

// TestSeparatorsBound: at most MaxPairs pairs of each kind are compared.
func TestSeparatorsBound(t *testing.T) {
	x := newTwoBranches(t)
	var f, p []*memTrace
	for i := range 5 {
		f = append(f, x.run(true, i%2 == 0))
		p = append(p, x.run(false, i%2 == 1))
	}
	rep, err := Explain("TestX", views(t, "TestX", f...), views(t, "TestX", p...))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Compared != [3]int{MaxPairs, 10, 10} {
		t.Errorf("compared %v, want [%d 10 10]", rep.Compared, MaxPairs)
	}
}

// TestReadAlike: a separator whose failing and passing sides list the same
// paths, most frequent first, reads the same and is dropped; the same paths
// in another order (the report's line names each side's first), one path
// more on a side, a side that says nothing, or words that stand for values
// not printed (a map's order: other orders on each side) keep it.
func TestReadAlike(t *testing.T) {
	for _, c := range []struct {
		failing, passing []string
		want             bool
	}{
		{[]string{"another map order"}, []string{"another map order"}, false},
		{[]string{"recorded another lock ticket, index or map key"}, []string{"recorded another lock ticket, index or map key"}, false},
		{[]string{"went straight on (no change point here)"}, []string{"went straight on (no change point here)"}, true},
		{[]string{"took the then branch", "took the else branch"}, []string{"took the then branch", "took the else branch"}, true},
		{[]string{"took the then branch", "took the else branch"}, []string{"took the else branch", "took the then branch"}, false},
		{[]string{"then"}, []string{"else"}, false},
		{[]string{"then", "else"}, []string{"then"}, false},
		{nil, nil, false},
		{[]string{"then"}, nil, false},
	} {
		if got := readAlike(c.failing, c.passing); got != c.want {
			t.Errorf("readAlike(%q, %q) = %v, want %v", c.failing, c.passing, got, c.want)
		}
	}
}
