package compare

import (
	"encoding/binary"
	"math/bits"

	"github.com/divergo/divergo/internal/trace"
)

// Lockstep: while the two streams of a pair are in the same state (the
// same call stack, each frame at the same block, the same last outcome
// block per frame, no token pending), equal events give equal tokens, so
// the token walk of run would only find them same. lockstep compares the
// decoded events themselves instead, replays side a only and counts for
// both, and at the first pair of events that differ (or at the end of a
// stream) gives b a's state and returns: the token walk takes over at that
// event, exactly where it would have been, and hands back once both sides
// are in the same state again after a section converged.
//
// Clocks are the one thing each side keeps for itself: they are stamped on
// their own side, with that side's instruction count, in stream order as
// fill would.

// inStep reports whether the pair can walk in lockstep: nothing pending on
// either side and both in the same state.
func (c *pairCmp) inStep() bool {
	a, b := c.a, c.b
	if a.qi != len(a.q) || b.qi != len(b.q) || len(a.lastOut) != len(b.lastOut) {
		return false
	}
	for i := range a.lastOut {
		if a.lastOut[i] != b.lastOut[i] {
			return false
		}
	}
	return a.rp.SameState(b.rp)
}

// lockstep walks both streams over equal events, replaying a only. It
// returns with both in a's state, the differing events (or the end)
// unread.
func (c *pairCmp) lockstep() error {
	a, b := c.a, c.b
	an0 := a.rp.Anomalies
	defer func() {
		b.rp.SetState(a.rp)
		b.lastOut = append(b.lastOut[:0], a.lastOut...)
		b.rp.Anomalies += a.rp.Anomalies - an0
	}()
	nb := int64(len(c.p.blocks))
	for {
		if a.bi < a.bn && b.bi < b.bn {
			c.equalRun()
		}
		if a.bi == a.bn && b.bi == b.bn && c.rawRun() {
			continue
		}
		if a.bi < a.bn && b.bi < b.bn {
			// The common case: a block event on each side, in the batch.
			ea, eb := &a.buf[a.bi], &b.buf[b.bi]
			if ea.Kind == trace.EvBlock && eb.Kind == trace.EvBlock && ea.Block == eb.Block && int64(ea.Block) < nb {
				a.bi++
				a.nev++
				b.bi++
				b.nev++
				replayBoth(a, b, ea)
				continue
			}
		}
		ea, err := a.event(refillSize(a, b))
		if err != nil {
			return sideErr("a", err)
		}
		if ea == nil || !valid(ea, int(nb)) {
			// fill reports a bad event, with a's position.
			return nil
		}
		eb, err := b.event(refillSize(b, a))
		if err != nil {
			// The token walk reports it, or a's defect if a's next token
			// meets one first: a token can take more of a's events than
			// the one event lockstep read, and the two modes must name the
			// same defect when both traces have one (FuzzCompareFiles).
			return nil
		}
		if eb == nil || !sameEvent(ea, eb) {
			return nil
		}
		a.bi++
		a.nev++
		b.bi++
		b.nev++
		switch ea.Kind {
		case trace.EvBlock, trace.EvExit:
			replayBoth(a, b, ea)
		case trace.EvSync:
			a.stamp(ea.End)
			b.stamp(eb.End)
			a.noteBlocked(ea)
			b.noteBlocked(eb)
			a.taken++
			b.taken++
		default: // an outcome or a spawn: one token each
			a.taken++
			b.taken++
		}
	}
}

