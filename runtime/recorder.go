package runtime

import (
	"encoding/binary"

	"github.com/divergo/divergo/internal/trace"
)

// G is the recorder of one goroutine. Only that goroutine uses it, except
// when the program ends and every buffer is flushed.
type G struct {
	// Hot: the probe touches only these.
	buf []uint32 // len is the usable part; cap keeps room for a closing clock
	n   int

	off      bool // the shared recorder of DIVERGO_TRACE=off
	id       uint64
	goid     uint64
	parent   uint64
	site     uint32
	ordinal  uint32
	start    int64
	seq      uint64 // next chunk's sequence number; guarded by sess.mu
	wrote    bool   // first chunk written; guarded by sess.mu
	ended    bool   // final chunk written; guarded by sess.mu
	isMain   bool
	spawns   map[uint32]uint32 // ordinals per go statement
	chunk    trace.Chunk       // reused encoding buffer
	children int
	ident    uint64 // spawn identity, for DIVERGO_PERTURB (perturb.go)
	rng      uint64 // perturbation PRNG state, starts at ident
}

// Buffer sizes in words. A buffer starts small (10,000 goroutines must not
// cost 10,000 large buffers) and doubles up to maxWords; a full buffer of
// maxWords is a chunk.
const (
	minWords = 256
	maxWords = 32 << 10
	reserve  = 16 // words kept past len for the clock that closes a chunk
	opBit    = 1 << 31
)

// Opcodes of rare events: opBit | op<<16 | aux, then payload words.
const (
	opExit    = 1 // entry
	opOutcome = 2 // lo, hi
	opSpawn   = 3 // site, ordinal, child lo, child hi
	opSync    = 4 // aux = trace.Op | waited<<8; site, obj lo, obj hi, end lo, end hi [, begin lo, begin hi]
	opClock   = 5 // lo, hi
)

// maxEventWords is the longest event: a sync that waited.
const maxEventWords = 8

// offG is the recorder handed out when recording is off: its empty buffer
// sends every probe to the slow path, which returns at once. It is never
// written, so sharing it between goroutines is safe.
var offG = &G{off: true}

func newG(id, goid uint64) *G {
	return &G{id: id, goid: goid, buf: make([]uint32, minWords-reserve, minWords)}
}

// B records that block id began. It must stay small enough to inline
// (go build -gcflags=-m reports "can inline (*G).B with cost 79"): a
// reworded check can cost the inlining.
func (g *G) B(id uint32) {
	if g.n >= len(g.buf) {
		g.slowB(id)
		return
	}
	g.buf[g.n] = id
	g.n++
}

//go:noinline
func (g *G) slowB(id uint32) {
	if g.off {
		return
	}
	g.room(1)
	g.buf[g.n] = id
	g.n++
}

// room makes space for k words: it grows the buffer up to maxWords, then
// writes it out as a chunk.
func (g *G) room(k int) {
	if len(g.buf)-g.n >= k {
		return
	}
	if c := cap(g.buf); c < maxWords {
		nb := make([]uint32, 2*c-reserve, 2*c)
		copy(nb, g.buf[:g.n])
		g.buf = nb
		return
	}
	g.flush(false)
}

// put appends an opcode and its payload.
func (g *G) put(op, aux uint32, words ...uint32) {
	if g.off {
		return
	}
	g.room(1 + len(words))
	g.buf[g.n] = opBit | op<<16 | aux
	copy(g.buf[g.n+1:], words)
	g.n += 1 + len(words)
}

func lo(v uint64) uint32 { return uint32(v) }
func hi(v uint64) uint32 { return uint32(v >> 32) }

// clock records the time now and returns it.
func (g *G) clock() int64 {
	t := now()
	g.put(opClock, 0, lo(uint64(t)), hi(uint64(t)))
	return t
}

// Exit records the return of the function whose entry block is entry,
// normal or by panic. For main.main it also completes the trace; if main
// panics, it flushes everything and panics again with the same value.
func (g *G) Exit(entry uint32) {
	if g.off {
		return
	}
	if len(g.buf)-g.n < 2 {
		g.room(2)
	}
	g.buf[g.n], g.buf[g.n+1] = opBit|opExit<<16, entry
	g.n += 2
	if g.isMain && entry == sess.mainEntry {
		if r := recover(); r != nil {
			finish(g, true)
			panic(r)
		}
		finish(g, true)
	}
}

// Outcome records the outcome of the TCP of the last block: an index
// value, a map key hash or a lock ticket.
func (g *G) Outcome(v uint64) {
	if g.off {
		return
	}
	if len(g.buf)-g.n < 3 {
		g.room(3)
	}
	g.buf[g.n], g.buf[g.n+1], g.buf[g.n+2] = opBit|opOutcome<<16, lo(v), hi(v)
	g.n += 3
}

