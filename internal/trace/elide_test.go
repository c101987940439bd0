package trace

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestElidePath: a spawn path too long for a line of text keeps its root and
// its end around an ellipsis, in at most the width asked for; a short one
// is left whole.
func TestElidePath(t *testing.T) {
	long := "main/producer@main.go:40#1/stage@main.go:52#1/stage@main.go:52#1/stage@main.go:52#1/filter@main.go:61#7"
	for _, tc := range []struct{ path, want string }{
		{"main/work@main.go:5#1", "main/work@main.go:5#1"},
		{long, "main/…/stage@main.go:52#1/stage@main.go:52#1/filter@main.go:61#7"},
		{"TestSizes/size=4 > " + long, "TestSizes/…/stage@main.go:52#1/stage@main.go:52#1/filter@main.go:61#7"},
		{"main/" + strings.Repeat("x", 100), "main/…" + strings.Repeat("x", 66)},
	} {
		got := ElidePath(tc.path, 72)
		if got != tc.want || utf8.RuneCountInString(got) > 72 {
			t.Errorf("ElidePath(%q) = %q (%d characters), want %q", tc.path, got, utf8.RuneCountInString(got), tc.want)
		}
	}
}