// equalRun takes the run of equal block events at the head of both batches
// whose move from the innermost frame's current block is cached, the
// steady state of a loop both sides take alike: per event two loads and a
// compare, a look-up in the move cache and a few additions in locals,
// added to both sides and to a's replayer once at the end of the run. A
// cached move from cur to b implies that b continues cur's frame (the
// frame's function is cur's), so Continues need not be asked.
func (c *pairCmp) equalRun() {
	a, b := c.a, c.b
	if a.c.moves == nil || a.rp.Depth() == 0 {
		return
	}
	as, bs := a.buf[a.bi:a.bn], b.buf[b.bi:b.bn]
	if len(bs) < len(as) {
		as = as[:len(bs)]
	}
	bs = bs[:len(as)]
	// Few values live across the loop, so that they stay in registers:
	// the current block is the last move's end, and a move with anomalies
	// is left to lockstep, so none is summed here.
	cur := a.rp.Cur()
	lastOut := int32(noBlock)
	var nblocks, ntcps, instrs int64
	var prev *move
	i := 0
	for ; i < len(as); i++ {
		ea, eb := &as[i], &bs[i]
		if ea.Kind != trace.EvBlock || eb.Kind != trace.EvBlock || ea.Block != eb.Block {
			break
		}
		// A block id past the graph becomes a negative or unknown to,
		// which no move has: the run stops there and lockstep reports it.
		to := int32(ea.Block)
		m := noMove
		if prev != nil {
			m = prev.after[uint32(to)%afterSlots]
		}
		if m == noMove || m.to != to {
			from := cur
			if prev != nil {
				from = prev.end
			}
			if m = findMove(a.c.moves[from], to); m == nil || m.anomalies != 0 {
				break
			}
			if prev != nil {
				prev.after[uint32(to)%afterSlots] = m
			}
		}
		if m.lastOut != noBlock {
			lastOut = m.lastOut
		}
		nblocks += int64(m.blocks)
		ntcps += int64(m.tcps)
		instrs += m.instrs
		prev = m
	}
	if i == 0 {
		return
	}
	a.bi += i
	b.bi += i
	c.tookRun(int64(i), prev.end, lastOut, nblocks, ntcps, instrs)
}

// rawRun is equalRun on the undecoded events of both streams, when both
// batches are used up: a block event whose id is below 8192 is one or two
// bytes (docs/FORMAT.md), so equal bytes are equal block events, taken
// without decoding them; an outcome likewise. It stops at the first byte
// that differs or is no such event (a clock, a sync event: event decodes
// those), at a move not cached or with anomalies, and at the end of the
// shorter chunk; it reports whether it took anything.
func (c *pairCmp) rawRun() bool {
	a, b := c.a, c.b
	if a.raw == nil || b.raw == nil || a.c.moves == nil || a.rp.Depth() == 0 {
		return false
	}
	ab, an := a.raw.Raw()
	bb, bn := b.raw.Raw()
	// An event takes a byte at least, so the first left bytes hold no
	// more events than both chunks have.
	n := int(min(uint64(min(len(ab), len(bb))), an, bn))
	ab, bb = ab[:n], bb[:n]
	sum := runSums{lastOut: noBlock}
	var prev *move
	i, events, outcomes := 0, 0, int64(0)
	for i < n {
		// The bytes equal on both sides, a window at a time, so that a
		// run stopped early (at a clock, a sync event) did not compare
		// the rest of the chunk.
		from := i
		lim := min(n, i+rawWindow)
		eq := i + commonPrefix(ab[i:lim], bb[i:lim])
		if prev == nil {
			// The first block: its move from the frame's current block.
			to, w := blockAt(ab[:eq], i)
			if w == 0 {
				break
			}
			m := findMove(a.c.moves[a.rp.Cur()], to)
			if m == nil || m.anomalies != 0 {
				break
			}
			sum.add(m)
			prev = m
			i += w
			events++
		}
		var used, twos int
		used, twos, prev, sum = blockBytes(ab[i:eq], prev, a.c.moves, sum)
		i += used
		events += used - twos
		if i < eq && ab[i] == outcomeByte {
			// An outcome: one token each, in the frame where it is.
			if w := rawOutcome(ab[i:eq]); w > 0 {
				i += w
				events++
				outcomes++
				continue
			}
		}
		if i == from || eq < lim || lim == n {
			break
		}
		// The window ended inside a run: the next one.
	}
	if events == 0 {
		return false
	}
	a.raw.Skip(i, uint64(events), uint64(int64(events)-outcomes))
	b.raw.Skip(i, uint64(events), uint64(int64(events)-outcomes))
	end := a.rp.Cur()
	if prev != nil {
		end = prev.end
	}
	c.tookRun(int64(events), end, sum.lastOut, sum.blocks, sum.tcps, sum.instrs)
	a.taken += outcomes
	b.taken += outcomes
	// A long run: the bytes pay, decode little before the next. A short
	// one (a clock or a sync event every few events): decode more, so that
	// such a trace is read in batches as it was without bytes.
	gap := rawGap
	if events < rawLong {
		gap = min(2*a.gap, len(a.buf))
	}
	a.gap, b.gap = gap, gap
	return true
}

