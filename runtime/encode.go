package runtime

import (
	"encoding/binary"
	"math/bits"

	"github.com/divergo/divergo/internal/trace"
)

// First bytes of the frequent events, as trace.AppendEvent writes them.
const (
	hExit    = byte(trace.EvExit)<<1 | 1
	hOutcome = byte(trace.EvOutcome)<<1 | 1
	hSync    = byte(trace.EvSync)<<1 | 1
	hPack    = byte(trace.EvPack)<<1 | 1
)

// slack is room kept past the encoded events for putUvarint32's 8-byte
// store.
const slack = 8

// frameSize is the frame encode needs for k words: the chunk header's
// headroom, six bytes per word (encode says why that suffices) and slack.
func frameSize(k int) int { return trace.ChunkHeadroom + 6*k + slack }

// frameBytes is the frame of a full buffer.
var frameBytes = frameSize(maxWords)

// encode turns words into the chunk's body. It stops at a word that would
// read past the end (a buffer read while its goroutine was writing).
//
// Times in words are stamps (clock.go); cv turns them into the file's
// nanoseconds.
//
// It is the runtime's hottest code after the probes: every word passes here
// once (on the writer goroutine, writer.go, beside the program's own).
// Six bytes per word always suffice (a block id takes at most 5, a
// one-word outcome 6, and every other event at most 5 per word it
// occupies), so the body is sized once and bytes are written by index, not
// appended. A run of one-byte block ids goes eight at a time
// while it lasts, then one at a time: the eight-word test is tried once
// per run, not once per word, and only when the run's third word is a
// small id too, so that buffers where outcomes and sync events interleave
// with short runs of blocks (a word-counting loop) hardly pay for it.
//
// The body is encoded into c.Frame, after trace.ChunkHeadroom bytes where
// the writer puts the chunk's header: the body goes to the file without
// being copied again.
func encode(words []uint32, c *trace.Chunk, cv *stampConv) {
	const h = trace.ChunkHeadroom
	frame := c.Frame[:0]
	if need := frameSize(len(words)); cap(frame) < need {
		frame = make([]byte, 0, need)
	}
	b := frame[h:cap(frame)]
	n, i := 0, 0
	var blocks, others, waits uint64
	var packed uint64 // block executions in pack events
	for i < len(words) {
		w := words[i]
		if w < 64 {
			j := i
			for j+8 <= len(words) {
				r := words[j : j+8 : j+8]
				if r[2] >= 64 || r[0]|r[1]|r[3]|r[4]|r[5]|r[6]|r[7] >= 64 || n+8 > len(b) {
					break
				}
				binary.LittleEndian.PutUint64(b[n:], uint64(r[0])<<1|uint64(r[1])<<9|uint64(r[2])<<17|uint64(r[3])<<25|
					uint64(r[4])<<33|uint64(r[5])<<41|uint64(r[6])<<49|uint64(r[7])<<57)
				n += 8
				j += 8
			}
			var outs uint64
			// One at a time, with the one-word outcomes that interleave
			// with short runs in index and map loops: the loop's commonest
			// words without a trip through the general tests.
			for j < len(words) && n < len(b) {
				v := words[j]
				if v < 64 {
					b[n] = byte(v << 1)
					n++
					j++
					continue
				}
				if v>>30 != outBit>>30 {
					break
				}
				b[n] = hOutcome
				n = putUvarint32(b, n+1, v&^outBit)
				outs++
				j++
			}
			blocks += uint64(j-i) - outs
			others += outs
			i = j
			continue
		}
		if w&opBit == 0 {
			if w&outBit != 0 {
				b[n] = hOutcome
				n = putUvarint32(b, n+1, w&^outBit)
				others++
			} else {
				n = putUvarint32(b, n, w<<1) // w < outBit: w<<1 does not overflow
				blocks++
			}
			i++
			continue
		}
		op := w >> 16 & 0x7fff
		if op == opExit && i+1 < len(words) {
			// Exits, as frequent as calls: a byte and a uvarint.
			b[n] = hExit
			n = putUvarint32(b, n+1, words[i+1])
			others++
			i += 2
			continue
		}
		size := 6 // a sync event's opcode and payload, when it did not wait
		waited := w>>8&1 != 0
		if waited {
			size = 8
		}
		if op == opSync && w>>9&0x7f == 0 && i+size <= len(words) {
			// Sync events come with every lock, send and receive. (Torn ones,
			// selects that send or say their clause and waits still blocked
			// take the general path.)
			p := words[i+1 : i+size : i+size]
			b[n], b[n+1], b[n+2] = hSync, byte(w), 0
			if waited {
				b[n+2] = 1
				waits++
			}
			n = putUvarint32(b, n+3, p[0])
			n += binary.PutUvarint(b[n:], uint64(p[1])|uint64(p[2])<<32)
			var begin int64
			if waited { // before end: cv.ns keeps times in order
				begin = cv.ns(int64(uint64(p[5]) | uint64(p[6])<<32))
			}
			n += binary.PutVarint(b[n:], cv.ns(int64(uint64(p[3])|uint64(p[4])<<32)))
			if waited {
				n += binary.PutVarint(b[n:], begin)
			}
			others++
			i += size
			continue
		}
		if op == opPack && i+3 < len(words) {
			// A packed loop's word: one every 64 probes or so of a tight
			// loop. Its n is at most 64, a byte of uvarint. The same word
			// again right after it, as a loop whose path repeats writes
			// it, is counted, not written (FORMAT.md, "Repeated words").
			p := words[i : i+4 : i+4]
			j := i + 4
			for j+3 < len(words) && words[j] == p[0] && words[j+1] == p[1] && words[j+2] == p[2] && words[j+3] == p[3] {
				j += 4
			}
			reps := uint32(j-i)/4 - 1
			k := w & 0xffff
			b[n] = hPack
			n = putUvarint32(b, n+1, p[1])
			n = putUvarint32(b, n, k)
			l := n // the length byte
			n = putCodes(b, n, uint64(p[2])|uint64(p[3])<<32)
			if reps > 0 {
				b[l] |= trace.PackRepeats
				n = putUvarint32(b, n, reps)
			}
			others++
			packed += uint64(k) * uint64(reps+1)
			i = j
			continue
		}
		e, size, ok := rareEvent(w, words[i+1:])
		if !ok {
			break // torn read: drop the rest
		}
		switch e.Kind {
		case trace.EvSync:
			if e.Waited {
				e.Begin = cv.ns(e.Begin)
			}
			e.End = cv.ns(e.End)
		case trace.EvClock:
			e.Time = cv.ns(e.Time)
		case trace.EvPerturb: // begin first: cv.ns keeps times in order
			e.Begin = cv.ns(e.Begin)
			e.End = cv.ns(e.End)
		case trace.EvPack: // a count (opPackN), or a pack the fast path declined
			packed += e.Object
		}
		n = len(trace.AppendEvent(b[:n], e))
		others++
		if e.Waited {
			waits++
		}
		i += 1 + size
	}
	c.Frame, c.Body = frame[:h+n], b[:n]
	c.Events, c.Blocks, c.Waits = blocks+others, blocks+packed, waits
}

