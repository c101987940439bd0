package compare

// nest is one TCP instance open on the nondeterminism stack of Algorithm 3:
// it closes when its convergence point is reached in the same frame.
type nest struct {
	tcp   int32 // block holding the TCP
	cp    int32 // its convergence point, or noBlock for the frame's return
	depth int32
}

// sideMeasure measures one side of a divergent section while get_CP walks
// it (Algorithms 2 and 3).
type sideMeasure struct {
	blocks  int64
	tcps    int64
	instrs  int64
	maxNest int
	t0      int64
	when    startTime // when the section began, once the stream knows (when.go)
	from    int64     // the stream's step where the section began
	stack   []nest
	// dec is the deciding TCP instance; first is the first block this side
	// executed in its frame after it (the successor it took, noBlock when it
	// went straight to the convergence point) and nfirst how often it
	// executed that block there (a loop body's entry: the iterations).
	dec    nest
	first  int32
	nfirst int64
	// lead is the first token this side walked in the section, when led:
	// what a side that executed no block of the deciding frame did instead
	// (a call, an event, a recorded outcome), for the report's words.
	lead token
	led  bool
	// outs are the first outcomes (index values, map keys) recorded in the
	// deciding frame, and nouts how many there were: what tells two sides
	// of an index or map-range section apart in words (took.go).
	outs  []uint64
	nouts int64
	// pend holds the TCPs of the blocks being executed, one per frame at
	// most: a TCP nests what follows its decision, not the calls its own
	// block makes before deciding, so it is pushed when its frame moves on.
	pend []nest
}

// maxOuts bounds the outcomes a side keeps for the words of a section.
const maxOuts = 64

func (m *sideMeasure) start(decider nest, flagged bool, now, from int64) {
	*m = sideMeasure{stack: m.stack[:0], pend: m.pend[:0], outs: m.outs[:0], t0: now, from: from, dec: decider, first: noBlock}
	m.stack = append(m.stack, decider)
	m.maxNest = 1
	if flagged {
		m.tcps = 1
	}
}

// token accounts for one token walked in the section.
func (m *sideMeasure) token(p *program, t token) {
	if !m.led {
		m.lead, m.led = t, true
	}
	switch t.kind {
	case tBlock:
		m.settle(t.depth)
		m.block(p, t)
	case tCall:
		m.block(p, t)
	case tOutcome:
		if t.depth == m.dec.depth {
			if len(m.outs) < maxOuts {
				m.outs = append(m.outs, t.val)
			}
			m.nouts++
		}
	case tExit:
		m.drop(t.depth)
		// The frame returned: whatever it opened is closed.
		for i, n := range m.stack {
			if n.depth >= t.depth {
				m.stack = m.stack[:i]
				break
			}
		}
	}
}

func (m *sideMeasure) block(p *program, t token) {
	bi := &p.blocks[t.block]
	m.blocks++
	if t.depth == m.dec.depth {
		if m.first == noBlock {
			m.first = t.block
		}
		if t.block == m.first {
			m.nfirst++
		}
	}
	m.instrs += int64(bi.instrs)
	// Close the oldest open TCP that converges here: every TCP opened
	// after it is nested inside it (nested conditionals can share a
	// convergence point).
	for i, n := range m.stack {
		if n.cp == t.block && n.depth == t.depth {
			m.stack = m.stack[:i]
			break
		}
	}
	if bi.ntcp > 0 {
		m.tcps += int64(bi.ntcp)
		m.pend = append(m.pend, nest{tcp: t.block, cp: bi.cp, depth: t.depth})
	}
}

// settle pushes the pending TCP of the frame at depth: it has decided.
func (m *sideMeasure) settle(depth int32) {
	m.drop(depth + 1)
	k := len(m.pend)
	if k == 0 || m.pend[k-1].depth != depth {
		return
	}
	n := m.pend[k-1]
	m.pend = m.pend[:k-1]
	// A TCP seen again while it is open is the next iteration of a loop,
	// not a nested decision: what was opened after it belongs to the
	// iteration before and is closed. That includes TCPs with no
	// convergence point in the frame (a branch to panic, a loop left
	// only by break), which no block closes: pushed again every
	// iteration, they made the stack as long as the loop, and every
	// block's look for the TCP it closes quadratic (a spin loop of Go's
	// test/fixedbugs/bug512.go took minutes to diff).
	for i := len(m.stack) - 1; i >= 0; i-- {
		if m.stack[i].tcp == n.tcp && m.stack[i].depth == n.depth {
			m.stack = m.stack[:i+1]
			return
		}
	}
	m.stack = append(m.stack, n)
	m.maxNest = max(m.maxNest, len(m.stack))
}

// drop forgets pending TCPs of frames at depth or deeper.
func (m *sideMeasure) drop(depth int32) {
	for len(m.pend) > 0 && m.pend[len(m.pend)-1].depth >= depth {
		m.pend = m.pend[:len(m.pend)-1]
	}
}