// rawLong is the run of events from bytes that sends a stream back to
// decoding rawGap events at a time.
const rawLong = 64

// rawWindow is how many bytes rawRun compares ahead of what it took.
const rawWindow = 512

// runSums is what a run of moves adds up to: four fields, which the
// compiler keeps in registers.
type runSums struct {
	blocks, tcps, instrs int64
	lastOut              int32
}

func (s *runSums) add(m *move) {
	if m.lastOut != noBlock {
		s.lastOut = m.lastOut
	}
	s.blocks += int64(m.blocks)
	s.tcps += int64(m.tcps)
	s.instrs += m.instrs
}

// blockAt decodes the block event at x[i] whose id takes one or two bytes
// of x, and returns its id and length, or a length of 0.
func blockAt(x []byte, i int) (int32, int) {
	if i >= len(x) {
		return 0, 0
	}
	c0 := x[i]
	switch {
	case c0&0x81 == 0:
		return int32(c0 >> 1), 1
	case c0&0x81 == 0x80 && i+1 < len(x) && x[i+1] < 0x80:
		return int32(c0&0x7f)>>1 | int32(x[i+1])<<6, 2
	}
	return 0, 0
}

// blockBytes takes the block events at the start of x, equal on both
// sides, whose moves follow from prev (not nil) through its guesses or the
// cache, and returns the bytes they took, how many of them were two-byte
// events, the last move and the sums. It is the loop of rawRun on its own,
// so that its few values stay in registers.
func blockBytes(x []byte, prev *move, moves [][]move, sum runSums) (int, int, *move, runSums) {
	i, twos := 0, 0
	for i < len(x) {
		c0 := x[i]
		var to int32
		w := 1
		if c0&0x81 == 0 { // one byte, even: a block
			to = int32(c0 >> 1)
		} else if c0&0x81 == 0x80 && i+1 < len(x) && x[i+1] < 0x80 { // two
			to, w = int32(c0&0x7f)>>1|int32(x[i+1])<<6, 2
		} else {
			break
		}
		m := prev.after[uint32(to)%afterSlots]
		if m.to != to {
			if m = findMove(moves[prev.end], to); m == nil || m.anomalies != 0 {
				break
			}
			prev.after[uint32(to)%afterSlots] = m
		}
		lo := m.lastOut
		if lo == noBlock {
			lo = sum.lastOut
		}
		sum.lastOut = lo
		sum.blocks += int64(m.blocks)
		sum.tcps += int64(m.tcps)
		sum.instrs += m.instrs
		prev = m
		i += w
		twos += w - 1
	}
	return i, twos, prev, sum
}

// commonPrefix returns how many bytes x and y have equal at their start.
func commonPrefix(x, y []byte) int {
	n := min(len(x), len(y))
	i := 0
	for ; i+8 <= n; i += 8 {
		if d := binary.LittleEndian.Uint64(x[i:]) ^ binary.LittleEndian.Uint64(y[i:]); d != 0 {
			return i + bits.TrailingZeros64(d)/8
		}
	}
	for i < n && x[i] == y[i] {
		i++
	}
	return i
}

