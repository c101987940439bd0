package flaky

import (
	"slices"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestViewTest: a test's view is its root goroutine and every descendant,
// whatever the order the trace lists them in, and nothing of other tests.
func TestViewTest(t *testing.T) {
	m := &memTrace{}
	m.add(trace.GoroutineInfo{ID: 5, Parent: 4, Path: "TestX > go a > go b"})
	m.add(trace.GoroutineInfo{ID: 1, Test: "TestOther"})
	m.add(trace.GoroutineInfo{ID: 3, Parent: 1, Path: "TestOther > go c"})
	m.add(trace.GoroutineInfo{ID: 4, Parent: 2, Path: "TestX > go a"})
	m.add(trace.GoroutineInfo{ID: 2, Test: "TestX", Path: "TestX"})
	v, ok := ViewTest(m, "TestX")
	if !ok {
		t.Fatal("TestX not found")
	}
	var ids []uint64
	for _, g := range v.Goroutines() {
		ids = append(ids, g.ID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []uint64{2, 4, 5}) {
		t.Errorf("view of TestX: goroutines %v, want [2 4 5]", ids)
	}
	if _, ok := ViewTest(m, "TestNone"); ok {
		t.Error("a test that did not run has a view")
	}
}

func TestRootName(t *testing.T) {
	for _, tc := range [][3]string{
		{"go ? example.com/p.TestX#*", "TestX/a", "TestX/a"},
		{"go ? example.com/p.TestX#* > go x.go:3#*", "TestX", "TestX > go x.go:3#*"},
		{"main/worker", "TestX", "main/worker"},
	} {
		if got := rootName(tc[0], tc[1]); got != tc[2] {
			t.Errorf("rootName(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}
