package runtime

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"
)

// Tickets are the lock TCP's outcome: the n-th acquisition of a mutex has
// ticket n (FORMAT.md). The count lives beside the program, not in it, and
// must not change what the program does:
//
//   - It holds no user object reachable. A counter that kept its mutex
//     alive, or that the tiny allocator put in the mutex's 16-byte block (an
//     8-byte counter allocated just after an 8-byte mutex does land there),
//     makes the collector see the mutex as live, and Go's goroutine-leak
//     profile then misses every goroutine blocked on it for ever. So no
//     object the table keeps is smaller than 16 bytes and pointer-free (the
//     tiny allocator's kind): an entry has a pointer, the key is padded to
//     16 bytes (a uint64 key boxed into the map's interface was exactly
//     such an object), and the lock is named by a weak pointer, whose handle
//     the Go runtime pads out of tiny blocks itself.
//   - It holds memory for live locks only. A cleanup on the lock deletes its
//     entry once the lock is unreachable, so a program that locks a million
//     short-lived mutexes keeps as many entries as it has mutexes alive.
//   - A reused address starts again at ticket 1. Memory freed by the
//     collector can hold a new mutex before the old one's cleanup has run;
//     the weak pointer tells them apart (it is cleared when the old mutex
//     is swept, before its memory can be handed out again).
//
// The cost is a weak pointer dereference per acquisition and, once per
// lock, a weak pointer and a cleanup (PERFORMANCE.md, "Lock tickets").
type ticketEntry struct {
	key  ticketKey          // the lock's address: its key in tickets
	lock weak.Pointer[byte] // the lock itself, for telling a reused address apart
	n    atomic.Uint64      // acquisitions so far
}

// ticketKey is a lock's address, padded so that boxing it into tickets'
// interface keys never takes the tiny allocator (see above).
type ticketKey struct {
	addr uint64
	_    uint64
}

// tickets maps a lock's address to its entry. sync.Map's loads take no
// lock, and the entries of different mutexes do not contend.
var tickets sync.Map // ticketKey → *ticketEntry

// ticket counts one more acquisition of the lock at p and returns its
// number. The caller holds the lock (for reading, in the case of RLock), so
// p is alive throughout.
func ticket[T any](p *T) uint64 {
	key := ticketKey{addr: addr(p)}
	b := (*byte)(unsafe.Pointer(p))
	for {
		v, ok := tickets.Load(key)
		if ok {
			e := v.(*ticketEntry)
			if e.lock.Value() == b {
				return e.n.Add(1)
			}
			// A lock that died had this address: start a new count.
			ne := newTicketEntry(key, b)
			if tickets.CompareAndSwap(key, v, ne) {
				return ne.n.Add(1)
			}
			continue // another reader of this RWMutex replaced it first
		}
		ne := newTicketEntry(key, b)
		if _, loaded := tickets.LoadOrStore(key, ne); !loaded {
			return ne.n.Add(1)
		}
	}
}

// newTicketEntry makes the entry of the lock at b and arranges for its
// removal when the lock becomes unreachable. The cleanup is attached even
// if the entry then loses a race to be stored: it only deletes its own
// entry. A lock outside the heap (a global) has no cleanup and lives as
// long as the program anyway.
func newTicketEntry(key ticketKey, b *byte) *ticketEntry {
	e := &ticketEntry{key: key, lock: weak.Make(b)}
	runtime.AddCleanup(b, dropTicket, e)
	return e
}

// dropTicket deletes e once its lock is unreachable, unless a new lock at
// the same address has replaced it already.
func dropTicket(e *ticketEntry) { tickets.CompareAndDelete(e.key, e) }

// ticketEntries counts the entries held, for tests and benchmarks.
func ticketEntries() int {
	n := 0
	tickets.Range(func(any, any) bool { n++; return true })
	return n
}
