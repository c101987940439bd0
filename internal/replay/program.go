package replay

import "github.com/divergo/divergo/internal/tbb"

// NoBlock marks "no block": a frame that has executed nothing yet, or the
// function's exit as the end of a path.
const NoBlock = -1

// info is what replaying needs of one block, flattened out of the graph
// once so that the per-event path does no map lookups or pointer chasing.
type info struct {
	fn    int32
	probe bool
	exit  bool
	// call: the function's entry, and no block of the function jumps to
	// it, so seeing it always means a new frame.
	call  bool
	succs []int32
	// instrs is the block's weight in the spreading of time (Spread):
	// its instruction count, at least 1.
	instrs int64
}

// Program is a graph prepared for replaying. It is read-only and can be
// shared by any number of goroutines.
type Program struct {
	blocks []info
}

// NewProgram prepares g. It accepts any graph: missing blocks and
// successors out of range are left out (a reader that needs a valid graph
// checks it with [tbb.Graph.Validate] first), so replaying never panics.
func NewProgram(g *tbb.Graph) *Program {
	if g == nil {
		return &Program{}
	}
	p := &Program{blocks: make([]info, len(g.Blocks))}
	entry := make([]bool, len(g.Blocks))
	hasPred := make([]bool, len(g.Blocks))
	for _, f := range g.Funcs {
		if f != nil && f.Entry >= 0 && f.Entry < len(g.Blocks) {
			entry[f.Entry] = true
		}
	}
	for i, b := range g.Blocks {
		bi := &p.blocks[i]
		bi.fn = -1
		if b == nil {
			continue
		}
		bi.fn = int32(b.Func)
		bi.instrs = int64(max(b.Instrs, 1))
		bi.probe = b.Probe
		bi.exit = b.Exit
		bi.succs = make([]int32, 0, len(b.Succs))
		for _, s := range b.Succs {
			if s >= 0 && s < len(g.Blocks) {
				bi.succs = append(bi.succs, int32(s))
				hasPred[s] = true
			}
		}
	}
	for i := range p.blocks {
		p.blocks[i].call = entry[i] && !hasPred[i]
	}
	return p
}

// Len is the number of blocks of the graph.
func (p *Program) Len() int { return len(p.blocks) }

// Instrs is block b's instruction count, at least 1: its weight when time
// is spread over blocks ([Stretch.Spread]); 1 for a block not in the graph.
func (p *Program) Instrs(b int32) int64 {
	if b < 0 || int(b) >= len(p.blocks) || p.blocks[b].instrs == 0 {
		return 1
	}
	return p.blocks[b].instrs
}

// Has reports whether b is a block of the graph.
func (p *Program) Has(b int32) bool {
	return b >= 0 && int(b) < len(p.blocks) && p.blocks[b].fn >= 0
}

// Probed reports whether block b carries a probe: whether it is an event of
// the stream when it runs as a block of its frame.
func (p *Program) Probed(b int32) bool {
	return b >= 0 && int(b) < len(p.blocks) && p.blocks[b].probe
}
