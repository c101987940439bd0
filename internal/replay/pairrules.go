package replay

import (
	"container/heap"

	"github.com/divergo/divergo/internal/trace"
)

// pairing is the state of one run of [Pair]: per object, what the rule of
// its kind needs, and the waits not yet given a releaser.
type pairing struct {
	slack int64
	objs  map[uint64]*pobj
	out   *Releasers // where names go
	// waits holds every wait without a releaser yet, with the reason it
	// gets if none is found.
	waits map[SyncRef]Why
	// latest holds the waits named by the latest release at or before
	// their end (mutexes, WaitGroups, Once, and Cond waits FIFO did not
	// name), settled once the merge has passed their end.
	latest lheap
}

// pobj is what the pairing keeps of one object.
type pobj struct {
	ring  [ringLen]sev // the latest release-side events, in merge order
	nring int          // events ever put in ring
	ch    *pchan
	cond  queue // Cond waiters not yet signalled, oldest first
	first *sev  // Once: the first Do that did not wait (it ran the function)
	// unlock is the latest write unlock, kept apart from ring: a reader
	// waits for a writer, and the readers' RUnlocks since it unlocked
	// (x/sync's and the standard library's RWMutex hammer tests: ten
	// readers) pushed it out of the ring, leaving the reader without
	// its releaser.
	unlock    sev
	hasUnlock bool
}

// clockEps is how far apart two goroutines' stamps of one moment can be:
// chunks are converted to nanoseconds at different moments (a few tens
// of ns, docs/FORMAT.md, "Durations"). A wait that ended more than this
// before an operation was attempted was not ended by it.
const clockEps = 500

// maxValues bounds the values a channel's bookkeeping holds: more than a
// channel's capacity plus its blocked senders means receives the trace
// does not hold (code that is not instrumented) took them.
const maxValues = 1 << 16

// ringLen is how many release-side events an object remembers for the
// "latest before the end" rules: a mutex wait is settled as soon as the
// merge passes its end, so only the releases since its begin can be in the
// way.
const ringLen = 8

// pchan is a channel's FIFO bookkeeping (pairChan).
type pchan struct {
	sends   queue // values sent and not yet received, in order
	recvs   queue // receives that found no value yet: waiting receivers, or a value stamped late
	blocked queue // sends that waited, until a receive frees them
	closed  *sev
}

// queue is a FIFO of sync events.
type queue struct {
	q    []sev
	head int
}

func (q *queue) push(s *sev) { q.q = append(q.q, *s) }
func (q *queue) len() int    { return len(q.q) - q.head }
func (q *queue) peek() *sev  { return &q.q[q.head] }
func (q *queue) pop() sev {
	s := q.q[q.head]
	q.head++
	if q.head == len(q.q) {
		q.q, q.head = q.q[:0], 0
	} else if q.head > 32 && q.head*2 > len(q.q) {
		q.q = q.q[:copy(q.q, q.q[q.head:])]
		q.head = 0
	}
	return s
}

// drop removes the events for which stale is true.
func (q *queue) drop(stale func(*sev) bool) {
	out := q.q[:q.head]
	for i := q.head; i < len(q.q); i++ {
		if !stale(&q.q[i]) {
			out = append(out, q.q[i])
		}
	}
	q.q = out
	if q.head == len(q.q) {
		q.q, q.head = q.q[:0], 0
	}
}

func (pr *pairing) obj(id uint64) *pobj {
	o := pr.objs[id]
	if o == nil {
		o = &pobj{}
		pr.objs[id] = o
	}
	return o
}

// name makes r the releaser of wait w.
func (pr *pairing) name(w, r *sev) {
	if _, open := pr.waits[w.ref]; !open || w.ref.G == r.ref.G {
		return
	}
	delete(pr.waits, w.ref)
	t := r.ev.End
	if r.ev.Blocked {
		// A sender seen blocked whose value w took: it released w when
		// w returned.
		t = w.end
	}
	pr.out.of[w.ref] = Release{SyncRef: r.ref, Op: r.op, Block: r.ev.Block, Site: r.ev.Site, Time: t}
	pr.out.uses[r.ref]++
}

// notBlocked marks a wait that found its partner already waiting: it took
// longer than a wake-up for another reason (the goroutine was descheduled
// in a select or a failed try), and nothing released it.
func (pr *pairing) notBlocked(w *sev) {
	if _, open := pr.waits[w.ref]; open {
		pr.waits[w.ref] = WhyNotBlocked
	}
}