// outcomeByte is the first byte of an outcome event (docs/FORMAT.md).
const outcomeByte = byte(trace.EvOutcome)<<1 | 1

// rawOutcome returns the length of the outcome event at the start of x,
// or 0 when x does not hold it whole. Values of up to nine bytes (below
// 2^63) are taken; longer ones are left to the decoder, which checks them.
func rawOutcome(x []byte) int {
	for j := 1; j < len(x) && j <= 9; j++ {
		if x[j] < 0x80 {
			return j + 1
		}
	}
	return 0
}

// tookRun accounts for a run of n equal events on both sides, the block
// events among them each a cached move: a's replayer ends at end, the
// innermost frame's last outcome block is lastOut (unless noBlock), and
// both sides add the sums.
func (c *pairCmp) tookRun(n int64, end, lastOut int32, nblocks, ntcps, instrs int64) {
	a, b := c.a, c.b
	a.rp.Moved(end, 0)
	if k := len(a.lastOut); k > 0 && lastOut != noBlock {
		a.lastOut[k-1] = lastOut
	}
	a.nev += n
	b.nev += n
	a.nblocks += nblocks
	b.nblocks += nblocks
	a.ntcps += ntcps
	b.ntcps += ntcps
	a.instrs += instrs
	b.instrs += instrs
	// A move continues its frame: its steps are all blocks.
	a.taken += nblocks
	b.taken += nblocks
}

// findMove returns the move of ms (the moves from one block) to block to,
// or nil.
func findMove(ms []move, to int32) *move {
	for i := range ms {
		if ms[i].to == to {
			return &ms[i]
		}
	}
	return nil
}

// replayBoth takes a block or exit event that both sides have: a replays
// it, b gets the counts, and both consume its steps.
func replayBoth(a, b *stream, ev *trace.Event) {
	nblocks, ntcps, instrs, steps := a.nblocks, a.ntcps, a.instrs, a.nsteps
	if ev.Kind == trace.EvBlock {
		a.block(int32(ev.Block))
	} else {
		a.steps = a.rp.Exit(int32(ev.Block), a.steps[:0])
		a.account(a.steps, nil)
	}
	b.nblocks += a.nblocks - nblocks
	b.ntcps += a.ntcps - ntcps
	b.instrs += a.instrs - instrs
	n := a.nsteps - steps
	a.taken += n
	b.taken += n
}

// move is what a block event that continues its frame adds up to from a
// given current block: the implied path to the event's block, the block,
// the implied blocks that follow it. It depends on the two blocks alone,
// so lockstep replays such an event once per pair of blocks and then only
// adds it up.
type move struct {
	to        int32 // the event's block
	end       int32 // the frame's current block after the event
	lastOut   int32 // the last block on the way with an outcome TCP, or noBlock
	anomalies int32 // the replayer's, on the way (no implied path)
	blocks    int32
	tcps      int32
	instrs    int64
	// after holds the moves from end that followed this one, by their
	// block id modulo afterSlots, the guess equalRun and blockBytes check
	// (its to) before they search: one load that depends on the previous
	// move and on the event, and a test that fails only when two blocks
	// after this one share a slot. (Two guesses, the last and the one
	// before, tested in turn, made a loop whose branch goes both ways at
	// random mispredict about half of its turns.) Moves never change once
	// made, so a guess into a slice since grown elsewhere is a stale copy
	// with the same content, still right.
	after [afterSlots]*move
}

const afterSlots = 8

// noMove is the guess of a move that has none yet: never nil, so that
// blockBytes loads a guess without testing it, and never taken, since no
// block event's id is -1 there (ids of one or two bytes).
var noMove = &move{to: -1, end: noBlock, lastOut: noBlock}

