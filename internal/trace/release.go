package trace

// releasedBy holds, for each operation that can wait, the set (bit i for
// Op i) of operations by another goroutine on the same object that can end
// the wait (docs/FORMAT.md, "Sync events and releasers"). Readers that name
// releasers share it, so they agree on who released whom.
var releasedBy = [...]uint32{
	OpLock:     bits(OpUnlock, OpRUnlock),
	OpRLock:    bits(OpUnlock), // readers wait only while a writer holds or waits
	OpTryLock:  bits(OpUnlock, OpRUnlock),
	OpRecv:     bits(OpSend, OpClose, OpSelect),
	OpSend:     bits(OpRecv, OpSelect),
	OpSelect:   bits(OpSend, OpRecv, OpClose, OpSelect),
	OpWGWait:   bits(OpWGDone),
	OpCondWait: bits(OpCondSignal, OpCondBroadcast),
	OpOnce:     bits(OpOnce),
}

func bits(ops ...Op) uint32 {
	var s uint32
	for _, o := range ops {
		s |= 1 << o
	}
	return s
}

// ReleaseOp is the operation e stands for when releasers are matched: a
// select that knows its chosen case (Object is that case's channel) is
// the send or receive of that case; other events are their own Op.
func ReleaseOp(e Event) Op {
	if e.Op == OpSelect && e.Object != 0 {
		if e.Sends {
			return OpSend
		}
		return OpRecv
	}
	return e.Op
}

// CanRelease reports whether operation op by one goroutine can end another
// goroutine's wait in operation wait on the same object.
func CanRelease(wait, op Op) bool {
	return int(wait) < len(releasedBy) && op < 32 && releasedBy[wait]&(1<<op) != 0
}

// Releases reports whether an operation can end another goroutine's wait.
// A Once that waited ran nothing: the goroutine that ran the function is the
// releaser.
func Releases(op Op, waited bool) bool {
	switch op {
	case OpUnlock, OpRUnlock, OpSend, OpRecv, OpClose,
		OpSelect, OpWGDone, OpCondSignal, OpCondBroadcast:
		return true
	case OpOnce:
		return !waited
	}
	return false
}
