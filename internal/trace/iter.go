package trace

import (
	"fmt"
	"math"
)

// EventIter streams the events of one goroutine, one chunk in memory at a
// time.
type EventIter interface {
	// Next advances to the next event. It returns false at the end of the
	// stream or on an error; Err tells which.
	Next() bool
	// Event returns the current event.
	Event() Event
	// Err returns the first error met, or nil at a clean end.
	Err() error
}

// Events returns an iterator over the events of goroutine id (a recorder id
// from [Reader.Goroutines]).
func (r *Reader) Events(id uint64) (EventIter, error) {
	e, ok := r.byID[id]
	if !ok {
		return nil, fmt.Errorf("no goroutine %d in the trace", id)
	}
	return &chunkIter{chunks: r.chunks(e)}, nil
}

// chunks walks one goroutine's chunks in sequence, one in memory at a time.
// Both [EventIter] and [EventReader] decode from it.
type chunks struct {
	r     *Reader
	e     *indexEntry
	next  int    // next chunk to load
	buf   []byte // reused chunk buffer
	body  []byte // undecoded events of the current chunk
	left  uint64 // events left in the current chunk, as encoded
	u     unpacker
	err   error
	chunk int64 // offset of the current chunk, for errors

	// The block executions the current chunk's header counts, those its
	// events gave so far, and the counts of the chunks loaded, added up:
	// each is checked against what the events hold once they are all
	// read (checkCounts), so that no reader reports a count the events do
	// not have.
	blocksWant, blocksGot, blocksTotal uint64
	counted                            bool // the current chunk was checked
}

func (r *Reader) chunks(e *indexEntry) chunks {
	return chunks{r: r, e: e, u: unpacker{loops: r.packs}}
}

// more makes sure the current chunk has an event left, loading the next
// chunk when it has not. It returns false at the end of the stream or on an
// error (then c.err is set).
func (c *chunks) more() bool {
	for c.left == 0 {
		if len(c.body) > 0 {
			c.fail(fmt.Errorf("%d bytes after the last event", len(c.body)))
			return false
		}
		if !c.checkCounts() {
			return false
		}
		if c.next == len(c.e.offsets) {
			return false
		}
		if !c.load() {
			return false
		}
	}
	return true
}

func (c *chunks) load() bool {
	off := c.e.offsets[c.next]
	c.chunk = off
	ch, _, err := c.r.readChunk(off, &c.buf)
	if err != nil {
		c.err = fmt.Errorf("goroutine %d: %w", c.e.ID, err)
		return false
	}
	if ch.G != c.e.ID || ch.Seq != uint64(c.next) {
		c.fail(fmt.Errorf("holds chunk %d of goroutine %d, want chunk %d of goroutine %d", ch.Seq, ch.G, c.next, c.e.ID))
		return false
	}
	c.next++
	c.body, c.left = ch.Body, ch.Events
	c.blocksWant, c.blocksGot, c.counted = ch.Blocks, 0, false
	if c.blocksTotal+ch.Blocks < c.blocksTotal {
		c.fail(fmt.Errorf("the chunks count more than %d block executions", uint64(math.MaxUint64)))
		return false
	}
	c.blocksTotal += ch.Blocks
	return true
}

// checkCounts checks, once the current chunk's events are all read, that
// they held the block executions its header counts, and after the last
// chunk that the chunks' counts add up to the goroutine's in the index. A
// count is what show reports without reading events (RECORDED), so a
// corrupt one was shown as it was: 18446744073709551615.
func (c *chunks) checkCounts() bool {
	if c.next == 0 || c.counted || c.err != nil {
		return c.err == nil
	}
	c.counted = true
	if c.blocksGot != c.blocksWant {
		c.fail(fmt.Errorf("the chunk counts %d block executions, its events hold %d", c.blocksWant, c.blocksGot))
		return false
	}
	if c.next == len(c.e.offsets) && c.blocksTotal != c.e.Blocks {
		c.err = fmt.Errorf("goroutine %d: the index counts %d block executions, its chunks %d", c.e.ID, c.e.Blocks, c.blocksTotal)
		return false
	}
	return true
}

func (c *chunks) fail(err error) {
	c.err = fmt.Errorf("goroutine %d: chunk %d at offset %d: %w", c.e.ID, c.next-1, c.chunk, err)
}

// chunkIter is the event-at-a-time [EventIter]. It decodes as
// [EventReader] does, into a batch of one.
type chunkIter struct {
	chunks
	ev [1]Event
}

func (it *chunkIter) Next() bool {
	if it.err != nil {
		return false
	}
	if it.u.n > 0 {
		it.u.fill(it.ev[:])
		it.blocksGot++
		return true
	}
	if it.left == 0 && !it.more() {
		return false
	}
	_, n, _, others, err := decodeEvents(it.ev[:], it.body, it.r.siteBlock, it.r.nblocks, &it.u)
	if err != nil {
		it.fail(err)
		return false
	}
	it.body = it.body[n:]
	it.left--
	it.blocksGot += uint64(1 - others)
	return true
}

func (it *chunkIter) Event() Event { return it.ev[0] }
func (it *chunkIter) Err() error   { return it.err }

// SliceIter iterates over events held in memory: the traces tests make
// for the readers of traces.
func SliceIter(evs []Event) EventIter { return &sliceIter{evs: evs} }

type sliceIter struct {
	evs []Event
	i   int // 1 + the current event's index
}

func (s *sliceIter) Next() bool {
	if s.i >= len(s.evs) {
		return false
	}
	s.i++
	return true
}

func (s *sliceIter) Event() Event { return s.evs[s.i-1] }
func (s *sliceIter) Err() error   { return nil }
