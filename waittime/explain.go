package waittime

import (
	"cmp"
	"slices"
)

// sides sums the durations of one kind of step on the releaser's (long) and
// the waiter's (short) path.
type sides struct {
	long, short     int64
	inLong, inShort bool
	removed         bool
}

// sidesOf returns the sums of kind k, registering k as touched. The sums
// are a dense table over places (blocks or sites) × states, so no hashing
// per step.
func (a *analysis) sidesOf(k kind) *sides {
	i := int(k.at)*numStates + int(k.state)
	if i >= len(a.sums) {
		a.sums = append(a.sums, make([]sides, i+1-len(a.sums))...)
	}
	s := &a.sums[i]
	if !s.inLong && !s.inShort {
		a.touched = append(a.touched, k)
	}
	return s
}

// removeRedundant is the greedy heuristic of "Removing redundant steps":
// kinds of step (TBB and state, any goroutine) on both paths are removed in
// order of increasing difference in duration while the difference of the
// two paths moves by no more than (1 - tolerance) × the waiting time w. It
// appends to out the remaining steps, signed (+ releaser, - waiter), merged
// per step and sorted.
func (a *analysis) removeRedundant(long, short []entry, w int64, out []entry) []entry {
	for _, k := range a.touched {
		*a.sidesOf(k) = sides{}
	}
	a.touched = a.touched[:0]
	for _, e := range long {
		s := a.sidesOf(e.key.kind())
		s.long += e.ns
		s.inLong = true
	}
	for _, e := range short {
		s := a.sidesOf(e.key.kind())
		s.short += e.ns
		s.inShort = true
	}
	cands := a.cands[:0]
	for _, k := range a.touched {
		if s := a.sidesOf(k); s.inLong && s.inShort {
			cands = append(cands, cand{k, s.long - s.short})
		}
	}
	slices.SortFunc(cands, func(x, y cand) int {
		return cmp.Or(cmp.Compare(abs(x.d), abs(y.d)), cmp.Compare(x.k.at, y.k.at), cmp.Compare(x.k.state, y.k.state))
	})
	a.cands = cands
	limit := (1 - a.opts.Tolerance) * float64(w)
	var shift int64
	for _, c := range cands {
		if float64(abs(shift+c.d)) > limit {
			break
		}
		shift += c.d
		a.sidesOf(c.k).removed = true
	}
	for _, e := range long {
		if !a.sidesOf(e.key.kind()).removed {
			out = append(out, e)
		}
	}
	for _, e := range short {
		if !a.sidesOf(e.key.kind()).removed {
			out = append(out, entry{e.key, -e.ns})
		}
	}
	return mergeEntries(out, &a.sortTmp)
}

// cand is a kind of step on both paths and its difference in duration.
type cand struct {
	k kind
	d int64
}

// mergeEntries sorts entries by step and adds up those of the same step,
// dropping zeros. tmp is scratch space for the sort, kept between calls.
func mergeEntries(es []entry, tmp *[]entry) []entry {
	sortEntries(es, tmp)
	out := es[:0]
	for _, e := range es {
		if n := len(out); n > 0 && out[n-1].key == e.key {
			out[n-1].ns += e.ns
			continue
		}
		out = append(out, e)
	}
	kept := out[:0]
	for _, e := range out {
		if e.ns != 0 {
			kept = append(kept, e)
		}
	}
	return kept
}

// sortEntries sorts es by step (compareKeys). A wait's two paths hold a
// step for every goroutine whose work reached them through earlier waits:
// thousands with 256 goroutines on one lock (Go's
// test/fixedbugs/issue79186.go), where sorting them with compareKeys was
// half of divergo wait's time. Keys that fit are sorted as one word in
// compareKeys's order, ordered without a comparison (radix sort).
func sortEntries(es []entry, tmp *[]entry) {
	if len(es) < 64 {
		slices.SortFunc(es, func(x, y entry) int { return compareKeys(x.key, y.key) })
		return
	}
	for _, e := range es {
		if !sortable(e.key) {
			slices.SortFunc(es, func(x, y entry) int { return compareKeys(x.key, y.key) })
			return
		}
	}
	if cap(*tmp) < len(es) {
		*tmp = make([]entry, len(es))
	}
	radixSort(es, (*tmp)[:len(es)])
}

// sortable says whether k's sort word holds it: a place from -1 up, a
// state below 16 and a recorder id below 2^32.
func sortable(k stepKey) bool {
	return k.at >= -1 && int64(k.at)+1 < 1<<28 && k.state < 16 && k.g < 1<<32
}

// sortWord is k in one word, ordered as compareKeys orders keys.
func sortWord(k stepKey) uint64 {
	return uint64(int64(k.at)+1)<<36 | uint64(k.state)<<32 | k.g
}

// radixSort sorts es by sortWord, least significant byte first, skipping
// the bytes all words share; stable, so equal keys keep their order. tmp
// is as long as es.
func radixSort(es, tmp []entry) {
	var or, and uint64 = 0, ^uint64(0)
	for _, e := range es {
		w := sortWord(e.key)
		or, and = or|w, and&w
	}
	src, dst := es, tmp
	for shift := uint(0); shift < 64; shift += 8 {
		if (or^and)>>shift&0xff == 0 {
			continue // every word has this byte
		}
		var count [257]int
		for _, e := range src {
			count[sortWord(e.key)>>shift&0xff+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, e := range src {
			b := sortWord(e.key) >> shift & 0xff
			dst[count[b]] = e
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &es[0] {
		copy(es, src)
	}
}

func compareKeys(x, y stepKey) int {
	return cmp.Or(cmp.Compare(x.at, y.at), cmp.Compare(x.state, y.state), cmp.Compare(x.g, y.g))
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