var noMoves = [afterSlots]*move{noMove, noMove, noMove, noMove, noMove, noMove, noMove, noMove}

// block takes a block event in lockstep, where no tokens are needed.
func (s *stream) block(b int32) {
	cur, ok := s.rp.Continues(b)
	if !ok {
		s.steps = s.rp.Block(b, s.steps[:0])
		s.account(s.steps, nil)
		return
	}
	c := s.c
	if c.moves == nil {
		c.moves = make([][]move, len(s.p.blocks))
	}
	for i := range c.moves[cur] {
		if m := &c.moves[cur][i]; m.to == b {
			s.rp.Moved(m.end, int64(m.anomalies))
			if n := len(s.lastOut); n > 0 && m.lastOut != noBlock {
				s.lastOut[n-1] = m.lastOut
			}
			s.nsteps += int64(m.blocks)
			s.nblocks += int64(m.blocks)
			s.ntcps += int64(m.tcps)
			s.instrs += m.instrs
			return
		}
	}
	an := s.rp.Anomalies
	s.steps = s.rp.Block(b, s.steps[:0])
	s.account(s.steps, nil)
	m := move{to: b, end: cur, lastOut: noBlock, anomalies: int32(s.rp.Anomalies - an), after: noMoves}
	for _, st := range s.steps {
		bi := &s.p.blocks[st.Block]
		m.end = st.Block
		if bi.outcome != nil {
			m.lastOut = st.Block
		}
		m.blocks++
		m.tcps += bi.ntcp
		m.instrs += int64(bi.instrs)
	}
	c.moves[cur] = append(c.moves[cur], m)
}

// refillSize is how many events s decodes in lockstep when its batch is
// empty: with raw bytes on both sides, as many as o has left, so that both
// batches run out together and rawRun can take the bytes after them, or
// gap events when o's batch is empty too.
func refillSize(s, o *stream) int {
	switch {
	case s.raw == nil:
		return len(s.buf)
	case o.bi < o.bn:
		return o.bn - o.bi
	}
	return s.gap
}

// event returns the stream's next event that is not a clock or a
// perturbation, unread, stamping the timestamps before it as fill does,
// decoding up to size events when its batch is empty. It returns nil at
// the end of the stream, leaving the end token to fill, which makes it
// from the stream's state once lockstep has handed it over.
func (s *stream) event(size int) (*trace.Event, error) {
	for {
		if s.bi == s.bn {
			if s.eof {
				return nil, nil
			}
			if err := s.refill(size); err != nil {
				return nil, err
			}
			continue
		}
		ev := &s.buf[s.bi]
		switch ev.Kind {
		case trace.EvClock:
			s.stamp(ev.Time)
		case trace.EvPerturb:
			s.stamp(ev.Begin)
			s.stamp(ev.End)
		default:
			return ev, nil
		}
		s.bi++
		s.nev++
	}
}

// valid reports whether fill takes ev without an error.
func valid(ev *trace.Event, nblocks int) bool {
	switch ev.Kind {
	case trace.EvBlock, trace.EvExit, trace.EvSpawn, trace.EvSync:
		return int64(ev.Block) < int64(nblocks)
	case trace.EvOutcome:
		return true
	}
	return false
}

// sameEvent reports whether two valid events give the same tokens from
// the same state: what token.same compares of them (block, outcome value,
// spawn site, sync operation), not times, objects, goroutine ids or spawn
// ordinals.
func sameEvent(x, y *trace.Event) bool {
	if x.Kind != y.Kind {
		return false
	}
	switch x.Kind {
	case trace.EvBlock, trace.EvExit:
		return x.Block == y.Block
	case trace.EvOutcome:
		return x.Value == y.Value
	case trace.EvSpawn:
		return x.Block == y.Block && x.Site == y.Site
	case trace.EvSync:
		return x.Block == y.Block && x.Op == y.Op
	}
	return false
}
