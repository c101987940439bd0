package replay

import (
	"container/heap"
	"fmt"
	"math"

	"github.com/divergo/divergo/internal/trace"
)

// Timeline reads the goroutines of a run merged in one time order, the one
// every reader that looks across goroutines uses (waittime, the Perfetto
// export), so that they see each wait after the releases that could have
// ended it and name the same releasers. The order and the spreading of time
// are stated once, in docs/FORMAT.md ("Reading order" and "Durations").
//
// Each goroutine is a [Lane]. Its stream is cut at its timestamped events
// (clock, sync and perturb events): the head of the lane. The events before
// a head (blocks, exits, outcomes, go statements) are replayed into a
// [Stretch] and given their times as soon as the head is read; the head
// itself is handed to the consumer when the merge reaches its key. A lane
// is opened when the merge reaches its goroutine's start, so only
// goroutines alive at one time hold a chunk of their events in memory.
type Timeline struct {
	src   Source
	paths *Paths
	pairs *Releasers
	ahead int64
	h     laneHeap
	steps []Step // scratch for one event's steps
	// shared is the one stretch of every lane, without Hold: a stretch
	// is consumed in Ran, so lanes need not keep one each.
	shared *buf

	// Hold keeps a lane's stretch until its head has been applied (the
	// Perfetto export draws a stretch when its head is due), in a buffer
	// of the lane's own; otherwise the lanes share one, valid during Ran.
	Hold bool
}

// buf is a stretch and the events of its marks.
type buf struct {
	st    *Stretch
	marks []trace.Event
	// own: the buffer of one lane, which does not keep the size of a
	// long stretch for the rest of the goroutine's life.
	own bool
}

// maxKeep is the capacity a lane's own buffer keeps from one stretch to
// the next.
const maxKeep = 1 << 14

// reset empties b for a lane whose last block is last.
func (b *buf) reset(last int32) {
	if b.own && (cap(b.st.items) > maxKeep || cap(b.marks) > maxKeep) {
		b.st.items, b.marks = nil, nil
	}
	b.st.Reset()
	b.st.last = last
	b.marks = b.marks[:0]
}

// PairAhead is how far the pairing of releasers runs ahead of the merge,
// at least: a reader that keeps a release (waittime keeps a snapshot of the
// releaser's path) keeps it only for the waits the pairing has named when
// the merge reaches the release, and those are named once the pairing has
// passed the release by the slack. What the pairing holds is the waits of
// this much of the run.
const PairAhead = 1_000_000

// Lane is one goroutine of a [Timeline].
type Lane struct {
	Info trace.GoroutineInfo
	// X is the consumer's state for the goroutine, set in Open.
	X any
	// Head is the next timestamped event, valid from Ran to Apply.
	Head trace.Event
	// NSync counts the sync events read, the head included: a sync head is
	// the goroutine's sync event number NSync-1 ([SyncRef]).
	NSync uint64

	b      *buf
	rep    *Replayer
	last   int32 // Stretch.Last, kept from one stretch to the next
	items  []Item
	it     trace.EventIter
	n      int   // events read, for messages
	t0     int64 // the last timestamp: where the next stretch starts
	key    int64 // merge order: when the head is applied
	read   int64 // the key the head was read with, before any PutOff
	late   bool  // the head is a wait: after other events of the same key
	opened bool
}

// Items are the lane's last stretch with their times: what the goroutine
// did from its previous timestamp to the head's (or to its end, in Close).
func (l *Lane) Items() []Item { return l.items }

// Event is the event of a mark item.
func (l *Lane) Event(it Item) trace.Event { return l.b.marks[it.Mark] }

// Last is the last block the goroutine ran, or once its function has
// returned, that function's last block ([Stretch.Last]); NoBlock before the
// first.
func (l *Lane) Last() int32 { return l.last }

// T0 is the goroutine's last timestamp: after Apply, when it resumed
// running (the End of a wait); in Close, its end.
func (l *Lane) T0() int64 { return l.t0 }

