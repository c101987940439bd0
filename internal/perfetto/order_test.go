package perfetto

import (
	"reflect"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

func TestPathLess(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"main", "?/f#3", true},
		{"?/f#3", "main", false},
		{"main", "main", false},
		{"main/w@m.go:6#2", "main/w@m.go:6#10", true},
		{"main/w@m.go:6#10", "main/w@m.go:6#2", false},
		{"main/w@m.go:9#1", "main/w@m.go:10#1", true},
		{"main/w@m.go:6#1", "main/w@m.go:6#1/v@m.go:3#1", true},
		{"m.go:007", "m.go:7", false},
		{"m.go:7", "m.go:007", true}, // equal values: fewer zeros first, as trace.PathLess
	}
	for _, tt := range tests {
		if got := pathLess(tt.a, tt.b); got != tt.want {
			t.Errorf("pathLess(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// Threads follow the spawn tree: a child right after its parent, siblings
// by the line of their go statement and then by ordinal, whatever their
// recorder ids.
func TestTreeOrder(t *testing.T) {
	g := testGraph(t)
	infos := []trace.GoroutineInfo{
		{ID: 5, Parent: 1, Site: 1, Ordinal: 10, Path: "main/worker@main.go:6#10"},
		{ID: 4, Parent: 2, Site: 3, Ordinal: 1, Path: "main/other@main.go:20#1/x@main.go:12#1"},
		{ID: 2, Parent: 1, Site: 6, Ordinal: 1, Path: "main/other@main.go:20#1"},
		{ID: 3, Parent: 1, Site: 1, Ordinal: 2, Path: "main/worker@main.go:6#2"},
		{ID: 1, Path: "main"},
		{ID: 7, Parent: 0, Path: "?/f#9"},
	}
	var got []uint64
	for _, gi := range treeOrder(g, infos) {
		got = append(got, gi.ID)
	}
	if want := []uint64{1, 3, 5, 2, 4, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
