package trace

import (
	"slices"
	"strings"
	"testing"
)

func TestShortFuncName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"example.com/m.main", "main"},
		{"example.com/m.F$1", "F$1"},
		{"main.worker", "worker"},
		{"(*example.com/m.counter).inc", "(*counter).inc"},
		{"(example.com/m.counter).get", "(counter).get"},
		{"(*example.com/m.counter).inc$1", "(*counter).inc$1"},
		{"example.com/m.Map[example.com/x.K]", "Map[example.com/x.K]"},
		{"(*example.com/m.List[int]).Push", "(*List[int]).Push"},
		{"worker", "worker"},
		{"(broken", "(broken"},
	} {
		if got := ShortFuncName(tc.in); got != tc.want {
			t.Errorf("ShortFuncName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPathLess(t *testing.T) {
	want := []string{
		"main",
		"main/worker@main.go:9#1",
		"main/worker@main.go:9#2",
		"main/worker@main.go:9#10",
		"main/worker@main.go:9#10/sub@main.go:30#1",
		"main/worker@main.go:10#1",
		"main/worker@main.go:100#1",
		"main/x@a.go:1#1",
	}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortStableFunc(got, func(a, b string) int {
		switch {
		case PathLess(a, b):
			return -1
		case PathLess(b, a):
			return 1
		}
		return 0
	})
	if !slices.Equal(got, want) {
		t.Errorf("sorted:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