// PutOff moves the head to time t in the merge, no earlier than its key,
// for a consumer that cannot apply it yet (Apply returns false).
func (l *Lane) PutOff(t int64) { l.key = max(l.key, t) }

// A Consumer is handed the lanes of a [Timeline] in its order.
type Consumer interface {
	// Open: the merge reached the goroutine's start. Nothing is read yet.
	Open(l *Lane) error
	// Ran: the goroutine's events up to its next head (or its end) have
	// been read and Items spread over the time since its last timestamp.
	Ran(l *Lane) error
	// Apply: the merge reached the head. false puts it off to the time set
	// by PutOff, when it is handed over again; a consumer that puts a head
	// off must apply it some time (waittime puts a wait off once).
	Apply(l *Lane) (bool, error)
	// Close: the goroutine's events are exhausted (Ran has seen its last
	// stretch).
	Close(l *Lane) error
}

// NewTimeline prepares the merge of src's goroutines. paths is the
// program's implied paths (one cache per reader goroutine); pairs, when not
// nil, is run ahead of the merge by [PairAhead] or twice slack, the larger,
// before each head is handed over. It fails on a goroutine listed twice.
func NewTimeline(src Source, paths *Paths, pairs *Releasers, slack int64) (*Timeline, error) {
	if slack <= 0 {
		slack = DefaultPairSlack
	}
	t := &Timeline{src: src, paths: paths, pairs: pairs, ahead: max(PairAhead, 2*slack)}
	infos := trace.ByID(src.Goroutines())
	for i, info := range infos {
		if i > 0 && infos[i-1].ID == info.ID {
			return nil, fmt.Errorf("goroutine %d is listed twice", info.ID)
		}
		t.h = append(t.h, &Lane{Info: info, key: info.Start, read: info.Start, last: NoBlock})
	}
	heap.Init(&t.h)
	return t, nil
}

// Run hands every lane to c in the merge's order.
func (t *Timeline) Run(c Consumer) error {
	for t.h.Len() > 0 {
		l := t.h[0]
		if t.pairs != nil {
			if err := t.pairs.Advance(satAdd(l.key, t.ahead)); err != nil {
				return err
			}
		}
		if !l.opened {
			it, err := t.src.Events(l.Info.ID)
			if err != nil {
				return fmt.Errorf("opening events of goroutine %d: %w", l.Info.ID, err)
			}
			l.it, l.opened = it, true
			l.rep = NewReplayer(t.paths)
			if t.Hold {
				l.b = &buf{st: NewStretch(t.paths.p), own: true}
			} else {
				if t.shared == nil {
					t.shared = &buf{st: NewStretch(t.paths.p)}
				}
				l.b = t.shared
			}
			l.t0 = max(l.Info.Start, 0)
			if err := c.Open(l); err != nil {
				return err
			}
		} else {
			ok, err := c.Apply(l)
			if err != nil {
				return err
			}
			if !ok {
				heap.Fix(&t.h, 0)
				continue
			}
			l.t0 = max(l.t0, resumes(l.Head))
		}
		more, err := t.read(l)
		if err != nil {
			return err
		}
		if !more {
			end := l.t0
			if l.Info.Ended {
				end = max(end, l.Info.End)
			}
			t.spread(l, end)
			if err := c.Ran(l); err != nil {
				return err
			}
			if err := c.Close(l); err != nil {
				return err
			}
			l.it, l.b, l.rep, l.items = nil, nil, nil, nil
			heap.Pop(&t.h)
			continue
		}
		if err := c.Ran(l); err != nil {
			return err
		}
		heap.Fix(&t.h, 0)
	}
	return nil
}

