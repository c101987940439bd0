package compare

import (
	"errors"
	"fmt"
	"io"

	"github.com/divergo/divergo/internal/trace"
)

// tokKind is the kind of a token: one step of a goroutine's execution as the
// correspondence sees it, with implied blocks put back and call depth known.
type tokKind uint8

const (
	tBlock   tokKind = iota + 1 // a block of the current frame (probed or implied)
	tCall                       // the entry block of a new frame
	tExit                       // the frame at depth returns
	tOutcome                    // outcome value of the last outcome TCP
	tSpawn                      // go statement at block, val = ordinal
	tSync                       // sync operation at block, val = op
	tEnd                        // end of the stream
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

// frame is one active function call.
type frame struct {
	fn    int32
	entry int32
	cur   int32 // last block executed in the frame
	// lastOutcome is the last block of the frame with an outcome TCP, the
	// owner of the next outcome event.
	lastOutcome int32
}

// cachedPath is a path from some block to block to (noBlock for the
// function's exit) through implied blocks.
type cachedPath struct {
	to   int32
	ok   bool
	path []int32
}

// stream turns one goroutine's events into tokens. Its state is a batch of
// events, the call stack, a few pending tokens and a cache of implied paths:
// nothing grows with the length of the trace.
type stream struct {
	p   *program
	r   EventReader
	buf []trace.Event
	bi  int
	bn  int
	nev int64 // events read, for error messages
	eof bool

	frames []frame
	q      []token
	qi     int
	now    int64 // last timestamp seen (ns since the trace's start)
	// Time between timestamps is interpolated by instruction counts, at
	// the rate of the last interval (the stream does not look ahead).
	instrs   int64   // instructions of the blocks emitted
	instrsAt int64   // instrs when now was seen
	rate     float64 // ns per instruction over the last interval
	stamped  bool    // now is a real timestamp
	// paths caches implied paths by source block: a block has few
	// successors worth caching, so a short list beats a map.
	paths [][]cachedPath
	// anomalies counts events the graph cannot explain (a block no path
	// reaches, an exit of no open frame); both sides handle them the same
	// way, so they never break the alignment, but reports show the count.
	anomalies int64
	taken     int64 // tokens consumed
	nblocks   int64 // block tokens emitted
	ntcps     int64 // TCP instances in them
}

const batch = 4096

func newStream(p *program, r EventReader) *stream {
	return &stream{p: p, r: r, buf: make([]trace.Event, batch), paths: make([][]cachedPath, len(p.blocks)), q: make([]token, 0, 16)}
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

func (s *stream) depth() int32 { return int32(len(s.frames)) }

func (s *stream) top() *frame {
	if len(s.frames) == 0 {
		return nil
	}
	return &s.frames[len(s.frames)-1]
}

func (s *stream) emit(t token) {
	t.from, t.owner = noBlock, noBlock
	if n := len(s.frames); n > 0 {
		f := &s.frames[n-1]
		t.from, t.owner = f.cur, f.lastOutcome
	}
	if t.kind == tBlock || t.kind == tCall {
		bi := &s.p.blocks[t.block]
		s.nblocks++
		s.ntcps += int64(bi.ntcp)
		s.instrs += int64(bi.instrs)
	}
	s.q = append(s.q, t)
}

// fill reads one event and appends its tokens.
func (s *stream) fill() error {
	if s.bi == s.bn {
		if s.eof {
			s.emit(token{kind: tEnd, depth: s.depth()})
			return nil
		}
		n, err := s.r.Read(s.buf)
		if n < 0 || n > len(s.buf) {
			return fmt.Errorf("event reader returned %d events for a buffer of %d", n, len(s.buf))
		}
		s.bi, s.bn = 0, n
		if errors.Is(err, io.EOF) {
			s.eof = true
		} else if err != nil {
			return fmt.Errorf("reading events after event %d: %w", s.nev, err)
		}
		if n == 0 {
			if !s.eof {
				return fmt.Errorf("reading events after event %d: reader returned no events and no error", s.nev)
			}
			s.emit(token{kind: tEnd, depth: s.depth()})
		}
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
		s.block(b)
	case trace.EvExit:
		b, err := s.blockID(ev.Block)
		if err != nil {
			return err
		}
		s.exit(b)
	case trace.EvOutcome:
		s.emit(token{kind: tOutcome, depth: s.depth(), val: ev.Value})
	case trace.EvSpawn:
		b, err := s.blockID(ev.Block)
		if err != nil {
			return err
		}
		s.emit(token{kind: tSpawn, block: b, depth: s.depth(), val: uint64(ev.Ordinal)})
	case trace.EvSync:
		b, err := s.blockID(ev.Block)
		if err != nil {
			return err
		}
		s.stamp(ev.End)
		s.emit(token{kind: tSync, block: b, depth: s.depth(), val: uint64(ev.Op)})
	case trace.EvClock:
		s.stamp(ev.Time)
	default:
		return fmt.Errorf("event %d: unknown event kind %d", s.nev, ev.Kind)
	}
	return nil
}

// stamp records a timestamp.
func (s *stream) stamp(t int64) {
	if t <= s.now {
		return
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

// block handles a probed block: a call when it is a function entry, else
// the next block of its frame, with the implied blocks on the way.
func (s *stream) block(b int32) {
	bi := &s.p.blocks[b]
	t := s.top()
	if t == nil || s.p.isCall(b) {
		s.call(b)
		return
	}
	if bi.fn != t.fn {
		// A block of an outer frame: the frames above returned without an
		// exit event (the runtime lost it). Close them; or, if no frame
		// runs this function, take it as a call.
		i := len(s.frames) - 1
		for i >= 0 && s.frames[i].fn != bi.fn {
			i--
		}
		if i < 0 {
			s.anomalies++
			s.call(b)
			return
		}
		s.anomalies++
		for len(s.frames)-1 > i {
			s.emit(token{kind: tExit, block: s.top().entry, depth: s.depth()})
			s.frames = s.frames[:len(s.frames)-1]
		}
		t = s.top()
	}
	path, ok := s.path(t.cur, b)
	if !ok {
		s.anomalies++
	}
	for _, m := range path {
		s.step(t, m)
	}
	s.step(t, b)
	s.eager(t)
}

// call opens a frame at entry block b.
func (s *stream) call(b int32) {
	s.emit(token{kind: tCall, block: b, depth: s.depth() + 1})
	s.frames = append(s.frames, frame{fn: s.p.blocks[b].fn, entry: b, cur: b, lastOutcome: noBlock})
	t := s.top()
	if s.p.blocks[b].outcome != nil {
		t.lastOutcome = b
	}
	s.eager(t)
}

// step emits block b of frame t.
func (s *stream) step(t *frame, b int32) {
	s.emit(token{kind: tBlock, block: b, depth: s.depth()})
	t.cur = b
	if s.p.blocks[b].outcome != nil {
		t.lastOutcome = b
	}
}

// eager emits the implied blocks that must follow the frame's current block
// because it has a single successor, so that whatever the block's successor
// evaluates (a loop condition's calls) is attributed to the right block.
func (s *stream) eager(t *frame) {
	for n := 0; n < len(s.p.blocks); n++ {
		bi := &s.p.blocks[t.cur]
		if bi.exit || len(bi.succs) != 1 || s.p.blocks[bi.succs[0]].probe {
			return
		}
		s.step(t, bi.succs[0])
	}
}

// exit handles the return of the function whose entry block is e.
func (s *stream) exit(e int32) {
	i := len(s.frames) - 1
	for i >= 0 && s.frames[i].entry != e {
		i--
	}
	if i < 0 {
		s.anomalies++
		return
	}
	if i != len(s.frames)-1 {
		s.anomalies++
	}
	for len(s.frames)-1 > i {
		s.emit(token{kind: tExit, block: s.top().entry, depth: s.depth()})
		s.frames = s.frames[:len(s.frames)-1]
	}
	t := s.top()
	if !s.p.blocks[t.cur].exit {
		path, _ := s.path(t.cur, noBlock)
		for _, m := range path {
			s.step(t, m)
		}
	}
	s.emit(token{kind: tExit, block: e, depth: s.depth()})
	s.frames = s.frames[:len(s.frames)-1]
}

// path returns the implied blocks between from and to (exclusive), or up to
// and including an exit block when to is noBlock. The path through implied
// blocks is unique by construction of the graph; breadth-first search takes
// the shortest should a graph break that rule, which both sides of a
// comparison do alike. ok is false when no such path exists.
func (s *stream) path(from, to int32) (path []int32, ok bool) {
	for _, c := range s.paths[from] {
		if c.to == to {
			return c.path, c.ok
		}
	}
	p, ok := s.search(from, to)
	s.paths[from] = append(s.paths[from], cachedPath{to: to, ok: ok, path: p})
	return p, ok
}

func (s *stream) search(from, to int32) ([]int32, bool) {
	prev := map[int32]int32{}
	queue := []int32{}
	for _, n := range s.p.blocks[from].succs {
		if n == to && to != noBlock {
			return nil, true
		}
		if _, seen := prev[n]; !seen && !s.p.blocks[n].probe {
			prev[n] = from
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		if to == noBlock && s.p.blocks[v].exit {
			return unwind(prev, from, v), true
		}
		for _, n := range s.p.blocks[v].succs {
			if n == to && to != noBlock {
				return unwind(prev, from, v), true
			}
			if _, seen := prev[n]; !seen && n != from && !s.p.blocks[n].probe {
				prev[n] = v
				queue = append(queue, n)
			}
		}
	}
	return nil, false
}

// unwind returns the path from (exclusive) to last (inclusive).
func unwind(prev map[int32]int32, from, last int32) []int32 {
	var rev []int32
	for v := last; v != from; v = prev[v] {
		rev = append(rev, v)
	}
	out := make([]int32, len(rev))
	for i, v := range rev {
		out[len(rev)-1-i] = v
	}
	return out
}
