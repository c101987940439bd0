package compare

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
)

// tokKind is the kind of a token: one step of a goroutine's execution as the
// correspondence sees it, with implied blocks put back and call depth known.
type tokKind uint8

// The first three are the replay's steps, with the same values.
const (
	tBlock   = tokKind(replay.Block) // a block of the current frame (probed or implied)
	tCall    = tokKind(replay.Call)  // the entry block of a new frame
	tExit    = tokKind(replay.Exit)  // the frame at depth returns
	tOutcome = tExit + 1             // outcome value of the last outcome TCP
	tSpawn   = tExit + 2             // go statement at block, val = its site
	tSync    = tExit + 3             // sync operation at block, val = op
	tEnd     = tExit + 4             // end of the stream
)

// token is one step. For tBlock and tCall, depth is the depth of the frame
// the block runs in (1 for the goroutine's function); for tExit, the depth of
// the frame that returns.
type token struct {
	kind  tokKind
	block int32
	depth int32
	// from is the last block of the frame the token continues, before the
	// token (for a call, the caller's, at depth-1); owner is that frame's
	// last block with an outcome TCP. They name the decision when two
	// tokens after an equal prefix differ: the stream reads ahead, so the
	// frames themselves are already past it.
	from  int32
	owner int32
	val   uint64
}

// at is the depth of the frame the token continues.
func (t *token) at() int32 {
	if t.kind == tCall {
		return t.depth - 1
	}
	return t.depth
}

// same reports whether two tokens are the same step of the program.
// Where they came from does not matter: after a divergent section the
// convergence point is the same step reached from different blocks.
func (t *token) same(u *token) bool {
	return t.kind == u.kind && t.block == u.block && t.depth == u.depth && t.val == u.val
}

// stream turns one goroutine's events into tokens. Its state is a batch of
// events, the replayer (call stack and a cache of implied paths), a few
// pending tokens: nothing grows with the length of the trace.
type stream struct {
	p   *program
	r   EventReader
	buf []trace.Event
	bi  int
	bn  int
	nev int64 // events read, for error messages
	eof bool
	// rerr is the reader's error after the events of the batch, returned
	// once they are taken.
	rerr error
	// raw is r's undecoded bytes, when it hands them out (a trace file):
	// lockstep then takes equal runs of block and outcome events as equal
	// bytes (rawRun), and events are decoded a few at a time, so that both
	// sides run out of decoded events together and go back to the bytes:
	// gap events at a time, twice as many at each refill of the token walk
	// and after each short run of bytes, up to the batch, and rawGap again
	// once lockstep took a long run of bytes.
	raw rawEvents
	gap int

	rp    *replay.Replayer
	steps []replay.Step // scratch: the replayer's steps for one event
	// lastOut is, per open frame, its last block with an outcome TCP (the
	// owner of the next outcome event), or noBlock.
	lastOut []int32
	q       []token
	qi      int
	c       *cache
	now     int64 // last timestamp seen (ns since the trace's start)
	// Time between timestamps is interpolated by instruction counts, at
	// the rate of the last interval (the stream does not look ahead).
	instrs   int64   // instructions of the blocks emitted
	instrsAt int64   // instrs when now was seen
	rate     float64 // ns per instruction over the last interval
	stamped  bool    // now is a real timestamp
	// open are the points whose next timestamp has not come yet: the
	// starts of sections (when.go).
	open []*startTime
	// taken counts the tokens consumed, lockstep's included: a token is a
	// step of internal/steps, so taken is where the stream is in the
	// goroutine's steps.
	taken   int64
	nsteps  int64 // the replay's steps accounted for (lockstep counts with it)
	nblocks int64 // block tokens emitted
	ntcps   int64 // TCP instances in them
	// blocked is the goroutine's last operation when it was still blocked
	// in it as the trace ended (Event.Blocked), for the report's words.
	blocked *trace.Event
}

// noteBlocked keeps a sync event the goroutine never returned from.
func (s *stream) noteBlocked(ev *trace.Event) {
	if ev.Blocked {
		e := *ev
		s.blocked = &e
	}
}

const batch = 4096

