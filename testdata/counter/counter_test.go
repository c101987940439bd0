package counter

import (
	"fmt"
	"os"
	"testing"
)

func TestCount(t *testing.T) {
	if got := Count(3); got != 3 {
		t.Fatalf("Count(3) = %d", got)
	}
}

func TestSizes(t *testing.T) {
	for _, n := range []int{1, 4} {
		t.Run(fmt.Sprintf("size=%d", n), func(t *testing.T) {
			t.Parallel()
			if got := Count(n); got != n {
				t.Errorf("Count(%d) = %d", n, got)
			}
		})
	}
}

func TestSkipped(t *testing.T) {
	t.Skip("nothing to do")
}

// TestFails fails when COUNTER_FAIL is set, and panics when it is
// "panic": the end-to-end test reads both results from the trace.
func TestFails(t *testing.T) {
	switch os.Getenv("COUNTER_FAIL") {
	case "":
		t.Skip("COUNTER_FAIL not set")
	case "panic":
		panic("counter: asked to panic")
	}
	t.Errorf("Count(2) = %d, asked to fail", Count(2))
}

// TestHangs blocks forever when COUNTER_FAIL is "hang": the end-to-end
// test runs it with a short -test.timeout and reads "timeout".
func TestHangs(t *testing.T) {
	if os.Getenv("COUNTER_FAIL") != "hang" {
		t.Skip("COUNTER_FAIL is not hang")
	}
	select {}
}