// apply takes one sync event, in the merge's order.
func (pr *pairing) apply(g *pgor, s *sev) {
	ev := &s.ev
	if ev.Waited {
		switch {
		case ev.Blocked:
			// Still blocked when the trace was written; a receive
			// stamped later may have taken its value (pairChan).
			pr.waits[s.ref] = WhyUnfinished
		case ev.End < ev.Begin:
			pr.waits[s.ref] = WhyUnfinished
			return
		case ev.Op == trace.OpSleep:
			pr.waits[s.ref] = WhySleep
			return
		case ev.Object == 0:
			pr.waits[s.ref] = WhyUnnamed
			return
		default:
			pr.waits[s.ref] = WhyNoRelease
		}
	}
	if ev.Object == 0 {
		return
	}
	o := pr.obj(ev.Object)
	switch s.op {
	case trace.OpSend, trace.OpRecv, trace.OpClose:
		pr.pairChan(o, s)
	case trace.OpLock, trace.OpRLock, trace.OpWGWait:
		if ev.Waited {
			heap.Push(&pr.latest, *s)
		}
	case trace.OpCondWait:
		if ev.Waited {
			o.cond.push(s)
			heap.Push(&pr.latest, *s)
		}
	case trace.OpCondSignal:
		o.remember(s)
		if o.cond.len() > 0 {
			w := o.cond.pop()
			pr.name(&w, s)
		}
	case trace.OpCondBroadcast:
		o.remember(s)
		for o.cond.len() > 0 {
			w := o.cond.pop()
			pr.name(&w, s)
		}
	case trace.OpOnce:
		if ev.Waited {
			heap.Push(&pr.latest, *s)
		} else if o.first == nil {
			f := *s
			o.first = &f
		}
	case trace.OpUnlock, trace.OpRUnlock, trace.OpWGDone:
		o.remember(s)
		if s.op == trace.OpUnlock {
			o.unlock, o.hasUnlock = *s, true
		}
	}
}

func (o *pobj) remember(s *sev) {
	o.ring[o.nring%ringLen] = *s
	o.nring++
}

// pairChan applies the channel rule. Go's channels are FIFO: values are
// received in the order they were sent, waiting receivers are served in the
// order they began to wait, and a receiver waits only when no value is
// there, so the send that ends its wait is the value it receives, the
// first one not received by a receiver before it. A blocked sender is freed
// by the first receive after it began to wait (taking its value or making
// room for it): so its releaser is that receive, whatever the capacity.
// Close releases every waiting receiver.
//
// Operations the trace does not hold (a timer's sends, code that is not
// instrumented, a select case whose channel was not named) would shift
// this count for good, so the bookkeeping forgets what contradicts a
// wait: a receive that waited found no value, so values sent more than the
// slack before it were received elsewhere; a waiting receiver (or a
// blocked sender) still there more than the slack after its wait ended was
// released by something unrecorded.
func (pr *pairing) pairChan(o *pobj, s *sev) {
	if o.ch == nil {
		o.ch = &pchan{}
	}
	c := o.ch
	old := s.at - pr.slack
	switch s.op {
	case trace.OpSend:
		if c.closed != nil {
			// Sending on a closed channel panics: this is another channel
			// at the same address.
			*c = pchan{}
		}
		// A waiting receiver that woke before this send was attempted
		// was released by something else (a send the trace does not
		// hold, or one the count gave another receiver): pairing it would
		// call this send "not blocked" and lose its own releaser.
		c.recvs.drop(func(r *sev) bool { return stale(r, old) || r.ev.Waited && r.end < s.from-clockEps })
		if c.recvs.len() > 0 {
			r := c.recvs.pop()
			if returnedFirst(&r, s) {
				// Both counted as waiting, and the receive returned well
				// before this send: the receive found the send parked
				// and freed it; its own "wait" was its goroutine being
				// slow to reach the select (ken_chan).
				pr.name(s, &r)
				pr.notBlocked(&r)
				return
			}
			pr.name(&r, s)
			if r.ev.Waited {
				pr.notBlocked(s) // a receiver was waiting: this send did not block
			} else {
				// A receive stamped before this send took its value
				// after it began to wait: it freed it.
				pr.name(s, &r)
			}
			return
		}
		if c.sends.len() == maxValues {
			c.sends.pop() // received by operations the trace does not hold
		}
		c.sends.push(s)
		if s.ev.Waited {
			c.blocked.drop(func(b *sev) bool { return b.end < old })
			c.blocked.push(s)
		}
	case trace.OpRecv:
		if s.ev.Waited {
			// No value was there when this receive began: values sent
			// before the slack, and blocked senders that had already
			// completed, were received by receives the count got wrong
			// (two senders that began to block in one order and
			// queued in the other) or does not hold.
			c.sends.drop(func(v *sev) bool {
				if v.ev.Waited {
					// A sender still waiting offers its value however long
					// ago it began (ken_chan: a send waiting 54 µs before
					// the receive that took it was dropped as stale).
					return v.end < s.at-clockEps
				}
				// A send that did not wait is stamped just before it is
				// tried: stamped before this receive began to wait, its
				// value was almost always gone by then (received by an
				// operation the count gave another value, or one the
				// trace does not hold). Dropped only past the slack, a
				// buffered channel's count stayed shifted (ken_chan). A
				// sender descheduled between its stamp and its send is
				// dropped wrongly, and the next receives get their
				// neighbours' values (docs/PERFORMANCE.md, "Releases the
				// stamps do not order").
				return v.at < s.at-clockEps
			})
			c.blocked.drop(func(b *sev) bool { return b.end < s.at-clockEps })
		}
		switch {
		case c.sends.len() > 0:
			v := c.sends.pop()
			switch {
			case returnedFirst(s, &v):
				// Both counted as waiting; this receive returned first:
				// it freed the parked sender and did not block itself
				// (the blocked queue below names it the send's releaser).
				pr.notBlocked(s)
			case returnedFirst(&v, s):
				// The send returned first: it found this receive parked
				// and freed it, and did not block itself.
				pr.name(s, &v)
				pr.notBlocked(&v)
				c.blocked.drop(func(b *sev) bool { return b.ref == v.ref })
			default:
				pr.name(s, &v)
			}
		case c.closed != nil:
			pr.name(s, c.closed)
		default:
			c.recvs.drop(func(r *sev) bool { return stale(r, old) })
			c.recvs.push(s)
		}
		c.blocked.drop(func(b *sev) bool { return b.end < old })
		if c.blocked.len() > 0 && c.blocked.peek().at <= s.at {
			b := c.blocked.pop()
			pr.name(&b, s)
		}
	case trace.OpClose:
		for c.recvs.len() > 0 {
			r := c.recvs.pop()
			pr.name(&r, s)
		}
		c.blocked = queue{}
		cl := *s
		c.closed = &cl
	}
}