// read reads l's events up to its next timestamped one, the new head, and
// spreads the time up to it over those before. It returns false at the
// end of the goroutine's events.
func (t *Timeline) read(l *Lane) (bool, error) {
	l.b.reset(l.last)
	defer func() { l.last = l.b.st.last }()
	p := t.paths.p
	for {
		if !l.it.Next() {
			if err := l.it.Err(); err != nil {
				return false, fmt.Errorf("reading goroutine %d after event %d: %w", l.Info.ID, l.n, err)
			}
			return false, nil
		}
		ev := l.it.Event()
		l.n++
		switch ev.Kind {
		case trace.EvBlock, trace.EvExit:
			if ev.Kind == trace.EvBlock && !p.Has(int32(ev.Block)) {
				return false, fmt.Errorf("goroutine %d event %d: block %d is not in the graph", l.Info.ID, l.n, ev.Block)
			}
			if ev.Kind == trace.EvBlock {
				t.steps = l.rep.Block(int32(ev.Block), t.steps[:0])
			} else {
				t.steps = l.rep.Exit(int32(ev.Block), t.steps[:0])
			}
			l.b.st.Steps(t.steps)
		case trace.EvSpawn, trace.EvOutcome:
			l.b.st.Mark(int32(len(l.b.marks)))
			l.b.marks = append(l.b.marks, ev)
		case trace.EvSync, trace.EvClock, trace.EvPerturb:
			if ev.Kind == trace.EvSync {
				l.NSync++
				if !p.Has(int32(ev.Block)) {
					return false, fmt.Errorf("goroutine %d event %d: %s at block %d, which is not in the graph", l.Info.ID, l.n, ev.Op, ev.Block)
				}
			}
			l.Head = ev
			key, late := keyOf(ev)
			// A goroutine's own times only grow; should they not, keep
			// the merge order sane rather than trust them.
			l.key, l.read, l.late = max(key, l.read), max(key, l.read), late
			t.spread(l, runsUntil(ev))
			return true, nil
		default:
			return false, fmt.Errorf("goroutine %d event %d: unknown event kind %d", l.Info.ID, l.n, ev.Kind)
		}
	}
}

// spread times l's stretch from its last timestamp to t1, which becomes
// the last timestamp.
func (t *Timeline) spread(l *Lane, t1 int64) {
	l.b.st.In(l.rep.Cur(), l.rep.Depth())
	l.items = l.b.st.Spread(l.t0, t1)
	l.t0 = max(l.t0, t1)
}

// keyOf is a head's place in the merge: the time its operation completed
// (a sync's End, a clock's time, the end of a delay), and for a sync still
// blocked when the trace ended, the time it began to wait. late is set for
// waits (but sleeps): at equal keys they come after every other head, so
// that the release that ended a wait is applied before it.
func keyOf(ev trace.Event) (key int64, late bool) {
	switch ev.Kind {
	case trace.EvClock:
		return ev.Time, false
	case trace.EvPerturb:
		return max(ev.End, ev.Begin), false
	}
	if ev.Blocked {
		return ev.Begin, false
	}
	return ev.End, ev.Waited && ev.Op != trace.OpSleep
}

// runsUntil is when the goroutine stopped running its blocks for head ev:
// when a wait or a delay began, else the stamp itself.
func runsUntil(ev trace.Event) int64 {
	switch {
	case ev.Kind == trace.EvClock:
		return ev.Time
	case ev.Kind == trace.EvPerturb, ev.Waited:
		return ev.Begin
	}
	return ev.End
}

// resumes is when the goroutine runs its blocks again after head ev: the
// end of a wait or a delay, the stamp itself otherwise.
func resumes(ev trace.Event) int64 {
	if ev.Kind == trace.EvClock {
		return ev.Time
	}
	return ev.End
}

// laneHeap orders lanes by key, waits after other heads at equal keys, then
// by goroutine id.
type laneHeap []*Lane

func (h laneHeap) Len() int { return len(h) }
func (h laneHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.key != b.key {
		return a.key < b.key
	}
	if a.late != b.late {
		return !a.late
	}
	return a.Info.ID < b.Info.ID
}
func (h laneHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *laneHeap) Push(x any)   { *h = append(*h, x.(*Lane)) }
func (h *laneHeap) Pop() any {
	old := *h
	l := old[len(old)-1]
	*h = old[:len(old)-1]
	return l
}

// satAdd is a+b, at most the largest int64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
