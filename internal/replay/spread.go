package replay

import "math"

// Stretch is what a goroutine did between two of its timestamps: the steps
// it ran, replayed, and the marks in between (events that take no time of
// their own, such as go statements and outcomes), in order. [Stretch.Spread]
// gives each its time. The rule is stated once, in docs/FORMAT.md
// ("Durations"), and every reader that times blocks (waittime, the
// Perfetto export) spreads through here, so that they agree to the
// nanosecond.
type Stretch struct {
	p     *Program
	items []Item
	total int64 // weight of the steps so far
	// last is the last block run, in this stretch or before, but once the
	// goroutine's function has returned, that function's last block;
	// NoBlock before the first.
	last int32
	// in is the block the goroutine is in at the end of the stretch (the
	// innermost open frame's current block), at depth inDepth; NoBlock
	// when no frame is open.
	in, inDepth int32
}

// Item is one step or mark of a stretch.
type Item struct {
	// Step is the step; its Kind is 0 for a mark.
	Step Step
	// Mark is the consumer's number for a mark ([Stretch.Mark]).
	Mark int32
	// Rest is set on the one step Spread adds to a stretch in which no block
	// began: the rest of the block the goroutine is in (Step.Block, in the
	// frame at Step.Depth; Depth 0 when no frame was open and the last
	// block run takes the time). It is no step of the stream.
	Rest bool
	// At is when the item began; Dur how long it ran: a block's (or a
	// call's entry block's) share of the stretch, 0 for exits and marks.
	At, Dur int64
	cum     int64 // weight of the steps up to and including this one
}

// NewStretch returns an empty stretch of p's blocks.
func NewStretch(p *Program) *Stretch { return &Stretch{p: p, last: NoBlock, in: NoBlock} }

// In sets the block the goroutine is in at the end of the stretch and the
// depth of its frame (a [Replayer]'s Cur and Depth): the block that takes
// the time of a stretch in which no block began.
func (s *Stretch) In(b, depth int32) { s.in, s.inDepth = b, depth }

// Steps appends replayed steps. A block or call weighs its instruction
// count ([Program.Instrs]); an exit weighs nothing.
func (s *Stretch) Steps(steps []Step) {
	for _, st := range steps {
		switch {
		case st.Kind != Exit:
			s.total += s.p.Instrs(st.Block)
			s.last = st.Block
		case st.Depth == 1 && st.From != NoBlock:
			s.last = st.From
		}
		s.items = append(s.items, Item{Step: st, cum: s.total})
	}
}

// Mark appends a mark numbered m by the caller: an event that takes no
// time, placed between the steps around it.
func (s *Stretch) Mark(m int32) {
	s.items = append(s.items, Item{Mark: m, cum: s.total})
}

// Len is the number of items appended since the last Reset.
func (s *Stretch) Len() int { return len(s.items) }

// Last is the last block run, in this stretch or an earlier one, or once
// the goroutine's function has returned, that function's last block.
// NoBlock before the first.
func (s *Stretch) Last() int32 { return s.last }

// Spread gives the time from t0 to t1 (none when t1 <= t0) to the items,
// in proportion to instruction counts: an item begins at
//
//	t0 + round((t1-t0) · w / W)
//
// where w is the weight of the steps before it and W that of the whole
// stretch, and a step lasts until the next step's begin would be, so the
// durations add up to t1-t0 exactly. A stretch in which no block began
// (the statements after a lock, up to the unlock in the same block; or
// after a return, up to the next sync in the caller's block) gets one more
// step, last, marked Rest: the block the goroutine is in takes the time
// (set by In); when no frame is open, the goroutine's function has
// returned, and its last block takes it (Last), as the timeline draws it
// after that function's frame. It returns the items, valid until the next
// Reset.
func (s *Stretch) Spread(t0, t1 int64) []Item {
	e := max(t1-t0, 0)
	if s.total == 0 && e > 0 && (s.in != NoBlock || s.last != NoBlock) {
		st := Step{Kind: Block, Block: s.in, Depth: s.inDepth}
		if s.in == NoBlock {
			st = Step{Kind: Block, Block: s.last}
		}
		s.total = s.p.Instrs(st.Block)
		s.items = append(s.items, Item{Step: st, Rest: true, cum: s.total})
	}
	var given int64
	for i := range s.items {
		it := &s.items[i]
		it.At = t0 + given
		if it.Step.Kind == Block || it.Step.Kind == Call {
			end := share(e, it.cum, s.total)
			it.Dur = end - given
			given = end
		}
	}
	return s.items
}

// share is round(e·w/total), 0 when total is 0.
func share(e, w, total int64) int64 {
	if total == 0 {
		return 0
	}
	return int64(math.Round(float64(e) * float64(w) / float64(total)))
}

// Reset empties the stretch; the block the goroutine is in stays.
func (s *Stretch) Reset() {
	s.items = s.items[:0]
	s.total = 0
}
