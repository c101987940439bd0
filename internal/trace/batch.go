package trace

import (
	"fmt"
	"io"
)

// EventReader reads the events of one goroutine in batches: one call
// decodes many events straight into the caller's buffer. It reads the same
// events and meets the same errors as [EventIter], at a fraction of the
// cost per event, for consumers that go through whole streams (compare).
// Like an EventIter it belongs to one goroutine.
type EventReader struct {
	chunks
}

// EventReader returns a batch reader over the events of goroutine id (a
// recorder id from [Reader.Goroutines]).
func (r *Reader) EventReader(id uint64) (*EventReader, error) {
	e, ok := r.byID[id]
	if !ok {
		return nil, fmt.Errorf("no goroutine %d in the trace", id)
	}
	return &EventReader{chunks: r.chunks(e)}, nil
}

// ReadEvents decodes up to len(buf) events into buf and returns how many.
// The error is io.EOF once the stream has ended, possibly together with
// its last events, or the first error met: the events before it are in
// buf[:n], and every later call returns 0 and the same error.
func (er *EventReader) ReadEvents(buf []Event) (int, error) {
	n := 0
	for n < len(buf) {
		if er.err != nil {
			return n, er.err
		}
		if er.u.n > 0 {
			k := er.u.fill(buf[n:])
			n += k
			er.blocksGot += uint64(k)
			continue
		}
		if !er.more() {
			if er.err != nil {
				return n, er.err
			}
			return n, io.EOF
		}
		want := buf[n:]
		if uint64(len(want)) > er.left {
			// Each encoded event gives one event at least, so this many
			// never reads past the chunk's events.
			want = want[:er.left]
		}
		k, used, extra, others, err := decodeEvents(want, er.body, er.r.siteBlock, er.r.nblocks, &er.u)
		n += k
		er.body = er.body[used:]
		er.left -= uint64(k - extra)
		er.blocksGot += uint64(k - others)
		if err != nil {
			er.fail(err)
		}
	}
	if er.left == 0 && er.u.n == 0 && len(er.body) == 0 && er.next == len(er.e.offsets) && er.err == nil {
		if !er.checkCounts() {
			return n, er.err
		}
		return n, io.EOF
	}
	return n, nil
}

// Raw returns the undecoded bytes of the current chunk's events not yet
// read, loading the next chunk when the current one is done, and how many
// events they hold at most (a chunk may end in bytes that are no event,
// which ReadEvents reports: a caller reads no further than that many). It
// is for a consumer that recognises events by their bytes (a block event
// whose id is below 64 is one byte, below 8192 two: docs/FORMAT.md), so
// that equal stretches of two streams are equal bytes, and consumes what
// it took with [EventReader.Skip] instead of decoding it. At the end of
// the stream, or after an error, it returns nil and 0; ReadEvents then
// says which. While the block events of a pack event are being given it
// returns nil and 0 too: those are read with ReadEvents. The bytes are
// not checked: a consumer takes only block ids the graph has (compare
// takes only the moves between its blocks) and leaves the rest to
// ReadEvents, which refuses them.
func (er *EventReader) Raw() ([]byte, uint64) {
	if er.err != nil || er.u.n > 0 || !er.more() {
		return nil, 0
	}
	return er.body, er.left
}

// Skip consumes the first events of what Raw returned, which take its
// first n bytes: ReadEvents and Raw go on after them. events must be at
// most what Raw said and n the bytes those events take, blocks how many
// of them are block events (the chunk's count of blocks is checked).
func (er *EventReader) Skip(n int, events, blocks uint64) {
	if events > er.left || n > len(er.body) || blocks > events {
		panic("trace: Skip past what Raw returned")
	}
	er.body = er.body[n:]
	er.left -= events
	er.blocksGot += blocks
}

// decodeEvents decodes len(dst) events from the start of b and returns how
// many it gave, the bytes they used, how many of them came from pack
// events beyond one each (a pack event gives the block events it stands
// for, as many as dst has room for, and u keeps the rest) and how many are
// not block events, stopping at the first error. Block events whose id
// fits one or two bytes (ids below 64 and 8192: every block of most
// programs) are decoded inline; every other event goes through
// decodeEvent, which makes every check. sites maps a
// site to the block holding it (from the graph): spawn and sync events get
// their Block from it, and a site out of its range is an error; so is a
// block or exit event at a block the graph does not have (nblocks), so
// that no reader is handed one: each would otherwise decide on its own what
// to do with it, and they did not agree.
func decodeEvents(dst []Event, b []byte, sites []uint32, nblocks uint32, u *unpacker) (n, off, extra, others int, err error) {
	for n < len(dst) {
		if off+1 < len(b) {
			c0, c1 := b[off], b[off+1]
			switch {
			case c0&0x81 == 0 && uint32(c0>>1) < nblocks: // one byte, even: a block
				dst[n] = Event{Kind: EvBlock, Block: uint32(c0 >> 1)}
				n++
				off++
				continue
			case c0&0x81 == 0x80 && c1 < 0x80: // two bytes, even: a block
				if id := uint32(c0&0x7f)>>1 | uint32(c1)<<6; id < nblocks {
					dst[n] = Event{Kind: EvBlock, Block: id}
					n++
					off += 2
					continue
				}
			}
		}
		e, k, err := decodeEvent(b[off:])
		if err != nil {
			return n, off, extra, others, err
		}
		switch e.Kind {
		case EvBlock, EvExit:
			if e.Block >= nblocks {
				return n, off, extra, others, fmt.Errorf("%s event: block %d is not in the graph (%d blocks)", e.Kind, e.Block, nblocks)
			}
		case EvSync, EvSpawn:
			if int64(e.Site) >= int64(len(sites)) {
				return n, off, extra, others, fmt.Errorf("%s event: site %d out of range (the graph has %d sites)", e.Kind, e.Site, len(sites))
			}
			e.Block = sites[e.Site]
		case EvPack:
			if err := u.start(e); err != nil {
				return n, off, extra, others, err
			}
			off += k
			given := u.fill(dst[n:])
			n += given
			extra += given - 1
			continue
		}
		if e.Kind != EvBlock {
			others++
		}
		dst[n] = e
		n++
		off += k
	}
	return n, off, extra, others, nil
}
