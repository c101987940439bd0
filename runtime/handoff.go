package runtime

import "sync/atomic"

// A function literal that instrumented code hands to code divergo did not
// instrument (errgroup's g.Go, time.AfterFunc, a pool's Submit) may run in
// a goroutine that code starts: an orphan, which has no go statement to
// be paired by. Go's goroutine ids do not tell the order the library
// started them in (they come in batches per processor), and the order they
// first ran in is the schedule's: the k-th g.Go of one run fetched page k
// and was paired with the goroutine of another page in the other run.
//
// So the literal carries its creation: where instrumented code evaluates
// it, Handoff numbers it among the literals of that function its goroutine
// evaluated, and the first orphan that enters the literal takes the number
// as its ordinal (the literal's entry records it). Readers name and pair
// orphans of one creator and literal by it (internal/trace's
// orphanOrdinals, compare's keyOf): the k-th literal g.Go was given with
// the k-th in the other run. A literal run in a goroutine that already has
// a recorder (sort.Slice's less, a callback run inline, a literal a go
// statement of the module runs) leaves its number untaken; one entered by
// many orphans (an http.HandlerFunc) numbers the first only, and the others
// are paired as before, by goroutine id.

// Handoff is the creation of one function literal's value, handed to code
// that is not instrumented.
type Handoff struct {
	ordinal uint32
	taken   atomic.Bool
}

// Handoff numbers a literal whose entry block is entry, evaluated by g's
// goroutine: 1 for the first such literal it evaluated, and so on.
func (g *G) Handoff(entry uint32) *Handoff {
	if g.off {
		return nil
	}
	if g.handoffs == nil {
		g.handoffs = map[uint32]uint32{}
	}
	g.handoffs[entry]++
	return &Handoff{ordinal: g.handoffs[entry]}
}

// take returns h's number the first time, 0 after, and 0 for nil.
func (h *Handoff) take() uint32 {
	if h == nil || !h.taken.CompareAndSwap(false, true) {
		return 0
	}
	return h.ordinal
}

// EnterFrom is Enter for the literal h numbered: the first orphan that
// enters it takes the number as its ordinal.
func EnterFrom(h *Handoff, entry uint32) *G {
	if sess.state.Load() == stateOff {
		return offG
	}
	return enterFrom(h, entry)
}
