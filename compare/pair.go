package compare

import (
	"fmt"

	"github.com/divergo/divergo/internal/steps"
	"github.com/divergo/divergo/internal/tbb"
)

// stop says where get_CP stopped walking a side.
type stop uint8

const (
	stopCP    stop = iota + 1 // at the convergence point, in the frame of the TCP
	stopExit                  // at the return of that frame
	stopEnd                   // at the end of the stream
	stopAgain                 // at the deciding TCP again, in its frame: the loop's next iteration
)

// againKinds are the change points whose sections end at the loop's next
// iteration when they reach it before their convergence point, in their
// own natural loop: a select in for { select {...} }, post-dominated only
// by the case that returns, converges there, and the section of one other
// choice ran to the end of the program. A side that leaves that loop (a
// break to an outer loop) or passes a loop head with a TCP around it
// (for cond {...}, a range) turns the rule off for that walk: coming round
// the outer loop is not the next iteration of the inner one, and the next
// iteration of a deciding loop is that loop's decision to compare (a
// section that swallowed it left the loop's parting to a block without a
// TCP, Figure 2's branch in its loop).
var againKinds = map[tbb.Kind]bool{tbb.Select: true, tbb.Switch: true, tbb.Branch: true}

// pairCmp runs Algorithm 1 on one goroutine pair: get_TCP is the lock-step
// walk over equal tokens in run, get_CP is diverge.
type pairCmp struct {
	p     *program
	a, b  *stream
	again int32 // while diverge walks a side: the TCP block that ends it again (againKinds), or noBlock
	// againLoop is the header of the innermost natural loop holding
	// again: a side that leaves it is not back at the TCP "again".
	againLoop int32
	ga, gb    uint64
	spawn     string
	observe   func(Step)
	// unfinA and unfinB: that run's goroutine was cut off at exit.
	unfinA, unfinB bool
	// lock: walk equal stretches in lockstep (lockstep.go). Off when
	// observing, because lockstep makes no tokens to show.
	lock bool

	ma, mb   sideMeasure
	sections sectionList
	locks    map[int32]int64
}

var tokNames = [...]string{tBlock: "block", tCall: "call", tExit: "exit", tOutcome: "outcome", tSpawn: "spawn", tSync: "sync", tEnd: "end"}

func (c *pairCmp) step(k StepKind, t token) {
	if c.observe == nil {
		return
	}
	blk := -1
	switch t.kind {
	case tBlock, tCall, tExit, tSpawn, tSync:
		blk = int(t.block)
	}
	c.observe(Step{Goroutine: c.ga, Kind: k, Token: tokNames[t.kind], Block: blk})
}

func (c *pairCmp) run() error {
	for {
		if c.lock && c.inStep() {
			if err := c.lockstep(); err != nil {
				return err
			}
		}
		ta, err := c.a.peek()
		if err != nil {
			return sideErr("a", err)
		}
		tb, err := c.b.peek()
		if err != nil {
			return sideErr("b", err)
		}
		if ta.kind == tEnd && tb.kind == tEnd {
			return nil
		}
		if ta.same(tb) {
			c.step(StepSame, *ta)
			c.a.next()
			c.b.next()
			continue
		}
		takenA, takenB := c.a.taken, c.b.taken
		d := *ta
		if d.kind == tEnd {
			d = *tb
		}
		if ta.kind == tOutcome && tb.kind == tOutcome && d.owner != noBlock {
			t := c.p.blocks[d.owner].outcome
			if t.Kind == tbb.Lock {
				c.locks[d.owner]++
				c.step(StepLockOrder, *ta)
				c.a.next()
				c.b.next()
				continue
			}
			err = c.diverge(d.owner, t, int32(t.CP), d.at())
		} else if d.from == noBlock {
			// The streams differ before a first common block (or after
			// the goroutine's function returned): nothing to meet at but
			// the end.
			err = c.diverge(noBlock, nil, noBlock, 0)
		} else if t := c.p.blocks[d.from].decide; t != nil {
			err = c.diverge(d.from, t, int32(t.CP), d.at())
		} else {
			err = c.diverge(d.from, nil, c.p.blocks[d.from].ipdom, d.at())
		}
		if err != nil {
			return err
		}
		if c.a.taken == takenA && c.b.taken == takenB {
			// Every divergence consumes something; if one did not, say so
			// rather than loop.
			return fmt.Errorf("no progress at a divergence after %d and %d steps", takenA, takenB)
		}
	}
}

