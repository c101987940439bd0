package replay

import (
	"container/heap"
	"fmt"
	"math"

	"github.com/divergo/divergo/internal/trace"
)

// Source is what [Pair] reads: the goroutines of a run and each one's
// events. A *[trace.Reader] is one.
type Source interface {
	Goroutines() []trace.GoroutineInfo
	Events(id uint64) (trace.EventIter, error)
}

var _ Source = (*trace.Reader)(nil)

// SyncRef names one sync event of a run: its goroutine (recorder id) and its
// number among that goroutine's [trace.EvSync] events, from 0. Readers that walk a
// goroutine's stream count its sync events and meet the same numbers.
type SyncRef struct {
	G uint64
	N uint64
}

// Release is the operation that ended a wait.
type Release struct {
	SyncRef
	Op    trace.Op // as [ReleaseOp] gives it: a select is its chosen case's send or receive
	Block uint32   // the block holding it
	Site  uint32   // the statement's site
	Time  int64    // its End: taken before it released
}

// Why says why a wait has no releaser, or that it has one ([Named]).
type Why uint8

// Reasons for a wait without releaser.
const (
	Named         Why = iota // a releaser was found
	WhySleep                 // time.Sleep: a timer ends it
	WhyUnnamed               // a select whose chosen case's channel was not recorded (see docs/FORMAT.md)
	WhyNoRelease             // nothing recorded on the object ended it: a timer's channel, or code that is not instrumented
	WhyUnfinished            // still blocked when the trace ended
	WhyLate                  // a reader met the wait before its release, which came later than it could wait for
	WhyNotBlocked            // the other side was already waiting: it never blocked, it was slow (descheduled)
)

var whyText = [...]string{
	Named:         "",
	WhySleep:      "sleep: a timer ended it",
	WhyUnnamed:    "select: the chosen case's channel was not recorded",
	WhyNoRelease:  "no recorded operation ended it: a timer's channel (time.Ticker, time.After) or code that is not instrumented",
	WhyUnfinished: "still blocked when the trace ended",
	WhyLate:       "its release was stamped too long after the wait ended",
	WhyNotBlocked: "it did not block (the other side was waiting): the goroutine was slow to run",
}

func (w Why) String() string {
	if int(w) < len(whyText) {
		return whyText[w]
	}
	return fmt.Sprintf("why(%d)", w)
}

// Releasers is the releaser of every wait of a run, by causality
// (docs/FORMAT.md, "Sync events and releasers"). Every reader that names
// releasers (waittime, the Perfetto export) asks it, so that they name the
// same ones. [Pair] computes all of it at once; readers that stream a trace
// use [NewReleasers] and [Releasers.Advance] to run the pairing a little
// ahead of their own merge, and forget what they used, so that memory
// stays bounded by what is in flight, not by the length of the trace.
type Releasers struct {
	of   map[SyncRef]Release
	why  map[SyncRef]Why
	uses map[SyncRef]int32

	pr  *pairing
	src Source
	h   pheap
	at  int64 // every event attempted at or before at has been applied
	err error
}

// Of returns the release that ended wait w, if one was found.
func (p *Releasers) Of(w SyncRef) (Release, bool) {
	r, ok := p.of[w]
	return r, ok
}

// Why says why wait w has no releaser (so far, when the pairing has not
// passed the end of w plus the slack); [Named] when it has one, and for
// events that did not wait.
func (p *Releasers) Why(w SyncRef) Why {
	if why, open := p.pr.waits[w]; open {
		return why
	}
	return p.why[w]
}

// Uses is the number of waits that event r ended (so far): readers keep
// what they need of a release (a snapshot of its goroutine's path) only
// for those.
func (p *Releasers) Uses(r SyncRef) int { return int(p.uses[r]) }

// Len is the number of waits with a releaser kept.
func (p *Releasers) Len() int { return len(p.of) }

// Forget drops what is kept about wait w, once read: its releaser, or its
// reason, and its share of its release's uses. A wait forgotten before the
// pairing named its releaser gets none.
func (p *Releasers) Forget(w SyncRef) {
	if r, ok := p.of[w]; ok {
		if p.uses[r.SyncRef]--; p.uses[r.SyncRef] <= 0 {
			delete(p.uses, r.SyncRef)
		}
	}
	delete(p.of, w)
	delete(p.why, w)
	delete(p.pr.waits, w)
}

// ForgetRelease drops the count of waits release r ended, once read.
func (p *Releasers) ForgetRelease(r SyncRef) { delete(p.uses, r) }

// DefaultPairSlack is how far a release-side stamp may be out of order with
// the operation it stamps, taken across goroutines: the time between
// reading the clock and the operation itself (perturbation comes before
// the clock) plus conversion error, unless the goroutine is descheduled in
// between. Bookkeeping older than this is taken to be about operations the
// trace does not hold (see pairChan).
const DefaultPairSlack = 50_000

// Pair reads every goroutine's sync events in the order of the moment each
// operation was attempted (its Begin when it waited, else its End: in both
// cases the time read before the operation) and names the releaser of each
// wait by the rule of its kind (docs/FORMAT.md). slack is
// [DefaultPairSlack] when 0. It holds the answer for every wait of the
// run; streaming readers use [NewReleasers].
func Pair(src Source, slack int64) (*Releasers, error) {
	p := NewReleasers(src, slack)
	if err := p.Advance(math.MaxInt64); err != nil {
		return nil, err
	}
	for ref, w := range p.pr.waits {
		p.why[ref] = w
	}
	clear(p.pr.waits)
	return p, nil
}

