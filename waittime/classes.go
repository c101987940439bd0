package waittime

import (
	"cmp"
	"math"
	"slices"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
)

// siteKey is a sync statement: its site, the block that holds it, and its
// operation.
type siteKey struct {
	site  int32
	block int32
	op    trace.Op
}

// site gathers the waits of one sync statement.
type site struct {
	key         siteKey
	waits       int
	unmatched   int
	why         map[replay.Why]int  // why the unmatched waits have no releaser
	unmatchedNs int64               // waiting time of the waits without a releaser
	wakers      map[wakerKey]*Waker // who woke them, says Go's execution trace
	total       int64
	classes     []*class
	instances   []Wait
	scratch     []share
}

// class is an equivalence class of characterizations ("Merging equivalent
// paths"): the representative is the first one, cum their sum per kind of
// step, with the goroutines that contributed.
type class struct {
	rep   []share // in order of kind
	cum   map[kind]*agg
	waits int
	total int64
	// residual is the waiting time the steps do not account for, summed
	// with its sign; missed sums its absolute value per wait, so that a
	// wait explained 10% short and one 10% over do not cancel. perturb is
	// divergo's share of total (withoutPerturb), which neither counts.
	residual, missed, perturb int64
}

type agg struct {
	ns int64
	gs map[uint64]struct{}
}

func (a *analysis) site(ev trace.Event) *site {
	k := siteKey{int32(ev.Site), int32(ev.Block), ev.Op}
	s := a.sites[k]
	if s == nil {
		s = &site{key: k}
		a.sites[k] = s
	}
	return s
}

// classify merges a characterization into the nearest class of s below the
// threshold, or starts a class. It returns the class's index. expl is
// sorted by step, so kinds of step are contiguous; it explains w - ours,
// the wait without divergo's share ours.
func (s *site) classify(expl []entry, w, ours int64, threshold float64) int {
	s.scratch = relative(expl, s.scratch[:0])
	p := s.scratch
	best, bestD := -1, math.Inf(1)
	for i, c := range s.classes {
		if d := distance(c.rep, p); d < bestD {
			best, bestD = i, d
		}
	}
	if best < 0 || bestD >= threshold {
		s.classes = append(s.classes, &class{rep: slices.Clone(p), cum: make(map[kind]*agg)})
		best = len(s.classes) - 1
	}
	c := s.classes[best]
	c.waits++
	c.total += w
	var sum int64
	for _, e := range expl {
		sum += e.ns
	}
	c.perturb += ours
	c.residual += w - ours - sum
	c.missed += abs(w - ours - sum)
	for _, e := range expl {
		g := c.cum[e.key.kind()]
		if g == nil {
			g = &agg{gs: make(map[uint64]struct{}, 1)}
			c.cum[e.key.kind()] = g
		}
		g.ns += e.ns
		g.gs[e.key.g] = struct{}{}
	}
	return best
}

// share is a kind of step's relative duration in a path.
type share struct {
	k kind
	v float64
}

func compareKinds(x, y kind) int {
	return cmp.Or(cmp.Compare(x.at, y.at), cmp.Compare(x.state, y.state))
}

// relative appends to out the share of each kind of step in a path (sorted
// by step): its duration over the sum of absolute durations, in order of
// kind.
func relative(es []entry, out []share) []share {
	var sum float64
	for _, e := range es {
		sum += math.Abs(float64(e.ns))
	}
	if sum == 0 {
		return out
	}
	for _, e := range es {
		k := e.key.kind()
		if n := len(out); n > 0 && out[n-1].k == k {
			out[n-1].v += float64(e.ns) / sum
			continue
		}
		out = append(out, share{k, float64(e.ns) / sum})
	}
	return out
}

// distance is the seed's relative distance, summed over the steps of either
// path (a step missing from one has relative duration 0 there). Both are in
// order of kind.
func distance(r, p []share) float64 {
	var d float64
	i, j := 0, 0
	for i < len(r) || j < len(p) {
		switch {
		case j == len(p) || i < len(r) && compareKinds(r[i].k, p[j].k) < 0:
			d += math.Abs(r[i].v)
			i++
		case i == len(r) || compareKinds(r[i].k, p[j].k) > 0:
			d += math.Abs(p[j].v)
			j++
		default:
			d += math.Abs(r[i].v - p[j].v)
			i++
			j++
		}
	}
	return d
}