func sideErr(side string, err error) error {
	return &sideError{side: side, err: err}
}

type sideError struct {
	side string
	err  error
}

func (e *sideError) Error() string { return "trace " + e.side + ": " + e.err.Error() }
func (e *sideError) Unwrap() error { return e.err }

// diverge is get_CP (Algorithm 2): it walks each side independently from the
// TCP at block at (in the frame at depth) to the instance of cp in the same
// frame, measuring as it goes, and records the section.
func (c *pairCmp) diverge(at int32, t *tbb.TCP, cp int32, depth int32) error {
	dec := nest{tcp: at, cp: cp, depth: depth}
	c.ma.start(dec, t != nil, c.a.clock(), c.a.taken)
	c.mb.start(dec, t != nil, c.b.clock(), c.b.taken)
	c.a.mark(&c.ma.when)
	c.b.mark(&c.mb.when)
	exitOnly := cp == noBlock
	again := int32(noBlock)
	if t != nil && againKinds[t.Kind] && at >= 0 && int(at) < len(c.p.blocks) {
		if c.againLoop = c.p.blocks[at].inLoop; c.againLoop != noBlock {
			again = at
		}
	}
	c.again = again
	ka, err := c.advance(c.a, &c.ma, StepA, cp, depth, exitOnly)
	if err != nil {
		return sideErr("a", err)
	}
	c.again = again
	kb, err := c.advance(c.b, &c.mb, StepB, cp, depth, exitOnly)
	if err != nil {
		return sideErr("b", err)
	}
	c.again = noBlock
	// A side back at the TCP meets the other only if that one is back too:
	// otherwise it goes on as it would have, to the convergence point.
	if ka == stopAgain && kb != stopAgain {
		if ka, err = c.advance(c.a, &c.ma, StepA, cp, depth, exitOnly); err != nil {
			return sideErr("a", err)
		}
	}
	if kb == stopAgain && ka != stopAgain {
		if kb, err = c.advance(c.b, &c.mb, StepB, cp, depth, exitOnly); err != nil {
			return sideErr("b", err)
		}
	}
	unresolved := false
	if ka != kb {
		// One side met the CP, the other left the frame (or ended): the
		// only common point left is further on.
		if ka == stopEnd || kb == stopEnd {
			unresolved = true
			if ka != stopEnd {
				if _, err := c.advance(c.a, &c.ma, StepA, noBlock, 0, true); err != nil {
					return sideErr("a", err)
				}
			}
			if kb != stopEnd {
				if _, err := c.advance(c.b, &c.mb, StepB, noBlock, 0, true); err != nil {
					return sideErr("b", err)
				}
			}
		} else {
			s, m, k, side := c.a, &c.ma, StepA, "a"
			if kb == stopCP {
				s, m, k, side = c.b, &c.mb, StepB, "b"
			}
			tok, _ := s.peek()
			m.token(c.p, *tok)
			c.step(k, *tok)
			s.next()
			end, err := c.advance(s, m, k, noBlock, depth, true)
			if err != nil {
				return sideErr(side, err)
			}
			if end == stopEnd {
				// It never returned: the other side's rest is divergent too.
				unresolved = true
				s, m, k, side = c.a, &c.ma, StepA, "a"
				if kb != stopCP {
					s, m, k, side = c.b, &c.mb, StepB, "b"
				}
				if _, err := c.advance(s, m, k, noBlock, 0, true); err != nil {
					return sideErr(side, err)
				}
			}
		}
	} else if ka == stopEnd && depth > 0 {
		unresolved = true
	}
	if ka == stopAgain && kb == stopAgain {
		cp = at // they met at the next iteration
	}
	c.record(at, t, cp, unresolved)
	return nil
}