// encode turns words into the chunk's body. It stops at a word that would
// read past the end (a buffer read while its goroutine was writing).
//
// It is the runtime's hottest code after the probe: every block word passes
// here once. Five bytes per word always suffice (a block id takes at most 5,
// and every other event at most 5 per word it occupies), so the body is
// sized once and block ids are written by index, not appended.
func encode(words []uint32, c *trace.Chunk) {
	b := c.Body[:0]
	if need := 5 * len(words); cap(b) < need {
		b = make([]byte, 0, need)
	}
	b = b[:cap(b)]
	n := 0
	var blocks, others, waits uint64
	for i := 0; i < len(words); {
		// Eight one-byte block ids at once: loops mostly run small ids.
		for i+8 <= len(words) && n+8 <= len(b) {
			w := words[i : i+8 : i+8]
			if w[0]|w[1]|w[2]|w[3]|w[4]|w[5]|w[6]|w[7] >= 64 {
				break
			}
			binary.LittleEndian.PutUint64(b[n:], uint64(w[0])<<1|uint64(w[1])<<9|uint64(w[2])<<17|uint64(w[3])<<25|
				uint64(w[4])<<33|uint64(w[5])<<41|uint64(w[6])<<49|uint64(w[7])<<57)
			n += 8
			i += 8
			blocks += 8
		}
		if i == len(words) {
			break
		}
		w := words[i]
		if w < 64 {
			b[n] = byte(w << 1)
			n++
			blocks++
			i++
			continue
		}
		if w&opBit == 0 {
			n += binary.PutUvarint(b[n:], uint64(w)<<1)
			blocks++
			i++
			continue
		}
		if w == opBit|opExit<<16 && i+1 < len(words) {
			// Exits are as frequent as calls: encoded here, not through
			// an Event. The layout is trace.AppendEvent's.
			b[n] = byte(trace.EvExit)<<1 | 1
			n++
			n += binary.PutUvarint(b[n:], uint64(words[i+1]))
			others++
			i += 2
			continue
		}
		if w == opBit|opOutcome<<16 && i+2 < len(words) {
			// Index and map outcomes can be as frequent as blocks.
			b[n] = byte(trace.EvOutcome)<<1 | 1
			n++
			n += binary.PutUvarint(b[n:], uint64(words[i+1])|uint64(words[i+2])<<32)
			others++
			i += 3
			continue
		}
		if w>>16 == opBit>>16|opSync && i+6 < len(words) {
			// Sync events come with every lock, send and receive.
			waited := w>>8&1 != 0
			if !waited || i+8 < len(words) {
				p := words[i+1:]
				b[n], b[n+1] = byte(trace.EvSync)<<1|1, byte(w)
				b[n+2] = 0
				if waited {
					b[n+2] = 1
				}
				n += 3
				n += binary.PutUvarint(b[n:], uint64(p[0]))
				n += binary.PutUvarint(b[n:], uint64(p[1])|uint64(p[2])<<32)
				n += binary.PutVarint(b[n:], int64(uint64(p[3])|uint64(p[4])<<32))
				i += 6
				if waited {
					n += binary.PutVarint(b[n:], int64(uint64(p[5])|uint64(p[6])<<32))
					i += 2
					waits++
				}
				others++
				continue
			}
		}
		e, size, ok := rareEvent(w, words[i+1:])
		if !ok {
			break // torn read: drop the rest
		}
		n = len(trace.AppendEvent(b[:n], e))
		others++
		if e.Waited {
			waits++
		}
		i += 1 + size
	}
	c.Body = b[:n]
	c.Events, c.Blocks, c.Waits = blocks+others, blocks, waits
}

// rareEvent decodes the opcode word w and its payload p.
func rareEvent(w uint32, p []uint32) (e trace.Event, size int, ok bool) {
	op, aux := (w>>16)&0x7fff, w&0xffff
	word64 := func(j int) uint64 { return uint64(p[j]) | uint64(p[j+1])<<32 }
	switch op {
	case opExit:
		size = 1
		if len(p) < size {
			return e, 0, false
		}
		e = trace.Event{Kind: trace.EvExit, Block: p[0]}
	case opOutcome:
		size = 2
		if len(p) < size {
			return e, 0, false
		}
		e = trace.Event{Kind: trace.EvOutcome, Value: word64(0)}
	case opSpawn:
		size = 4
		if len(p) < size {
			return e, 0, false
		}
		e = trace.Event{Kind: trace.EvSpawn, Block: p[0], Ordinal: p[1], Child: word64(2)}
	case opSync:
		waited := aux>>8&1 != 0
		size = 5
		if waited {
			size = 7
		}
		if len(p) < size {
			return e, 0, false
		}
		e = trace.Event{Kind: trace.EvSync, Op: trace.Op(aux & 0xff), Block: p[0], Object: word64(1), End: int64(word64(3)), Waited: waited, Sends: aux>>9&1 != 0}
		if waited {
			e.Begin = int64(word64(5))
		}
	case opClock:
		size = 2
		if len(p) < size {
			return e, 0, false
		}
		e = trace.Event{Kind: trace.EvClock, Time: int64(word64(0))}
	default:
		return e, 0, false
	}
	return e, size, true
}

// firstBlock returns the first block word of words.
func firstBlock(words []uint32) (uint32, bool) {
	for i := 0; i < len(words); {
		w := words[i]
		if w&opBit == 0 {
			return w, true
		}
		switch (w >> 16) & 0x7fff {
		case opExit:
			i += 2
		case opOutcome, opClock:
			i += 3
		case opSpawn:
			i += 5
		case opSync:
			if w>>8&1 != 0 {
				i += 8
			} else {
				i += 6
			}
		default:
			return 0, false
		}
	}
	return 0, false
}
