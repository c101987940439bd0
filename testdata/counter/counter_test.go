package counter

import (
	"fmt"
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
