package flow

import "go/token"

// Site is one operation the runtime records at its own statement (a sync
// operation or a go statement, internal/syncop): the graph's table of
// sites is built from these (docs/TBB.md, "Sites").
type Site struct {
	ID    int       // global id, set by the analyzer with the block ids (-1 until then)
	Op    string    // a tbb.SiteOps name
	Pos   token.Pos // the operation's own position
	Block *Block    // the block holding it
}

// AddSite appends a site for operation op at pos, held by the block that
// holds at ([Func.BlockAt]).
func (f *Func) AddSite(op string, pos, at token.Pos) *Site {
	s := &Site{ID: -1, Op: op, Pos: pos, Block: f.BlockAt(at)}
	f.Sites = append(f.Sites, s)
	return s
}

// BlockAt returns the block that holds pos: the block with the smallest
// node that contains it, else the block of the nearest node that ends
// before it (a select or a loop head has no node of its own), else the
// entry block.
func (f *Func) BlockAt(pos token.Pos) *Block {
	if len(f.Blocks) == 0 {
		return nil
	}
	best, bestSize := f.Blocks[0], token.Pos(-1)
	for _, b := range f.Blocks {
		for _, n := range b.Nodes {
			if n.Pos() <= pos && pos < n.End() {
				if size := n.End() - n.Pos(); bestSize < 0 || size < bestSize {
					best, bestSize = b, size
				}
			}
		}
	}
	if bestSize >= 0 {
		return best
	}
	var nearest token.Pos
	for _, b := range f.Blocks {
		for _, n := range b.Nodes {
			if n.End() <= pos && n.End() > nearest {
				best, nearest = b, n.End()
			}
		}
	}
	return best
}