// advance walks s until the CP instance at depth, the return of that frame,
// or the end, and reports which it met. It leaves the stopping token unread.
func (c *pairCmp) advance(s *stream, m *sideMeasure, k StepKind, cp, depth int32, exitOnly bool) (stop, error) {
	for {
		tok, err := s.peek()
		if err != nil {
			return 0, err
		}
		switch {
		case tok.kind == tEnd:
			return stopEnd, nil
		case tok.kind == tExit && tok.depth <= depth:
			return stopExit, nil
		case !exitOnly && tok.kind == tBlock && tok.depth == depth && tok.block == cp:
			return stopCP, nil
		case c.again != noBlock && tok.kind == tBlock && tok.depth == depth && tok.block == c.again:
			return stopAgain, nil
		case c.again != noBlock && tok.kind == tBlock && tok.depth == depth &&
			(!c.p.within(tok.block, c.againLoop) || c.p.loopHead(tok.block) && c.p.dominates(tok.block, c.again)):
			// The side left the TCP's own loop (a break to an outer
			// loop: meeting the other side "again" when it came round
			// would pair one outer iteration with the next), or passed
			// the head of a loop around the TCP with a decision of its
			// own (for cond {...}, a range), whose next iteration is
			// that decision's to compare. The convergence point as
			// before. (A loop inside one of the TCP's branches does not
			// dominate it.)
			c.again = noBlock
		}
		m.token(c.p, *tok)
		c.step(k, *tok)
		s.next()
	}
}

func (c *pairCmp) record(at int32, t *tbb.TCP, cp int32, unresolved bool) {
	// A side that recorded nothing after the common block, of a goroutine
	// the exit caught running or blocked, did not choose another successor:
	// the process ended under it. Where that happens is the schedule's
	// doing, so the section is no hole in the analysis. It can only be a
	// section that never converged, or the whole goroutine.
	cut := (unresolved || at == noBlock) &&
		((c.unfinA && c.ma.blocks == 0) || (c.unfinB && c.mb.blocks == 0))
	k := c.sections.next()
	*k = keptSection{
		at: at, cp: cp, t: t,
		unflagged: t == nil && !cut, cut: cut, unresolved: unresolved,
		a:      side(&c.ma, c.a.clock()),
		b:      side(&c.mb, c.b.clock()),
		stepsA: steps.Span{From: c.ma.from, To: c.a.taken},
		stepsB: steps.Span{From: c.mb.from, To: c.b.taken},
	}
	c.a.move(&c.ma.when, &k.whenA)
	c.b.move(&c.mb.when, &k.whenB)
	setStart(&k.a, &k.whenA) // for observe; settled once the streams end
	setStart(&k.b, &k.whenB)
	kind := "none"
	switch {
	case at == noBlock:
		kind = "" // the whole goroutine: no change point
	case t != nil:
		kind = string(t.Kind)
	}
	cutA, cutB := cut && c.unfinA && c.ma.blocks == 0, cut && c.unfinB && c.mb.blocks == 0
	k.a.Took = c.p.took(kind, &c.ma, cp, cutA, cutB, unresolved, c.a.blocked)
	k.b.Took = c.p.took(kind, &c.mb, cp, cutB, cutA, unresolved, c.b.blocked)
	k.a.Took, k.b.Took = tellApart(kind, k.a.Took, k.b.Took, &c.ma, &c.mb)
	if c.observe != nil {
		sec := c.sections.section(k, &c.a.c.points, c.p)
		c.observe(Step{Goroutine: c.ga, Kind: StepSection, Block: int(at), Section: &sec})
	}
}

func side(m *sideMeasure, now int64) Side {
	return Side{Blocks: m.blocks, TCPs: m.tcps, Depth: m.maxNest, Instrs: m.instrs, TimeNS: max(now-m.t0, 0), StartNS: m.t0}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// point describes a block for a report: its function and position, or the
// function's return for noBlock.
func (p *program) point(b int32) Point {
	if b == noBlock {
		return Point{Pos: "return", Block: -1}
	}
	blk := p.g.Blocks[b]
	pt := Point{Pos: blk.Pos.FileLine(), Block: int(b)}
	if f := p.g.Func(blk.Func); f != nil {
		pt.Func = f.Name
	}
	return pt
}
