package compare

import (
	"fmt"
	"sync"

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
	loop    bool // a loop or map range TCP is on it: a loop head
	// inLoop is the header of the innermost natural loop holding the
	// block, outerLoop (on a header) that of the loop around it; noBlock
	// for none (loops.go).
	inLoop, outerLoop int32
}

// program is the graph prepared for comparison. It is shared read-only by
// every goroutine pair. Streams put implied blocks back with replay, as
// waittime and the Perfetto export do.
type program struct {
	g      *tbb.Graph
	blocks []blockInfo
	replay *replay.Program
	// dom caches dominates: pairs are compared in parallel.
	domMu sync.Mutex
	dom   map[[2]int32]bool
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
		bi.inLoop, bi.outerLoop = noBlock, noBlock
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
			bi.loop = bi.loop || t.Kind == tbb.Loop || t.Kind == tbb.MapRange
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
		p.naturalLoops(f)
	}
	return p, nil
}

// loopHead reports whether block b decides a loop: a TCP of kind loop or
// map range on it.
func (p *program) loopHead(b int32) bool { return b >= 0 && int(b) < len(p.blocks) && p.blocks[b].loop }

// dominates reports whether every path from the entry of b's function to
// b passes through h: whether h is the head of a loop around b, when h is
// a loop head. It searches the function's blocks, avoiding h; the answer
// is cached, as pairs walk the same loops over and over.
func (p *program) dominates(h, b int32) bool {
	if h == b {
		return true
	}
	key := [2]int32{h, b}
	p.domMu.Lock()
	d, ok := p.dom[key]
	p.domMu.Unlock()
	if ok {
		return d
	}
	d = true
	if blk := p.g.Block(int(b)); blk != nil {
		if f := p.g.Func(blk.Func); f != nil && int32(f.Entry) != h {
			seen := map[int]bool{f.Entry: true}
			queue := []int{f.Entry}
			for len(queue) > 0 && d {
				x := queue[0]
				queue = queue[1:]
				if int32(x) == b {
					d = false
					break
				}
				if xb := p.g.Block(x); xb != nil {
					for _, s := range xb.Succs {
						if !seen[s] && int32(s) != h {
							seen[s] = true
							queue = append(queue, s)
						}
					}
				}
			}
		}
	}
	p.domMu.Lock()
	if p.dom == nil {
		p.dom = map[[2]int32]bool{}
	}
	p.dom[key] = d
	p.domMu.Unlock()
	return d
}
