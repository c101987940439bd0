package flaky

import (
	"slices"
	"testing"
)

// TestUnfinishedInFailing: a goroutine left blocked in every failing run
// and no passing one is listed; one every run leaks, or that passing runs
// leave as often, is not; with no passing run every one is.
func TestUnfinishedInFailing(t *testing.T) {
	fail := map[string]int{"TestX > go x.go:12#1": 4, "TestX > go server.go:30#1": 4, "TestX > go x.go:20#2": 2}
	pass := map[string]int{"TestX > go server.go:30#1": 6, "TestX > go x.go:20#2": 1}
	got := unfinishedInFailing(fail, 4, pass, 6)
	want := []string{"TestX > go x.go:12#1 (in 4 of 4 failing runs)", "TestX > go x.go:20#2 (in 2 of 4 failing runs)"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := unfinishedInFailing(fail, 4, nil, 0); len(got) != 3 {
		t.Errorf("no passing run: got %q, want all three", got)
	}
}
