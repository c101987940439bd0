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
	stack   []nest
}

func (m *sideMeasure) start(decider nest, flagged bool, now int64) {
	*m = sideMeasure{stack: m.stack[:0], t0: now}
	m.stack = append(m.stack, decider)
	m.maxNest = 1
	if flagged {
		m.tcps = 1
	}
}

// token accounts for one token walked in the section.
func (m *sideMeasure) token(p *program, t token) {
	switch t.kind {
	case tBlock, tCall:
		bi := &p.blocks[t.block]
		m.blocks++
		m.instrs += int64(bi.instrs)
		// Close the oldest open TCP that converges here: every TCP
		// opened after it is nested inside it (nested conditionals can
		// share a convergence point).
		for i, n := range m.stack {
			if n.cp == t.block && n.depth == t.depth {
				m.stack = m.stack[:i]
				break
			}
		}
		if bi.ntcp > 0 {
			m.tcps += int64(bi.ntcp)
			// A loop test seen again is the next iteration, not a
			// nested decision.
			if k := len(m.stack); k == 0 || m.stack[k-1].tcp != t.block || m.stack[k-1].depth != t.depth {
				m.stack = append(m.stack, nest{tcp: t.block, cp: bi.cp, depth: t.depth})
				if len(m.stack) > m.maxNest {
					m.maxNest = len(m.stack)
				}
			}
		}
	case tExit:
		// The frame returned: whatever it opened is closed.
		for i, n := range m.stack {
			if n.depth >= t.depth {
				m.stack = m.stack[:i]
				break
			}
		}
	}
}