// cache is what a worker of Traces keeps from one stream to the next: the
// two streams' batches of events, and what streams learn of the program as
// they go (implied paths, and for lockstep, by current block, what block
// events that continue their frame add up to). The batches are 300 KB
// each (20 KB for streams read from their bytes: rawBatch events) and the
// rest costs a slice per block of the graph, so a trace of many short
// goroutines would otherwise spend its time allocating them. The worker's
// streams are read one pair at a time.
type cache struct {
	bufs  [2][]trace.Event // batch events each
	small [2][]trace.Event // rawBatch events each
	paths *replay.Paths
	moves [][]move // allocated on first use
	// points: the change and convergence points, for observers.
	points pointCache
}

func newCache(p *program) *cache { return &cache{paths: replay.NewPaths(p.replay)} }

// newStream reads r with the cache's batch for side (0 or 1: each stream
// of a pair has its own). raw says that the pair walks in lockstep and
// both readers hand out their bytes (rawEvents): r is then read from its
// bytes where lockstep can, and decoded rawGap events at a time.
func newStream(p *program, c *cache, side int, r EventReader, raw bool) *stream {
	s := &stream{p: p, r: r, c: c, rp: replay.NewReplayer(c.paths), q: make([]token, 0, 16)}
	if raw {
		s.raw, s.gap = r.(rawEvents), rawGap
		if c.small[side] == nil {
			c.small[side] = make([]trace.Event, rawBatch)
		}
		s.buf = c.small[side]
		return s
	}
	if c.bufs[side] == nil {
		c.bufs[side] = make([]trace.Event, batch)
	}
	s.buf = c.bufs[side]
	return s
}

// rawEvents is an [EventReader] that also hands out its undecoded events,
// as trace.EventReader's Raw and Skip do.
type rawEvents interface {
	Raw() ([]byte, uint64)
	Skip(n int, events, blocks uint64)
}

// rawGap is how many events a stream that has raw bytes decodes at first:
// the events lockstep cannot take as bytes (clocks, sync events, spawns,
// differences) and the token walk's, few between long runs of blocks in
// most traces. rawBatch is its batch, for the token walk's long sections.
const (
	rawGap   = 16
	rawBatch = 256
)

// refillSize is how many events the token walk decodes when the batch is
// empty.
func (s *stream) refillSize() int {
	if s.raw == nil {
		return len(s.buf)
	}
	n := s.gap
	s.gap = min(2*s.gap, len(s.buf))
	return n
}

// peek returns the next token without consuming it. The token is valid
// until the next call of next.
func (s *stream) peek() (*token, error) {
	for s.qi == len(s.q) {
		s.q = s.q[:0]
		s.qi = 0
		if err := s.fill(); err != nil {
			return nil, err
		}
	}
	return &s.q[s.qi], nil
}

// next consumes the token peek returned.
func (s *stream) next() {
	s.qi++
	s.taken++
}

func (s *stream) depth() int32 { return s.rp.Depth() }

// anomalies counts events the graph cannot explain (a block no path
// reaches, an exit of no open frame); both sides handle them the same way,
// so they never break the alignment, but reports show the count.
func (s *stream) anomalies() int64 { return s.rp.Anomalies }

// emit queues a token that is no step of the replay (outcome, spawn,
// sync, end): it continues the innermost frame.
func (s *stream) emit(t token) {
	t.from, t.owner = noBlock, noBlock
	if n := len(s.lastOut); n > 0 {
		t.from, t.owner = s.rp.Cur(), s.lastOut[n-1]
	}
	s.q = append(s.q, t)
}

// replayed queues the replayer's steps as tokens, following each frame's
// last outcome block on the way. It is the per-block path of the
// comparison: tokens are written in place and counters kept in locals.
func (s *stream) replayed(steps []replay.Step) {
	n0 := len(s.q)
	s.q = slices.Grow(s.q, len(steps))[:n0+len(steps)]
	s.account(steps, s.q[n0:])
}

// account follows the replayer's steps: each frame's last outcome block,
// the blocks, TCPs and instructions executed. With q set it also writes
// step i's token to q[i]; in lockstep (see lockstep.go) q is nil, because
// the tokens of equal events are equal and nobody reads them.
func (s *stream) account(steps []replay.Step, q []token) {
	lo := s.lastOut
	var nblocks, ntcps, instrs int64
	for i := range steps {
		st := &steps[i]
		owner := int32(noBlock)
		if n := len(lo); n > 0 {
			owner = lo[n-1]
		}
		if q != nil {
			q[i] = token{kind: tokKind(st.Kind), block: st.Block, depth: st.Depth, from: st.From, owner: owner}
		}
		if st.Kind == replay.Exit {
			if n := len(lo); n > 0 {
				lo = lo[:n-1]
			}
			continue
		}
		if st.Kind == replay.Call {
			lo = append(lo, noBlock)
		}
		bi := &s.p.blocks[st.Block]
		if bi.outcome != nil && len(lo) > 0 {
			lo[len(lo)-1] = st.Block
		}
		nblocks++
		ntcps += int64(bi.ntcp)
		instrs += int64(bi.instrs)
	}
	s.lastOut = lo
	s.nsteps += int64(len(steps))
	s.nblocks += nblocks
	s.ntcps += ntcps
	s.instrs += instrs
}

