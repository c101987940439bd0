package trace

import "fmt"

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
	return &chunkIter{r: r, e: e}, nil
}

type chunkIter struct {
	r     *Reader
	e     *indexEntry
	next  int    // next chunk to load
	buf   []byte // reused chunk buffer
	body  []byte // undecoded events of the current chunk
	left  uint64 // events left in the current chunk
	ev    Event
	err   error
	chunk int64 // offset of the current chunk, for errors
}

func (it *chunkIter) Next() bool {
	if it.err != nil {
		return false
	}
	for it.left == 0 {
		if len(it.body) > 0 {
			it.fail(fmt.Errorf("%d bytes after the last event", len(it.body)))
			return false
		}
		if it.next == len(it.e.offsets) {
			return false
		}
		if !it.load() {
			return false
		}
	}
	ev, n, err := decodeEvent(it.body)
	if err != nil {
		it.fail(err)
		return false
	}
	it.body = it.body[n:]
	it.left--
	it.ev = ev
	return true
}

func (it *chunkIter) load() bool {
	off := it.e.offsets[it.next]
	it.chunk = off
	c, _, err := it.r.readChunk(off, &it.buf)
	if err != nil {
		it.err = fmt.Errorf("goroutine %d: %w", it.e.ID, err)
		return false
	}
	if c.G != it.e.ID || c.Seq != uint64(it.next) {
		it.fail(fmt.Errorf("holds chunk %d of goroutine %d, want chunk %d of goroutine %d", c.Seq, c.G, it.next, it.e.ID))
		return false
	}
	it.next++
	it.body, it.left = c.Body, c.Events
	return true
}

func (it *chunkIter) fail(err error) {
	it.err = fmt.Errorf("goroutine %d: chunk %d at offset %d: %w", it.e.ID, it.next-1, it.chunk, err)
}

func (it *chunkIter) Event() Event { return it.ev }
func (it *chunkIter) Err() error   { return it.err }
