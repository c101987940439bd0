package trace

import "fmt"

// Kind is the kind of a decoded event.
type Kind uint8

// Event kinds. A goroutine's stream is a sequence of these, in the order the
// goroutine executed them.
const (
	EvBlock   Kind = iota + 1 // a probed TBB began: Block
	EvExit                    // the function whose entry block is Block returned (or unwound by a panic)
	EvOutcome                 // the outcome of the TCP of the last block: Value (index value, map key hash, lock ticket)
	EvSpawn                   // the go statement at Site (in block Block) started goroutine Child, the Ordinal-th spawn at that site by this goroutine
	EvSync                    // a synchronization operation: Op on Object at Site (in block Block); Begin/End when it waited
	EvClock                   // a timestamp (Time) at this point of the stream
	EvPerturb                 // divergo's schedule perturbation delayed the goroutine from Begin to End (format version 2)
	// EvPack is Object probes of the packed loop whose head is Block, as
	// codes in Value (format version 3, "Packed loops"), Ordinal+1 times in
	// a row (version 4). Readers never see it: [EventReader] and
	// [EventIter] give the block events it stands for.
	EvPack
)

var kindNames = [...]string{EvBlock: "block", EvExit: "exit", EvOutcome: "outcome", EvSpawn: "spawn", EvSync: "sync", EvClock: "clock", EvPerturb: "perturb", EvPack: "pack"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Op is a synchronization operation.
type Op uint8

// Synchronization operations. Acquire-like operations (those that can wait)
// carry Begin and End when the goroutine really waited; release-like ones
// carry End, the time they happened, so that readers can name who released a
// waiter.
const (
	OpLock Op = iota + 1
	OpUnlock
	OpRLock
	OpRUnlock
	OpTryLock
	OpSend
	OpRecv
	OpClose
	OpSelect
	OpWGAdd
	OpWGDone
	OpWGWait
	OpCondWait
	OpCondSignal
	OpCondBroadcast
	OpOnce
	OpSleep
)

var opNames = [...]string{
	OpLock: "lock", OpUnlock: "unlock", OpRLock: "rlock", OpRUnlock: "runlock", OpTryLock: "trylock",
	OpSend: "send", OpRecv: "recv", OpClose: "close", OpSelect: "select",
	OpWGAdd: "wg.add", OpWGDone: "wg.done", OpWGWait: "wg.wait",
	OpCondWait: "cond.wait", OpCondSignal: "cond.signal", OpCondBroadcast: "cond.broadcast",
	OpOnce: "once", OpSleep: "sleep",
}

func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", o)
}

// Event is one decoded event. Which fields are meaningful depends on Kind.
type Event struct {
	Kind    Kind
	Block   uint32 // EvBlock, EvExit (the function's entry block), EvSpawn, EvSync: the block holding the site; EvPack: the loop's head
	Site    uint32 // EvSpawn, EvSync: the graph's site (tbb.Graph.Sites): the statement itself
	Value   uint64 // EvOutcome; EvPack: the codes, the first in the highest bits of the used ones
	Child   uint64 // EvSpawn: the child's goroutine id
	Ordinal uint32 // EvSpawn: 1 for the first spawn at this site by this goroutine; EvPack: how many more times the same word follows (format version 4)
	Op      Op     // EvSync
	Object  uint64 // EvSync: identity of the mutex, channel, ... (stable within a run only); EvPack: the number of codes (block executions)
	Waited  bool   // EvSync: the goroutine blocked
	Sends   bool   // EvSync, OpSelect: the case chosen sends on Object (else it receives, or Object is 0)
	Case    uint32 // EvSync, OpSelect: the clause chosen, from 1 in source order, default counted (format version 6); 0 when not recorded
	Blocked bool   // EvSync: still blocked when the trace was written (Waited is set; End is when it was seen blocked)
	Begin   int64  // EvSync: when it began to wait (ns since the trace's start), if Waited; EvPerturb: when the delay began
	End     int64  // EvSync: when the operation completed (ns since start); EvPerturb: when the delay ended
	Time    int64  // EvClock: ns since the trace's start
}
