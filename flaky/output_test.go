package flaky

import (
	"maps"
	"testing"
)

// TestFailureMessages reads the output of a test binary: messages under
// "--- FAIL" lines, subtests by their own indentation, and a panic given to
// the test testing named before it.
func TestFailureMessages(t *testing.T) {
	out := `--- FAIL: TestA (0.00s)
    a_test.go:12: got 2, want 1
    a_test.go:13: and more
--- FAIL: TestB (0.00s)
    --- FAIL: TestB/size=4 (0.00s)
        b_test.go:30: Count(4) = 3
--- PASS: TestC (0.00s)
--- FAIL: TestP (0.00s)
panic: boom [recovered]
	panic: boom

goroutine 7 [running]:
FAIL
`
	got := FailureMessages(out)
	want := map[string]string{
		"TestA":        "a_test.go:12: got 2, want 1; a_test.go:13: and more",
		"TestB/size=4": "b_test.go:30: Count(4) = 3",
		"TestP":        "panic: boom [recovered]",
	}
	if !maps.Equal(got, want) {
		t.Errorf("FailureMessages:\n%q\nwant\n%q", got, want)
	}
}
