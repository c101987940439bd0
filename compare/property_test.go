package compare

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// refSection is what the reference and the streaming comparison must agree
// on for each divergent section.
type refSection struct {
	tcp, cp              int
	unflagged            bool
	blocksA, blocksB     int64
	tcpsA, tcpsB         int64
	depthA, depthB       int
	frequencyDifference0 bool
}

func (s refSection) String() string {
	return fmt.Sprintf("{tcp %d cp %d unflagged %v blocks %d/%d tcps %d/%d depth %d/%d}", s.tcp, s.cp, s.unflagged, s.blocksA, s.blocksB, s.tcpsA, s.tcpsB, s.depthA, s.depthB)
}

// reference corresponds two materialized executions recursively, by their
// structure: equal constructs recurse, an if taking different branches or a
// loop with iterations left on one side only makes a section. It is the
// same correspondence as Algorithm 1, computed the obvious way with both
// executions in memory.
type reference struct {
	p   *gprog
	out []refSection
}

func (r *reference) ntcp(b int) int64 {
	blk := r.p.g.Blocks[b]
	n := int64(len(blk.Also))
	if blk.TCP != nil {
		n++
	}
	return n
}

// list corresponds two item lists of the same function frame; rx and ry are
// the items that follow them in the frame. It reports whether the frame is
// finished (a return, or a section that runs to the return).
func (r *reference) list(xs, ys, rx, ry []item) bool {
	for i := 0; i < len(xs) && i < len(ys); i++ {
		x, y := xs[i], ys[i]
		switch {
		case x.block >= 0:
			// Blocks are equal by construction.
		case x.call != nil:
			r.list(x.call, y.call, nil, nil)
		case x.s.kind == sIf:
			s := x.s
			restX := append(append([]item(nil), xs[i+1:]...), rx...)
			restY := append(append([]item(nil), ys[i+1:]...), ry...)
			same := (len(x.branch) == 0) == (len(y.branch) == 0) && (len(x.branch) == 0 || x.branch[0].block == y.branch[0].block)
			if same {
				if r.list(x.branch, y.branch, restX, restY) || x.returned {
					return true
				}
				continue
			}
			if returns(s.then) || returns(s.els) {
				// The CP is the return: the rest of the frame is part of
				// the section.
				r.section(s.cond, tbb.Return, s.flagged, append(x.branch, restX...), append(y.branch, restY...))
				return true
			}
			r.section(s.cond, s.join, s.flagged, x.branch, y.branch)
		case x.s.kind == sLoop:
			n := min(len(x.iters), len(y.iters))
			for k := range n {
				r.list(x.iters[k], y.iters[k], nil, nil)
			}
			if len(x.iters) != len(y.iters) {
				r.section(x.s.head, x.s.done, x.s.flagged, flatten(x.iters[n:]), flatten(y.iters[n:]))
			}
		}
	}
	return false
}

func flatten(iters [][]item) []item {
	var out []item
	for _, it := range iters {
		out = append(out, it...)
	}
	return out
}

func (r *reference) section(tcp, cp int, flagged bool, xs, ys []item) {
	s := refSection{tcp: tcp, cp: cp, unflagged: !flagged}
	s.blocksA, s.tcpsA = r.size(xs)
	s.blocksB, s.tcpsB = r.size(ys)
	if flagged {
		s.tcpsA++
		s.tcpsB++
	}
	s.depthA = nestDepth(seq(xs, nil), 1)
	s.depthB = nestDepth(seq(ys, nil), 1)
	r.out = append(r.out, s)
}

func (r *reference) size(xs []item) (blocks, tcps int64) {
	for _, x := range xs {
		switch {
		case x.block >= 0:
			blocks++
			tcps += r.ntcp(x.block)
		case x.call != nil:
			b, t := r.size(x.call)
			blocks, tcps = blocks+b, tcps+t
		case x.s.kind == sIf:
			b, t := r.size(x.branch)
			blocks, tcps = blocks+b, tcps+t
		case x.s.kind == sLoop:
			b, t := r.size(flatten(x.iters))
			blocks, tcps = blocks+b, tcps+t
		}
	}
	return blocks, tcps
}

// nestStep is a step of a frame for nesting: a flagged construct opens
// (+1) or closes (-1), or a call runs.
type nestStep struct {
	delta int
	call  []nestStep
}

// seq lists the nesting steps of items. A flagged if that converges at the
// return never closes: it stays open to the end of the frame.
func seq(xs []item, out []nestStep) []nestStep {
	for _, x := range xs {
		switch {
		case x.call != nil:
			out = append(out, nestStep{call: seq(x.call, []nestStep{})})
		case x.s != nil && x.s.kind == sIf:
			if x.s.flagged {
				out = append(out, nestStep{delta: 1})
			}
			out = seq(x.branch, out)
			if x.s.flagged && !(returns(x.s.then) || returns(x.s.els)) {
				out = append(out, nestStep{delta: -1})
			}
		case x.s != nil && x.s.kind == sLoop:
			if x.s.flagged {
				out = append(out, nestStep{delta: 1})
			}
			out = seq(flatten(x.iters), out)
			if x.s.flagged {
				out = append(out, nestStep{delta: -1})
			}
		}
	}
	return out
}

func nestDepth(steps []nestStep, level int) int {
	deepest := level
	for _, s := range steps {
		if s.call != nil {
			deepest = max(deepest, nestDepth(s.call, level))
			continue
		}
		level += s.delta
		deepest = max(deepest, level)
	}
	return deepest
}

func streamingSections(t *testing.T, p *gprog, ea, eb *memTrace) []refSection {
	t.Helper()
	rep, err := Traces(ea, eb, Options{Weights: DefaultWeights})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Anomalies != 0 {
		t.Fatalf("%d anomalies on a well-formed execution", rep.Summary.Anomalies)
	}
	var out []refSection
	for _, s := range rep.Sections {
		out = append(out, refSection{tcp: s.TCP.Block, cp: s.CP.Block, unflagged: s.Unflagged,
			blocksA: s.A.Blocks, blocksB: s.B.Blocks, tcpsA: s.A.TCPs, tcpsB: s.B.TCPs, depthA: s.A.Depth, depthB: s.B.Depth})
		if s.Unresolved {
			t.Errorf("unresolved section %+v", s)
		}
	}
	return out
}

// TestAgainstReference checks the streaming comparison against the
// reference on random programs and random pairs of their executions, with
// only flagged sites diverging and then with holes in the analysis (sites
// that diverge without a TCP).
func TestAgainstReference(t *testing.T) {
	programs := 150
	if testing.Short() {
		programs = 30
	}
	for _, holes := range []bool{false, true} {
		sections := 0
		generatedPairs(t, programs, holes, func(p *gprog, seed, run uint64, evA, evB []trace.Event, itA, itB []item) {
			ref := &reference{p: p}
			ref.list(itA, itB, nil, nil)
			got := streamingSections(t, p, newMem(p.g).add(1, 0, 0, 0, evA...), newMem(p.g).add(1, 0, 0, 0, evB...))
			sections += len(got)
			if !reflect.DeepEqual(got, ref.out) {
				t.Fatalf("holes=%v program %d run %d:\nstreaming %v\nreference %v", holes, seed, run, got, ref.out)
			}
		})
		if sections < programs {
			t.Errorf("holes=%v: only %d sections over %d programs: the generator does not diverge enough", holes, sections, programs)
		}
	}
}
