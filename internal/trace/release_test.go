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

func TestReleaseOp(t *testing.T) {
	for _, tc := range []struct {
		ev   Event
		want Op
	}{
		{Event{Op: OpSelect, Object: 8}, OpRecv},
		{Event{Op: OpSelect, Object: 8, Sends: true}, OpSend},
		{Event{Op: OpSelect}, OpSelect}, // default case, or a channel the instrumenter could not name
		{Event{Op: OpLock, Object: 8}, OpLock},
	} {
		if got := ReleaseOp(tc.ev); got != tc.want {
			t.Errorf("ReleaseOp(%+v) = %v, want %v", tc.ev, got, tc.want)
		}
	}
	// A select that received is released by a send on its channel, not by
	// another receive.
	sel := ReleaseOp(Event{Op: OpSelect, Object: 8})
	if !CanRelease(sel, OpSend) || CanRelease(sel, OpRecv) {
		t.Error("a select's receive case is released by sends, not receives")
	}
}