// NewReleasers prepares the pairing of src, to be run by Advance. Memory is
// one chunk per goroutine alive at the pairing's time, a few records per
// object, and a few words per wait not yet forgotten.
func NewReleasers(src Source, slack int64) *Releasers {
	if slack <= 0 {
		slack = DefaultPairSlack
	}
	p := &Releasers{
		of:   make(map[SyncRef]Release),
		why:  make(map[SyncRef]Why),
		uses: make(map[SyncRef]int32),
		src:  src,
		at:   math.MinInt64,
	}
	p.pr = &pairing{slack: slack, objs: make(map[uint64]*pobj), out: p, waits: make(map[SyncRef]Why)}
	infos := trace.ByID(src.Goroutines())
	for _, info := range infos {
		// Opened when the merge reaches its start: only goroutines alive
		// at once hold a chunk.
		p.h = append(p.h, &pgor{info: info, key: info.Start})
	}
	heap.Init(&p.h)
	return p
}

// Advance applies every sync event attempted at or before t. The releaser
// of a wait is final once the pairing has passed its end plus the slack
// (and, for the kinds named by the latest release before the end, its
// end).
func (p *Releasers) Advance(t int64) error {
	if p.err != nil || t <= p.at {
		return p.err
	}
	for p.h.Len() > 0 && p.h[0].key <= t {
		g := p.h[0]
		if g.it == nil {
			it, err := p.src.Events(g.info.ID)
			if err != nil {
				p.err = fmt.Errorf("opening events of goroutine %d: %w", g.info.ID, err)
				return p.err
			}
			g.it = it
		} else {
			p.pr.settle(g.key)
			p.pr.apply(g, &g.head)
		}
		ok, err := g.next()
		if err != nil {
			p.err = err
			return err
		}
		if !ok {
			heap.Pop(&p.h)
			continue
		}
		g.key = g.head.at
		heap.Fix(&p.h, 0)
	}
	p.at = t
	if t < math.MaxInt64 {
		t++
	}
	p.pr.settle(t)
	return nil
}

// pgor is one goroutine in the pairing merge.
type pgor struct {
	info trace.GoroutineInfo
	it   trace.EventIter
	key  int64
	n    uint64 // sync events read
	nev  int    // events read, for messages
	head sev
	// look is an event read past head (to find a lock's ticket) and not
	// yet used.
	look    trace.Event
	hasLook bool
	// held is, per lock object, the ticket of this goroutine's latest
	// acquisition: its next unlock releases that one.
	held map[uint64]uint64
	// stamp is the goroutine's latest timestamp read (a clock, a sync
	// event's end): an operation that did not wait took effect after it.
	stamp int64
}

// sev is a sync event in the merge.
type sev struct {
	ref SyncRef
	ev  trace.Event
	op  trace.Op // ReleaseOp(ev)
	at  int64    // when the operation was attempted
	// end is when it returned: the event's End, or never (the largest
	// int64) for an operation still blocked when the trace was written,
	// whose End is only when it was seen blocked. A send seen blocked can
	// still be taken by a receive stamped later (the receiver took its
	// value and the sender had not run since, or the goroutines were
	// copied at exit a moment apart): it must stay in the bookkeeping.
	end int64
	// from is the earliest moment it can have taken effect: its Begin
	// when it waited; otherwise the goroutine's previous timestamp, since
	// the stamp of an operation that did not wait is read after it
	// returned, and the goroutine can be descheduled in between (ken_chan:
	// a select's send stamped 1.5 µs after the receive it ended).
	from   int64
	ticket uint64
}

// next reads g's next sync event into head.
func (g *pgor) next() (bool, error) {
	for {
		var ev trace.Event
		if g.hasLook {
			ev, g.hasLook = g.look, false
		} else {
			if !g.it.Next() {
				if err := g.it.Err(); err != nil {
					return false, fmt.Errorf("reading goroutine %d after event %d: %w", g.info.ID, g.nev, err)
				}
				return false, nil
			}
			ev = g.it.Event()
			g.nev++
		}
		if ev.Kind == trace.EvClock {
			g.stamp = max(g.stamp, ev.Time)
		}
		if ev.Kind != trace.EvSync {
			continue
		}
		s := sev{ref: SyncRef{g.info.ID, g.n}, ev: ev, op: ReleaseOp(ev), at: ev.End, end: ev.End, from: min(g.stamp, ev.End)}
		g.n++
		if ev.Blocked {
			s.end = math.MaxInt64
		}
		if ev.Waited {
			s.at, s.from = ev.Begin, ev.Begin
		}
		if !ev.Blocked {
			g.stamp = max(g.stamp, ev.End)
		}
		s.at = max(s.at, g.key) // a goroutine's times only grow; keep the merge sane if not
		switch ev.Op {
		case trace.OpLock, trace.OpRLock, trace.OpTryLock:
			// The acquisition's ticket is the outcome right after it.
			if g.it.Next() {
				nx := g.it.Event()
				g.nev++
				if nx.Kind == trace.EvOutcome {
					s.ticket = nx.Value
				} else {
					g.look, g.hasLook = nx, true
				}
			}
			if s.ticket != 0 {
				if g.held == nil {
					g.held = make(map[uint64]uint64)
				}
				g.held[ev.Object] = s.ticket
			}
		case trace.OpUnlock, trace.OpRUnlock:
			s.ticket = g.held[ev.Object]
			delete(g.held, ev.Object)
		}
		g.head = s
		return true, nil
	}
}

type pheap []*pgor

func (h pheap) Len() int { return len(h) }
func (h pheap) Less(i, j int) bool {
	if h[i].key != h[j].key {
		return h[i].key < h[j].key
	}
	return h[i].info.ID < h[j].info.ID
}
func (h pheap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *pheap) Push(x any)   { *h = append(*h, x.(*pgor)) }
func (h *pheap) Pop() any {
	old := *h
	g := old[len(old)-1]
	*h = old[:len(old)-1]
	return g
}
