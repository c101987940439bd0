package trace

import "testing"

func TestReleasers(t *testing.T) {
	for _, tc := range []struct {
		wait, op Op
		want     bool
	}{
		{OpLock, OpUnlock, true},
		{OpLock, OpSend, false},
		{OpRecv, OpClose, true},
		{OpSend, OpClose, false}, // a send on a closed channel panics; it is not released
		{OpWGWait, OpWGDone, true},
		{OpWGWait, OpWGAdd, false},
		{OpCondWait, OpCondBroadcast, true},
		{OpUnlock, OpLock, false}, // unlock never waits
		{Op(200), OpUnlock, false},
	} {
		if got := CanRelease(tc.wait, tc.op); got != tc.want {
			t.Errorf("CanRelease(%v, %v) = %v", tc.wait, tc.op, got)
		}
	}
	// Every operation that releases some wait says so.
	for w := range releasedBy {
		for op := Op(1); op < 32; op++ {
			if CanRelease(Op(w), op) && !Releases(op, false) {
				t.Errorf("%v releases %v but Releases(%v) is false", op, Op(w), op)
			}
		}
	}
	if Releases(OpOnce, true) || !Releases(OpOnce, false) {
		t.Error("a Once releases only when it ran the function")
	}
}