// fill reads one event and appends its tokens.
func (s *stream) fill() error {
	if s.bi == s.bn {
		if !s.eof {
			return s.refill(s.refillSize())
		}
		s.emit(token{kind: tEnd, depth: s.depth()})
		return nil
	}
	ev := &s.buf[s.bi]
	s.bi++
	s.nev++
	switch ev.Kind {
	case trace.EvBlock:
		b, err := s.blockID(ev.Block)
		if err != nil {
			return err
		}
		s.steps = s.rp.Block(b, s.steps[:0])
		s.replayed(s.steps)
	case trace.EvExit:
		b, err := s.blockID(ev.Block)
		if err != nil {
			return err
		}
		s.steps = s.rp.Exit(b, s.steps[:0])
		s.replayed(s.steps)
	case trace.EvOutcome:
		s.emit(token{kind: tOutcome, depth: s.depth(), val: ev.Value})
	case trace.EvSpawn:
		b, err := s.blockID(ev.Block)
		if err != nil {
			return err
		}
		// The go statement, not its ordinal: the ordinal counts the
		// statement's earlier executions, so once one run has executed it
		// more often (a select in a loop that took its case once more),
		// every later spawn would differ although both runs did the same
		// thing. Children are paired by ordinal (match.go), apart.
		s.emit(token{kind: tSpawn, block: b, depth: s.depth(), val: uint64(ev.Site)})
	case trace.EvSync:
		b, err := s.blockID(ev.Block)
		if err != nil {
			return err
		}
		s.stamp(ev.End)
		s.noteBlocked(ev)
		s.emit(token{kind: tSync, block: b, depth: s.depth(), val: uint64(ev.Op)})
	case trace.EvClock:
		s.stamp(ev.Time)
	case trace.EvPerturb:
		// divergo's own delay: timestamps, and no token, since two runs
		// under different seeds are delayed at different places.
		s.stamp(ev.Begin)
		s.stamp(ev.End)
	default:
		return fmt.Errorf("event %d: unknown event kind %d", s.nev, ev.Kind)
	}
	return nil
}

// refill reads the next batch of up to size events. At the end of the
// stream it leaves the batch empty with eof set, for fill to emit the end
// token.
func (s *stream) refill(size int) error {
	if s.rerr != nil {
		return s.rerr
	}
	size = min(size, len(s.buf))
	n, err := s.r.Read(s.buf[:size])
	if n < 0 || n > size {
		return fmt.Errorf("event reader returned %d events for a buffer of %d", n, size)
	}
	s.bi, s.bn = 0, n
	if errors.Is(err, io.EOF) {
		s.eof = true
	} else if err != nil {
		// The events before the error come first, so that a stream
		// reports its first defect whatever the size of its batches.
		err = fmt.Errorf("reading events after event %d: %w", s.nev+int64(n), err)
		if n == 0 {
			return err
		}
		s.rerr = err
		return nil
	}
	if n == 0 && !s.eof {
		return fmt.Errorf("reading events after event %d: reader returned no events and no error", s.nev)
	}
	return nil
}

// stamp records a timestamp.
func (s *stream) stamp(t int64) {
	if t <= s.now {
		return
	}
	if len(s.open) > 0 {
		s.closeOpen(t)
	}
	if n := s.instrs - s.instrsAt; n > 0 && s.stamped {
		s.rate = float64(t-s.now) / float64(n)
	}
	s.now, s.instrsAt, s.stamped = t, s.instrs, true
}

// clock estimates the time at the current point of the stream.
func (s *stream) clock() int64 {
	return s.now + int64(float64(s.instrs-s.instrsAt)*s.rate)
}

func (s *stream) blockID(id uint32) (int32, error) {
	if int64(id) >= int64(len(s.p.blocks)) {
		return 0, fmt.Errorf("event %d: block %d is not in the graph (%d blocks)", s.nev, id, len(s.p.blocks))
	}
	return int32(id), nil
}
