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

// removeRedundant is the greedy heuristic of "Removing redundant steps":
// kinds of step (TBB and state, any goroutine) on both paths are removed in
// order of increasing difference in duration while the difference of the
// two paths moves by no more than (1 - tolerance) × the waiting time w. It
// appends to out the remaining steps, signed (+ releaser, - waiter), merged
// per step and sorted.
func (a *analysis) removeRedundant(long, short []entry, w int64, out []entry) []entry {
	clear(a.sums)
	get := func(k kind) *sides {
		s := a.sums[k]
		if s == nil {
			s = &sides{}
			a.sums[k] = s
		}
		return s
	}
	for _, e := range long {
		s := get(e.key.kind())
		s.long += e.ns
		s.inLong = true
	}
	for _, e := range short {
		s := get(e.key.kind())
		s.short += e.ns
		s.inShort = true
	}
	type cand struct {
		k kind
		d int64
	}
	var cands []cand
	for k, s := range a.sums {
		if s.inLong && s.inShort {
			cands = append(cands, cand{k, s.long - s.short})
		}
	}
	slices.SortFunc(cands, func(x, y cand) int {
		return cmp.Or(cmp.Compare(abs(x.d), abs(y.d)), cmp.Compare(x.k.block, y.k.block), cmp.Compare(x.k.state, y.k.state))
	})
	limit := (1 - a.opts.Tolerance) * float64(w)
	var shift int64
	for _, c := range cands {
		if float64(abs(shift+c.d)) > limit {
			break
		}
		shift += c.d
		a.sums[c.k].removed = true
	}
	for _, e := range long {
		if !a.sums[e.key.kind()].removed {
			out = append(out, e)
		}
	}
	for _, e := range short {
		if !a.sums[e.key.kind()].removed {
			out = append(out, entry{e.key, -e.ns})
		}
	}
	return mergeEntries(out)
}

// mergeEntries sorts entries by step and adds up those of the same step,
// dropping zeros.
func mergeEntries(es []entry) []entry {
	slices.SortFunc(es, func(x, y entry) int { return compareKeys(x.key, y.key) })
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

func compareKeys(x, y stepKey) int {
	return cmp.Or(cmp.Compare(x.block, y.block), cmp.Compare(x.state, y.state), cmp.Compare(x.g, y.g))
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
