package waittime

import (
	"math"

	"github.com/divergo/divergo/internal/trace"
)

// siteKey is a sync statement: the block that holds it and its operation.
type siteKey struct {
	block int32
	op    trace.Op
}

// site gathers the waits of one sync statement.
type site struct {
	key       siteKey
	waits     int
	unmatched int
	total     int64
	classes   []*class
	instances []Wait
}

// class is an equivalence class of characterizations ("Merging equivalent
// paths"): the representative is the first one, cum their sum per kind of
// step, with the goroutines that contributed.
type class struct {
	rep   map[kind]float64
	cum   map[kind]*agg
	waits int
	total int64
}

type agg struct {
	ns int64
	gs map[uint64]struct{}
}

func (a *analysis) site(ev trace.Event) *site {
	k := siteKey{int32(ev.Block), ev.Op}
	s := a.sites[k]
	if s == nil {
		s = &site{key: k}
		a.sites[k] = s
	}
	return s
}

// classify merges a characterization into the nearest class of s below the
// threshold, or starts a class. It returns the class's index.
func (s *site) classify(expl []entry, w int64, threshold float64) int {
	p := relative(expl)
	best, bestD := -1, math.Inf(1)
	for i, c := range s.classes {
		if d := distance(c.rep, p); d < bestD {
			best, bestD = i, d
		}
	}
	if best < 0 || bestD >= threshold {
		s.classes = append(s.classes, &class{rep: p, cum: make(map[kind]*agg)})
		best = len(s.classes) - 1
	}
	c := s.classes[best]
	c.waits++
	c.total += w
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

// relative is the share of each kind of step in a path: its duration over
// the sum of absolute durations.
func relative(es []entry) map[kind]float64 {
	var sum float64
	for _, e := range es {
		sum += math.Abs(float64(e.ns))
	}
	m := make(map[kind]float64, len(es))
	if sum == 0 {
		return m
	}
	for _, e := range es {
		m[e.key.kind()] += float64(e.ns) / sum
	}
	return m
}

// distance is the seed's relative distance, summed over the steps of either
// path (a step missing from one has relative duration 0 there).
func distance(r, p map[kind]float64) float64 {
	var d float64
	for k, x := range r {
		d += math.Abs(x - p[k])
	}
	for k, y := range p {
		if _, ok := r[k]; !ok {
			d += math.Abs(y)
		}
	}
	return d
}
