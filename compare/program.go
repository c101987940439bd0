package compare

import (
	"fmt"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/tbb"
)

// noBlock marks "no block": the frame has not executed a block yet, or a
// convergence point is the function's return.
const noBlock = replay.NoBlock

// blockInfo is what the comparison needs of one block, flattened out of the
// graph once so that the per-event path does no map lookups and no pointer
// chasing through tbb.TCP.
type blockInfo struct {
	probe   bool
	instrs  int32
	ipdom   int32 // immediate post-dominator, or noBlock for the virtual exit
	ntcp    int32 // TCPs on the block (TCP and Also)
	cp      int32 // convergence point of the block's TCPs, or noBlock for return
	decide  *tbb.TCP
	outcome *tbb.TCP
}

// program is the graph prepared for comparison. It is shared read-only by
// every goroutine pair. Streams put implied blocks back with replay, as
// waittime and the Perfetto export do.
type program struct {
	g      *tbb.Graph
	blocks []blockInfo
	replay *replay.Program
}

// decides reports whether a TCP kind decides what its block does next, so
// that two runs whose steps part after the block parted there: the
// successor taken, or for a once TCP whether the function of the Do comes
// next. A goroutine that runs it records its frame (when the function is
// instrumented) before the Do's sync event and outcome; one that does not
// goes straight to them. A map range's head decides like a loop head
// whether the body runs again (the map's length can differ between runs),
// besides the key it records as its outcome.
func decides(k tbb.Kind) bool {
	switch k {
	case tbb.Branch, tbb.Loop, tbb.Switch, tbb.Select, tbb.Once, tbb.MapRange:
		return true
	}
	return false
}

// hasOutcome reports whether a TCP kind records its outcome as an event.
func hasOutcome(k tbb.Kind) bool {
	switch k {
	case tbb.Index, tbb.MapRange, tbb.Lock, tbb.Once:
		return true
	}
	return false
}

func newProgram(g *tbb.Graph) (*program, error) {
	if g == nil {
		return nil, fmt.Errorf("trace has no graph")
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	p := &program{g: g, blocks: make([]blockInfo, len(g.Blocks)), replay: replay.NewProgram(g)}
	for i, b := range g.Blocks {
		bi := &p.blocks[i]
		bi.probe = b.Probe
		bi.instrs = int32(b.Instrs)
		bi.cp = noBlock
		for _, t := range append([]*tbb.TCP{b.TCP}, b.Also...) {
			if t == nil {
				continue
			}
			if bi.ntcp == 0 {
				bi.cp = int32(t.CP)
			}
			bi.ntcp++
			if decides(t.Kind) && bi.decide == nil {
				bi.decide = t
			}
			if hasOutcome(t.Kind) && bi.outcome == nil {
				bi.outcome = t
			}
		}
	}
	npred := make([]int, len(g.Blocks))
	pred := make([]int32, len(g.Blocks))
	for i, b := range g.Blocks {
		for _, s := range b.Succs {
			npred[s]++
			pred[s] = int32(i)
		}
	}
	// A switch tests its further clauses in implied blocks of their own
	// (switch.next) that carry no TCP: the switch's TCP decides there too.
	for changed := true; changed; {
		changed = false
		for i := range p.blocks {
			bi := &p.blocks[i]
			if bi.decide != nil || bi.probe || npred[i] != 1 {
				continue
			}
			if t := p.blocks[pred[i]].decide; t != nil && (t.Kind == tbb.Switch || t.Kind == tbb.Select) {
				bi.decide = t
				changed = true
			}
		}
	}
	for _, f := range g.Funcs {
		for b, d := range postDominators(g, f) {
			p.blocks[b].ipdom = d
		}
	}
	return p, nil
}
