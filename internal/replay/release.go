package replay

import "github.com/divergo/divergo/internal/trace"

// releasedBy holds, for each operation that can wait, the set (bit i for
// Op i) of operations by another goroutine on the same object that can end
// the wait (docs/FORMAT.md, "Sync events and releasers"). Readers that name
// releasers share it, so they agree on who released whom.
var releasedBy = [...]uint32{
	trace.OpLock:     bits(trace.OpUnlock, trace.OpRUnlock),
	trace.OpRLock:    bits(trace.OpUnlock), // readers wait only while a writer holds or waits
	trace.OpTryLock:  bits(trace.OpUnlock, trace.OpRUnlock),
	trace.OpRecv:     bits(trace.OpSend, trace.OpClose, trace.OpSelect),
	trace.OpSend:     bits(trace.OpRecv, trace.OpSelect),
	trace.OpSelect:   bits(trace.OpSend, trace.OpRecv, trace.OpClose, trace.OpSelect),
	trace.OpWGWait:   bits(trace.OpWGDone),
	trace.OpCondWait: bits(trace.OpCondSignal, trace.OpCondBroadcast),
	trace.OpOnce:     bits(trace.OpOnce),
}

func bits(ops ...trace.Op) uint32 {
	var s uint32
	for _, o := range ops {
		s |= 1 << o
	}
	return s
}

// ReleaseOp is the operation e stands for when releasers are matched: a
// select that knows its chosen case (Object is that case's channel) is
// the send or receive of that case; other events are their own Op.
func ReleaseOp(e trace.Event) trace.Op {
	if e.Op == trace.OpSelect && e.Object != 0 {
		if e.Sends {
			return trace.OpSend
		}
		return trace.OpRecv
	}
	return e.Op
}

// CanRelease reports whether operation op by one goroutine can end another
// goroutine's wait in operation wait on the same object.
func CanRelease(wait, op trace.Op) bool {
	return int(wait) < len(releasedBy) && op < 32 && releasedBy[wait]&(1<<op) != 0
}

// Releases reports whether an operation can end another goroutine's wait.
// A Once that waited ran nothing: the goroutine that ran the function is the
// releaser.
func Releases(op trace.Op, waited bool) bool {
	switch op {
	case trace.OpUnlock, trace.OpRUnlock, trace.OpSend, trace.OpRecv, trace.OpClose,
		trace.OpSelect, trace.OpWGDone, trace.OpCondSignal, trace.OpCondBroadcast:
		return true
	case trace.OpOnce:
		return !waited
	}
	return false
}
