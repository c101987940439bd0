package trace

import "fmt"

// CheckChunk reports whether c, a chunk a recovery is about to add to the
// trace Resume opened, reads as every reader will read it: its encoding
// parses, every event decodes, and every block, site and packed loop it
// names is in the trace's graph. A recovery reads buffers that a dying
// process, or anyone with write access to the arena, may have left in any
// state; a chunk that does not pass is not written, so that completing a
// trace never makes it less readable than it was (runtime/recover_linux.go).
func (w *Writer) CheckChunk(c *Chunk) error {
	r := w.graphOf
	if r == nil {
		return fmt.Errorf("checking chunk %d of goroutine %d: the writer has no trace to check against", c.Seq, c.G)
	}
	b := appendChunk(nil, c)
	d := decoder{b: b, off: 1}
	size := d.uvarint()
	if d.err != nil || size != uint64(len(b)-d.off) {
		return fmt.Errorf("chunk %d of goroutine %d: length does not round-trip", c.Seq, c.G)
	}
	if len(b) > maxChunkBytes {
		return fmt.Errorf("chunk %d of goroutine %d: %d bytes is more than the %d allowed", c.Seq, c.G, len(b), maxChunkBytes)
	}
	pc, err := parseChunkBody(b[d.off:])
	if err != nil {
		return fmt.Errorf("chunk %d of goroutine %d: %w", c.Seq, c.G, err)
	}
	if pc.Seq == 0 && pc.Origin.Parent != 0 && int64(pc.Origin.Site) >= int64(len(r.siteBlock)) {
		return fmt.Errorf("chunk 0 of goroutine %d: spawn site %d out of range (the graph has %d sites)", c.G, pc.Origin.Site, len(r.siteBlock))
	}
	if pc.Seq == 0 && pc.Origin.HasFirst && int64(pc.Origin.FirstBlock) >= int64(len(r.graph.Blocks)) {
		return fmt.Errorf("chunk 0 of goroutine %d: first block %d is not in the graph", c.G, pc.Origin.FirstBlock)
	}
	// The chunk alone, decoded by the iterator every command reads with.
	it := &chunkIter{chunks: chunks{r: r, e: &indexEntry{}, u: unpacker{loops: r.packs}, next: 1}}
	it.e.ID, it.e.offsets = c.G, make([]int64, 1) // one chunk, loaded
	it.body, it.left = pc.Body, pc.Events
	// The chunk's block count is checked as a reader checks it: against
	// its events, and as the goroutine's whole count.
	it.blocksWant, it.blocksTotal, it.e.Blocks = pc.Blocks, pc.Blocks, pc.Blocks
	_, err = r.checkEvents(it)
	return err
}

// CheckStream reads goroutine id's stream as CheckChunk reads a chunk,
// and returns how many events it read before the first error, and the
// error. Like CheckChunk, it reads of a packed loop's repeated word only
// the first few executions: the rest repeat them, and a count of 2^40
// iterations, which a corrupt chunk may claim, takes no time to check.
func (r *Reader) CheckStream(id uint64) (uint64, error) {
	e, ok := r.byID[id]
	if !ok {
		return 0, fmt.Errorf("no goroutine %d in the trace", id)
	}
	return r.checkEvents(&chunkIter{chunks: r.chunks(e)})
}

// checkedPacked is how many executions of one packed loop's words
// checkEvents reads: more than a word holds (64).
const checkedPacked = 128

// checkEvents reads it to its end and checks that every block is in the
// graph; it returns the events read before the first error.
func (r *Reader) checkEvents(it *chunkIter) (uint64, error) {
	var n uint64
	packed := 0
	for it.Next() {
		n++
		if e := it.Event(); (e.Kind == EvBlock || e.Kind == EvExit) && int64(e.Block) >= int64(len(r.graph.Blocks)) {
			return n - 1, fmt.Errorf("goroutine %d: block %d is not in the graph (%d blocks)", it.e.ID, e.Block, len(r.graph.Blocks))
		}
		if it.u.n == 0 {
			packed = 0
		} else if packed++; packed > checkedPacked {
			// The rest of the loop repeats what was read; its executions
			// still count toward the chunk's block count.
			it.blocksGot += it.u.n
			it.u.n, packed = 0, 0
		}
	}
	return n, it.Err()
}