// returnedFirst reports whether a and b, a send and a receive that paired
// and both counted as waiting, are a rendezvous where a returned clearly
// (by more than the clocks' skew) before b. On a rendezvous the side that
// came second completes it at once and the parked side returns only after
// being woken, so the one that returned first released the other; both
// count as waiting when the second side was descheduled on its way to the
// operation (a select's stamp is taken before its cases are evaluated).
func returnedFirst(a, b *sev) bool {
	return a.ev.Waited && b.ev.Waited && a.end+clockEps < b.end
}

// stale reports whether a receive still waiting for a value in the
// bookkeeping can no longer get one: it did not wait and was stamped before
// old, or it waited and its wait ended before old.
func stale(r *sev, old int64) bool {
	if r.ev.Waited {
		return r.end < old
	}
	return r.at < old
}

// settle names the releasers of the waits in latest that ended before t:
// every event attempted before t has been applied.
func (pr *pairing) settle(t int64) {
	for len(pr.latest) > 0 && pr.latest[0].end < t {
		w := heap.Pop(&pr.latest).(sev)
		if _, open := pr.waits[w.ref]; !open {
			continue // a Cond wait FIFO named
		}
		o := pr.objs[w.ev.Object]
		switch w.op {
		case trace.OpOnce:
			if o.first != nil {
				pr.name(&w, o.first)
			}
			continue
		case trace.OpCondWait:
			// The count of waiters and signals went wrong (a Signal not
			// under the lock, stamped out of order): forget this waiter.
			o.cond.drop(func(c *sev) bool { return c.ref == w.ref })
		}
		if r := o.latest(&w); r != nil {
			pr.name(&w, r)
		}
	}
}

// latest is the release that ended w by the "latest before the end" rule:
// for a lock with a ticket, the unlock of the acquisition just before it
// when that was a lock too; else the latest release-side event by another
// goroutine that can end w, attempted at or before w's end.
func (o *pobj) latest(w *sev) *sev {
	n := min(o.nring, ringLen)
	if w.op == trace.OpLock && w.ticket > 1 {
		for i := 1; i <= n; i++ {
			r := &o.ring[(o.nring-i)%ringLen]
			if r.op == trace.OpUnlock && r.ticket == w.ticket-1 && r.ref.G != w.ref.G {
				return r
			}
		}
	}
	for i := 1; i <= n; i++ {
		r := &o.ring[(o.nring-i)%ringLen]
		if r.ref.G != w.ref.G && r.at <= w.end && CanRelease(w.op, r.op) {
			return r
		}
	}
	if r := &o.unlock; o.hasUnlock && r.ref.G != w.ref.G && r.at <= w.end && CanRelease(w.op, r.op) {
		return r
	}
	return nil
}

// lheap orders waits by their end.
type lheap []sev

func (h lheap) Len() int           { return len(h) }
func (h lheap) Less(i, j int) bool { return h[i].end < h[j].end }
func (h lheap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *lheap) Push(x any)        { *h = append(*h, x.(sev)) }
func (h *lheap) Pop() any {
	old := *h
	s := old[len(old)-1]
	*h = old[:len(old)-1]
	return s
}
