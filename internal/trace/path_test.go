package trace

import "testing"

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
