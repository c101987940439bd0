package tbb

import (
	"math/bits"
	"slices"
)

// Packed loops. An innermost loop whose blocks record nothing but their
// probes (no call, no channel operation, no outcome) has its probes packed:
// each probe puts the index of its block among the loop's probed blocks
// (its code) into a word the function keeps in a register, PackBits bits
// a probe, and the word is written as one event when it is full and when
// the loop ends. Readers put the block events back from the word, in order,
// so what they see is what one probe a block gives.

// PackBits is the number of bits a choice among n packed blocks takes: 0
// for one block (the word then counts its executions).
func PackBits(n int) uint {
	if n <= 1 {
		return 0
	}
	return uint(bits.Len(uint(n - 1)))
}

// PackedLoops returns, for every packed loop of g, its head's id and its
// packed blocks' ids in increasing order: a block's code is its index
// there.
func (g *Graph) PackedLoops() map[int][]int {
	var loops map[int][]int
	for _, b := range g.Blocks {
		if b == nil || b.Pack == 0 {
			continue
		}
		if loops == nil {
			loops = map[int][]int{}
		}
		loops[b.Pack] = append(loops[b.Pack], b.ID)
	}
	for _, ids := range loops {
		slices.Sort(ids)
	}
	return loops
}
