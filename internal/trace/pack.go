package trace

import (
	"fmt"
	"math"

	"github.com/divergo/divergo/internal/tbb"
)

// packLoop is one packed loop of the graph: its probed blocks by code.
type packLoop struct {
	ids  []uint32
	bits uint
}

// packLoops indexes the graph's packed loops by head.
func packLoops(g *tbb.Graph) map[uint32]packLoop {
	loops := map[uint32]packLoop{}
	for head, ids := range g.PackedLoops() {
		l := packLoop{bits: tbb.PackBits(len(ids))}
		for _, id := range ids {
			l.ids = append(l.ids, uint32(id))
		}
		loops[uint32(head)] = l
	}
	return loops
}

// unpacker puts back the block events a pack event stands for, a few at a
// time: the rest of a word waits for the next read. The first code is the
// highest of the used bits: the program shifts the word left and puts each
// code in its low bits.
type unpacker struct {
	loops map[uint32]packLoop
	ids   []uint32
	bits  uint
	word  uint64
	used  uint   // the bits a word's codes use
	sh    uint   // the codes left of this word are word's bits below sh
	n     uint64 // choices left, of this word and its repeats
}

// start takes pack event e; it checks every code before giving any.
func (u *unpacker) start(e Event) error {
	l, ok := u.loops[e.Block]
	if !ok {
		return fmt.Errorf("pack event: block %d heads no packed loop of the graph", e.Block)
	}
	n := e.Object
	if n == 0 {
		return fmt.Errorf("pack event of loop %d: no codes", e.Block)
	}
	words := uint64(e.Ordinal) + 1
	if n > math.MaxUint64/words {
		return fmt.Errorf("pack event of loop %d: %d codes %d times overflow a count", e.Block, n, words)
	}
	if l.bits == 0 {
		// One block: n counts it.
		if e.Value != 0 {
			return fmt.Errorf("pack event of loop %d: codes %#x, but the loop has one probed block", e.Block, e.Value)
		}
		u.ids, u.bits, u.word, u.used, u.sh, u.n = l.ids, 0, 0, 0, 0, n*words
		return nil
	}
	if n > uint64(64/l.bits) {
		return fmt.Errorf("pack event of loop %d: %d codes of %d bits in a 64-bit word", e.Block, n, l.bits)
	}
	used := uint(n) * l.bits
	if used < 64 && e.Value>>used != 0 {
		return fmt.Errorf("pack event of loop %d: codes %#x use more than %d bits", e.Block, e.Value, used)
	}
	mask := uint64(1)<<l.bits - 1
	for k := uint(0); k < used; k += l.bits {
		if c := e.Value >> k & mask; c >= uint64(len(l.ids)) {
			return fmt.Errorf("pack event of loop %d: code %d, the loop has %d packed blocks", e.Block, c, len(l.ids))
		}
	}
	u.ids, u.bits, u.word, u.used, u.sh, u.n = l.ids, l.bits, e.Value, used, used, n*words
	return nil
}

// fill puts the next block events into dst and returns how many.
func (u *unpacker) fill(dst []Event) int {
	k := 0
	if u.bits == 0 {
		for k < len(dst) && u.n > 0 {
			dst[k] = Event{Kind: EvBlock, Block: u.ids[0]}
			k++
			u.n--
		}
		return k
	}
	mask := uint64(1)<<u.bits - 1
	for k < len(dst) && u.n > 0 {
		if u.sh == 0 { // the word again (format version 4)
			u.sh = u.used
		}
		u.sh -= u.bits
		dst[k] = Event{Kind: EvBlock, Block: u.ids[u.word>>u.sh&mask]}
		k++
		u.n--
	}
	return k
}
