package replay

// Kind is the kind of a step.
type Kind uint8

// The kinds of steps. Their values are small and fixed so that a reader can
// use them as its own token kinds.
const (
	Block Kind = iota + 1 // a block of the current frame, probed or implied
	Call                  // the entry block of a new frame
	Exit                  // the frame at Depth returns; Block is its entry
)

// Step is one step of a goroutine's execution.
type Step struct {
	Kind Kind
	// Block is the block executed (Block, Call) or the entry block of the
	// frame that returns (Exit).
	Block int32
	// Depth is the depth of the frame the block runs in, 1 for the
	// goroutine's function; for Exit, the depth of the frame that returns.
	Depth int32
	// From is the last block of the frame the step continues, before it:
	// for Call the caller's (NoBlock at depth 1), for Exit the returning
	// frame's.
	From int32
}

// frame is one active function call.
type frame struct {
	fn    int32
	entry int32
	cur   int32 // last block executed in the frame
}

// Replayer follows one goroutine's stream. Its state is the call stack:
// nothing grows with the length of the trace.
type Replayer struct {
	p      *Program
	paths  *Paths
	frames []frame
	// Anomalies counts events the graph cannot explain.
	Anomalies int64
}

// NewReplayer starts replaying a goroutine of paths' program, looking up
// implied paths in paths.
func NewReplayer(paths *Paths) *Replayer {
	return &Replayer{p: paths.p, paths: paths}
}

// Depth is the number of open frames.
func (r *Replayer) Depth() int32 { return int32(len(r.frames)) }

// Cur is the last block of the innermost frame, NoBlock when none is open.
func (r *Replayer) Cur() int32 {
	if len(r.frames) == 0 {
		return NoBlock
	}
	return r.frames[len(r.frames)-1].cur
}

// Block takes a block event: a call when the block is a function entry,
// else the next block of its frame, with the implied blocks on the way. It
// appends the steps to out and returns it.
func (r *Replayer) Block(b int32, out []Step) []Step {
	if b < 0 || int(b) >= len(r.p.blocks) {
		r.Anomalies++
		return out
	}
	bi := &r.p.blocks[b]
	n := len(r.frames)
	if n == 0 || bi.call {
		return r.call(b, out)
	}
	if bi.fn != r.frames[n-1].fn {
		// A block of an outer frame: the frames above returned without an
		// exit event (the runtime lost it). Close them; or, if no frame
		// runs this function, take it as a call.
		r.Anomalies++
		i := n - 1
		for i >= 0 && r.frames[i].fn != bi.fn {
			i--
		}
		if i < 0 {
			return r.call(b, out)
		}
		out = r.popTo(i+1, out)
	}
	t := &r.frames[len(r.frames)-1]
	path, ok := r.paths.path(t.cur, b)
	if !ok {
		r.Anomalies++
	}
	d := int32(len(r.frames))
	for _, m := range path {
		out = append(out, Step{Kind: Block, Block: m, Depth: d, From: t.cur})
		t.cur = m
	}
	out = append(out, Step{Kind: Block, Block: b, Depth: d, From: t.cur})
	t.cur = b
	return r.eager(t, out)
}

// call opens a frame at entry block b.
func (r *Replayer) call(b int32, out []Step) []Step {
	out = append(out, Step{Kind: Call, Block: b, Depth: int32(len(r.frames)) + 1, From: r.Cur()})
	r.frames = append(r.frames, frame{fn: r.p.blocks[b].fn, entry: b, cur: b})
	return r.eager(&r.frames[len(r.frames)-1], out)
}

// eager appends the implied blocks that must follow the frame's current
// block because it has a single successor and cannot exit, so that whatever
// the successor evaluates (a loop condition's calls) is attributed to it.
// The bound stops a cycle of implied blocks, which a checked graph has not.
func (r *Replayer) eager(t *frame, out []Step) []Step {
	d := int32(len(r.frames))
	for n := 0; n < len(r.p.blocks); n++ {
		bi := &r.p.blocks[t.cur]
		if bi.exit || len(bi.succs) != 1 || r.p.blocks[bi.succs[0]].probe {
			break
		}
		out = append(out, Step{Kind: Block, Block: bi.succs[0], Depth: d, From: t.cur})
		t.cur = bi.succs[0]
	}
	return out
}

// popTo closes the frames above the first n, which returned without their
// exit events.
func (r *Replayer) popTo(n int, out []Step) []Step {
	for len(r.frames) > n {
		t := &r.frames[len(r.frames)-1]
		out = append(out, Step{Kind: Exit, Block: t.entry, Depth: int32(len(r.frames)), From: t.cur})
		r.frames = r.frames[:len(r.frames)-1]
	}
	return out
}

// Exit takes the exit event of the function whose entry block is e: the
// implied blocks from the frame's last block to the function's exit, then
// the return (and those of frames above it that lost theirs). It appends
// the steps to out and returns it.
func (r *Replayer) Exit(e int32, out []Step) []Step {
	i := len(r.frames) - 1
	for i >= 0 && r.frames[i].entry != e {
		i--
	}
	if i < 0 {
		r.Anomalies++
		return out
	}
	if i != len(r.frames)-1 {
		r.Anomalies++
		out = r.popTo(i+1, out)
	}
	t := &r.frames[i]
	if !r.p.blocks[t.cur].exit {
		path, _ := r.paths.path(t.cur, NoBlock)
		for _, m := range path {
			out = append(out, Step{Kind: Block, Block: m, Depth: int32(i + 1), From: t.cur})
			t.cur = m
		}
	}
	return r.popTo(i, out)
}

// SameState reports whether r and o are in the same state: the same call
// stack, each frame at the same block. Given the same events from there,
// two replayers in the same state append the same steps, so a reader that
// walks two equal streams can replay one of them only (see [Replayer.SetState]).
func (r *Replayer) SameState(o *Replayer) bool {
	if len(r.frames) != len(o.frames) {
		return false
	}
	for i := len(r.frames) - 1; i >= 0; i-- {
		if r.frames[i] != o.frames[i] {
			return false
		}
	}
	return true
}

// SetState puts r in o's state: o's call stack, with r's own buffers. The
// anomaly count is r's and is left alone.
func (r *Replayer) SetState(o *Replayer) {
	r.frames = append(r.frames[:0], o.frames...)
}

// Continues reports whether a block event of b continues the innermost
// frame, the common case: b is a block of the frame's function and no call.
// It returns the frame's current block. For such an event Block appends
// only blocks of that frame, and which ones depends on the current block
// and b alone, so a reader that only counts can cache what they add up to
// per pair and move the frame with [Replayer.Moved] instead.
func (r *Replayer) Continues(b int32) (cur int32, ok bool) {
	n := len(r.frames)
	if n == 0 || b < 0 || int(b) >= len(r.p.blocks) {
		return NoBlock, false
	}
	bi := &r.p.blocks[b]
	t := &r.frames[n-1]
	if bi.call || bi.fn != t.fn {
		return NoBlock, false
	}
	return t.cur, true
}

// Moved takes a block event that [Replayer.Continues] accepted, whose
// steps Block gave before from the same current block: the innermost frame
// moves to cur, the last of those steps, and anomalies are the anomalies
// Block counted on the way.
func (r *Replayer) Moved(cur int32, anomalies int64) {
	r.frames[len(r.frames)-1].cur = cur
	r.Anomalies += anomalies
}
