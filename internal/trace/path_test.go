package trace

import (
	"bytes"
	"strings"
	"testing"
)

// TestDeepChain names a daisy chain of 3000 goroutines, each spawned by
// the previous one: paths stay bounded, distinct, and equal in two
// encodings of the same structure.
func TestDeepChain(t *testing.T) {
	const n = 3000
	var gs []GoroutineEvents
	for i := uint64(1); i <= n; i++ {
		g := GoroutineEvents{ID: i, Events: []Event{{Kind: EvBlock, Block: 3}}}
		if i > 1 {
			g.Parent, g.Site, g.Ordinal = i-1, 1, 1
		}
		gs = append(gs, g)
	}
	paths := func() []GoroutineInfo {
		var buf bytes.Buffer
		if err := Encode(&buf, "chain", testGraph(t), gs); err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		return r.Goroutines()
	}
	a, b := paths(), paths()
	seen := map[string]bool{}
	for i, gi := range a {
		if len(gi.Path) > maxParentPath+100 {
			t.Fatalf("goroutine %d: path of %d bytes", gi.ID, len(gi.Path))
		}
		if seen[gi.Path] {
			t.Fatalf("goroutine %d: path %q repeated", gi.ID, gi.Path)
		}
		seen[gi.Path] = true
		if gi.Path != b[i].Path {
			t.Fatalf("goroutine %d: path %q, then %q", gi.ID, gi.Path, b[i].Path)
		}
	}
	if p := a[1].Path; p != "main/worker@main.go:7#1" {
		t.Errorf("first child: %q", p)
	}
	if p := a[n-1].Path; !strings.HasPrefix(p, "~") {
		t.Errorf("deepest path %q does not start with a hashed parent", p)
	}
}
