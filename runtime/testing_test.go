package runtime

import (
	"testing"
	"time"
)

// TestTestTimeout reads -test.timeout in the forms the flag package
// accepts, and nothing else.
func TestTestTimeout(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{[]string{"-test.timeout=10m0s"}, 10 * time.Minute},
		{[]string{"-test.v", "--test.timeout", "300ms"}, 300 * time.Millisecond},
		{[]string{"-test.timeout=0s"}, 0},
		{[]string{"-test.timeoutx=1s"}, 0},
		{[]string{"-test.run", "TestX"}, 0},
		{[]string{"-test.timeout"}, 0},
	} {
		if got := testTimeout(tc.args); got != tc.want {
			t.Errorf("testTimeout(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