// putUvarint32 writes v as a uvarint at b[n:] and returns the new end. b
// must have slack bytes past the encoding: the five bytes of any uint32 are
// built in a register and stored at once, without a loop whose exit a
// hash's varying length would mispredict.
func putUvarint32(b []byte, n int, v uint32) int {
	if v < 1<<7 {
		b[n] = byte(v)
		return n + 1
	}
	x := uint64(v)
	enc := x&0x7f | x<<1&0x7f00 | x<<2&0x7f0000 | x<<3&0x7f000000 | x<<4&0xf00000000
	l := uvarintLen32[bits.Len32(v)]
	binary.LittleEndian.PutUint64(b[n:], enc|uvarintMore[l])
	return n + int(l)
}

// putCodes writes a pack event's codes at b[n:] as trace.AppendEvent does
// (a length byte, then the codes' bytes, low first) and returns the new
// end. b must have 8 bytes past them.
func putCodes(b []byte, n int, codes uint64) int {
	l := (bits.Len64(codes) + 7) / 8
	b[n] = byte(l)
	binary.LittleEndian.PutUint64(b[n+1:], codes)
	return n + 1 + l
}

// uvarintLen32[k] is the length of the uvarint of a k-bit number;
// uvarintMore[l] the continuation bits of an l-byte uvarint.
var (
	uvarintLen32 = [33]uint8{1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5}
	uvarintMore  = [6]uint64{0, 0, 0x80, 0x8080, 0x808080, 0x80808080}
)

// payloadWords is the number of words that follow opcode word w, or -1
// for an unknown opcode.
func payloadWords(w uint32) int {
	switch (w >> 16) & 0x7fff {
	case opExit:
		return 1
	case opOutcome:
		return 2
	case opClock:
		return 2
	case opPerturb:
		return 4
	case opPack:
		return 3
	case opPackN:
		return 5
	case opSpawn:
		return 4
	case opSync:
		if w>>8&1 != 0 {
			return 7
		}
		return 5
	}
	return -1
}

// rareEvent decodes the opcode word w and its payload p.
func rareEvent(w uint32, p []uint32) (e trace.Event, size int, ok bool) {
	size = payloadWords(w)
	if size < 0 || len(p) < size {
		return e, 0, false
	}
	aux := w & 0xffff
	word64 := func(j int) uint64 { return uint64(p[j]) | uint64(p[j+1])<<32 }
	switch (w >> 16) & 0x7fff {
	case opExit:
		e = trace.Event{Kind: trace.EvExit, Block: p[0]}
	case opOutcome:
		e = trace.Event{Kind: trace.EvOutcome, Value: word64(0)}
	case opSpawn:
		e = trace.Event{Kind: trace.EvSpawn, Site: p[0], Ordinal: p[1], Child: word64(2)}
	case opSync:
		waited := aux>>8&1 != 0
		e = trace.Event{Kind: trace.EvSync, Op: trace.Op(aux & 0xff), Site: p[0], Object: word64(1), End: int64(word64(3)), Waited: waited, Sends: aux>>9&1 != 0, Blocked: waited && aux>>10&1 != 0, Case: aux >> 11}
		if waited {
			e.Begin = int64(word64(5))
		}
	case opClock:
		e = trace.Event{Kind: trace.EvClock, Time: int64(word64(0))}
	case opPerturb:
		e = trace.Event{Kind: trace.EvPerturb, Begin: int64(word64(0)), End: int64(word64(2))}
	case opPack:
		e = trace.Event{Kind: trace.EvPack, Block: p[0], Value: word64(1), Object: uint64(aux)}
	case opPackN:
		e = trace.Event{Kind: trace.EvPack, Block: p[0], Value: word64(1), Object: word64(3)}
	}
	return e, size, true
}

// firstBlock returns the first block word of words.
func firstBlock(words []uint32) (uint32, bool) {
	for i := 0; i < len(words); {
		w := words[i]
		if w&opBit == 0 {
			if w&outBit == 0 {
				return w, true
			}
			i++ // an outcome
			continue
		}
		k := payloadWords(w)
		if k < 0 {
			return 0, false
		}
		i += 1 + k
	}
	return 0, false
}
