package compare

import "github.com/divergo/divergo/internal/trace"

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
		ea, err := a.event()
		if err != nil {
			return sideErr("a", err)
		}
		if ea == nil || !valid(ea, int(nb)) {
			// fill reports a bad event, with a's position.
			return nil
		}
		eb, err := b.event()
		if err != nil {
			return sideErr("b", err)
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
		var m *move
		if prev != nil {
			if m = prev.next; m == nil || m.to != to {
				m = prev.alt
			}
		}
		if m == nil || m.to != to {
			from := cur
			if prev != nil {
				from = prev.end
			}
			if m = findMove(a.c.moves[from], to); m == nil || m.anomalies != 0 {
				break
			}
			if prev != nil {
				prev.next, prev.alt = m, prev.next
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
	a.rp.Moved(prev.end, 0)
	if k := len(a.lastOut); k > 0 && lastOut != noBlock {
		a.lastOut[k-1] = lastOut
	}
	n := int64(i)
	a.bi += i
	b.bi += i
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
	// next is the move from end that followed this one last time and alt
	// the one before that (a loop whose branch alternates), guesses
	// equalRun checks (their to) before it searches. Moves never change
	// once made, so a guess into a slice since grown elsewhere is a stale
	// copy with the same content, still right.
	next, alt *move
}

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
	m := move{to: b, end: cur, lastOut: noBlock, anomalies: int32(s.rp.Anomalies - an)}
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

// event returns the stream's next event that is not a clock or a
// perturbation, unread, stamping the timestamps before it as fill does. It returns nil at the end of
// the stream, leaving the end token to fill, which makes it from the
// stream's state once lockstep has handed it over.
func (s *stream) event() (*trace.Event, error) {
	for {
		if s.bi == s.bn {
			if s.eof {
				return nil, nil
			}
			if err := s.refill(); err != nil {
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
