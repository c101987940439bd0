package flaky

import (
	"slices"
	"testing"
)

// TestMarkAssertions: the `if` two lines above the failure's t.Fatalf, and
// the message's own line, are the assertion and go after the statement
// that decided the race, whatever their scores; a statement further up the
// test, below the message, or in another file of the same line keeps its
// place.
func TestMarkAssertions(t *testing.T) {
	seps := []Separator{
		{Pos: "/m/pool_test.go:40", Score: 1},   // the check: two lines above
		{Pos: "/m/pool_test.go:42", Score: 1},   // the message's own line
		{Pos: "/m/pool.go:38", Score: 0.9},      // the cause, in library code
		{Pos: "/m/pool_test.go:30", Score: 0.5}, // the test's own select, further up
		{Pos: "/m/pool_test.go:43", Score: 0.4}, // below the message
		{Pos: "/m/other.go:41", Score: 0.3},     // the line range, another file
	}
	markAssertions(seps, []string{"pool_test.go:42"})
	var got []string
	for _, s := range seps {
		got = append(got, s.Pos)
	}
	want := []string{"/m/pool.go:38", "/m/pool_test.go:30", "/m/pool_test.go:43", "/m/other.go:41", "/m/pool_test.go:40", "/m/pool_test.go:42"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	for _, s := range seps {
		if want := s.Pos == "/m/pool_test.go:40" || s.Pos == "/m/pool_test.go:42"; s.Assertion != want {
			t.Errorf("%s: assertion %v, want %v", s.Pos, s.Assertion, want)
		}
	}
	// A panic's line is no file:line: nothing is marked.
	seps = []Separator{{Pos: "/m/pool_test.go:40"}}
	markAssertions(seps, []string{"panic: send on closed channel"})
	if seps[0].Assertion {
		t.Error("a panic's first line marked an assertion")
	}
}
