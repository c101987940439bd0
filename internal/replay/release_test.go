package replay

import (
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

func TestReleasers(t *testing.T) {
	for _, tc := range []struct {
		wait, op trace.Op
		want     bool
	}{
		{trace.OpLock, trace.OpUnlock, true},
		{trace.OpLock, trace.OpSend, false},
		{trace.OpRecv, trace.OpClose, true},
		{trace.OpSend, trace.OpClose, false}, // a send on a closed channel panics; it is not released
		{trace.OpWGWait, trace.OpWGDone, true},
		{trace.OpWGWait, trace.OpWGAdd, false},
		{trace.OpCondWait, trace.OpCondBroadcast, true},
		{trace.OpUnlock, trace.OpLock, false}, // unlock never waits
		{trace.Op(200), trace.OpUnlock, false},
	} {
		if got := CanRelease(tc.wait, tc.op); got != tc.want {
			t.Errorf("CanRelease(%v, %v) = %v", tc.wait, tc.op, got)
		}
	}
	// Every operation that releases some wait says so.
	for w := range releasedBy {
		for op := trace.Op(1); op < 32; op++ {
			if CanRelease(trace.Op(w), op) && !Releases(op, false) {
				t.Errorf("%v releases %v but Releases(%v) is false", op, trace.Op(w), op)
			}
		}
	}
	if Releases(trace.OpOnce, true) || !Releases(trace.OpOnce, false) {
		t.Error("a Once releases only when it ran the function")
	}
}

func TestReleaseOp(t *testing.T) {
	for _, tc := range []struct {
		ev   trace.Event
		want trace.Op
	}{
		{trace.Event{Op: trace.OpSelect, Object: 8}, trace.OpRecv},
		{trace.Event{Op: trace.OpSelect, Object: 8, Sends: true}, trace.OpSend},
		{trace.Event{Op: trace.OpSelect}, trace.OpSelect}, // default case, or a channel the instrumenter could not name
		{trace.Event{Op: trace.OpLock, Object: 8}, trace.OpLock},
	} {
		if got := ReleaseOp(tc.ev); got != tc.want {
			t.Errorf("ReleaseOp(%+v) = %v, want %v", tc.ev, got, tc.want)
		}
	}
	// A select that received is released by a send on its channel, not by
	// another receive.
	sel := ReleaseOp(trace.Event{Op: trace.OpSelect, Object: 8})
	if !CanRelease(sel, trace.OpSend) || CanRelease(sel, trace.OpRecv) {
		t.Error("a select's receive case is released by sends, not receives")
	}
}
