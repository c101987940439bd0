package compare

import (
	"regexp"
	"slices"
	"strings"
)

// Group is the divergent sections that parted at one statement: what a
// reader wants first is where runs went different ways, not each of the
// hundreds of times a loop's worth of goroutines did so at the same line.
type Group struct {
	// Where is the change point (Kind "none" for a block the analyzer did
	// not mark).
	Where Point `json:"where"`
	// CutOff: every section of the group is a goroutine that one run's exit
	// caught running or blocked (Section.CutOff), not a choice.
	CutOff    bool `json:"cut_off,omitempty"`
	Unflagged bool `json:"unflagged,omitempty"`
	// Sections indexes Report.Sections.
	Sections []int `json:"sections"`
	// Goroutines are the spawn paths involved, ordinals collapsed
	// (worker@main.go:50#*), each with how many goroutines it stands for.
	Goroutines []Count `json:"goroutines"`
	// Took says what each side did there (Side.Took), as pairs, most
	// frequent first.
	Took []Took `json:"took"`
	// A and B add up the sides of the sections; StartNS is the earliest.
	A Side `json:"a"`
	B Side `json:"b"`
	// CP is where the runs met again: a position, "return of F", or
	// "never" when a stream ended first in some section.
	CP       string  `json:"cp"`
	Distance float64 `json:"distance"`
}

// Took is what run A and run B did at a change point, and in how many
// sections of a group they did so.
type Took struct {
	A string `json:"a"`
	B string `json:"b"`
	N int    `json:"n"`
}

// Count is a thing and how many times it occurred.
type Count struct {
	What string `json:"what"`
	N    int    `json:"n"`
}

// Work is the group's size: the SSA instructions executed inside its
// sections on both sides, the measure groups are ranked by (the graph's
// estimate of work, unlike time steady from run to run).
func (g *Group) Work() int64 { return g.A.Instrs + g.B.Instrs }

var ordinal = regexp.MustCompile(`#[0-9]+`)

// collapse replaces the ordinals of a spawn path with #*: goroutines
// started by the same go statements read as one (a group of one keeps its
// path as it is).
func collapse(spawn string) string { return ordinal.ReplaceAllString(spawn, "#*") }

// GroupSections groups sections by the statement where the runs parted and
// ranks the groups by the work inside them, then by their number of
// sections, then by when they began.
func GroupSections(secs []Section) []Group {
	type key struct {
		kind, pos, fn string
		cut, unfl     bool
	}
	index := map[key]int{}
	var gs []Group
	gor := []map[string]map[string]bool{} // collapsed path -> paths
	took := []map[[2]string]int{}
	// A loop's worth of sections share a few spawn paths: each is
	// collapsed once (a regexp per section was most of a dense pair's
	// grouping). And sections come in runs of one goroutine parting at
	// one statement: the previous section's group and spawn path are
	// checked before the maps are.
	collapsed := map[string]string{}
	var prev *Section
	j := -1
	for i := range secs {
		s := &secs[i]
		if prev == nil || s.TCP != prev.TCP || s.CutOff != prev.CutOff || s.Unflagged != prev.Unflagged {
			k := key{s.TCP.Kind, s.TCP.Pos, s.TCP.Func, s.CutOff, s.Unflagged}
			var ok bool
			if j, ok = index[k]; !ok {
				j = len(gs)
				index[k] = j
				gs = append(gs, Group{Where: s.TCP, CutOff: s.CutOff, Unflagged: s.Unflagged, CP: cpText(s)})
				gs[j].A.StartNS, gs[j].B.StartNS = s.A.StartNS, s.B.StartNS
				gor = append(gor, map[string]map[string]bool{})
				took = append(took, map[[2]string]int{})
			}
			prev = nil // the spawn path's set is another group's
		}
		g := &gs[j]
		g.Sections = append(g.Sections, i)
		g.Distance += s.Distance
		add(&g.A, s.A)
		add(&g.B, s.B)
		if c := cpText(s); c != g.CP {
			if s.Unresolved || g.CP == "never" {
				g.CP = "never"
			} else if !strings.Contains(g.CP, c) {
				g.CP += ", " + c
			}
		}
		if prev == nil || s.Spawn != prev.Spawn {
			c, ok := collapsed[s.Spawn]
			if !ok {
				c = collapse(s.Spawn)
				collapsed[s.Spawn] = c
			}
			if gor[j][c] == nil {
				gor[j][c] = map[string]bool{}
			}
			gor[j][c][s.Spawn] = true
		}
		took[j][[2]string{s.A.Took, s.B.Took}]++
		prev = s
	}
	for j := range gs {
		n := map[string]int{}
		for c, paths := range gor[j] {
			if len(paths) == 1 {
				// One goroutine: its own path, which says which one
				// (the second a go statement started, not "#*").
				for p := range paths {
					n[p] = 1
				}
				continue
			}
			n[c] = len(paths)
		}
		gs[j].Goroutines = counts(n)
		for ab, n := range took[j] {
			gs[j].Took = append(gs[j].Took, Took{ab[0], ab[1], n})
		}
		slices.SortFunc(gs[j].Took, func(x, y Took) int {
			if x.N != y.N {
				return y.N - x.N
			}
			return strings.Compare(x.A+"\x00"+x.B, y.A+"\x00"+y.B)
		})
	}
	slices.SortStableFunc(gs, func(x, y Group) int {
		switch {
		case x.Work() != y.Work():
			return cmpDesc(x.Work(), y.Work())
		case len(x.Sections) != len(y.Sections):
			return cmpDesc(int64(len(x.Sections)), int64(len(y.Sections)))
		}
		return cmpDesc(y.A.StartNS, x.A.StartNS)
	})
	return gs
}

func cmpDesc(x, y int64) int {
	switch {
	case x > y:
		return -1
	case x < y:
		return 1
	}
	return 0
}

func add(t *Side, s Side) {
	t.Blocks += s.Blocks
	t.TCPs += s.TCPs
	t.Instrs += s.Instrs
	t.TimeNS += s.TimeNS
	t.Depth = max(t.Depth, s.Depth)
	t.StartNS = min(t.StartNS, s.StartNS)
}

// counts orders a tally by count, then by name.
func counts(m map[string]int) []Count {
	out := make([]Count, 0, len(m))
	for w, n := range m {
		out = append(out, Count{w, n})
	}
	slices.SortFunc(out, func(x, y Count) int {
		if x.N != y.N {
			return y.N - x.N
		}
		return strings.Compare(x.What, y.What)
	})
	return out
}

func cpText(s *Section) string {
	switch {
	case s.Unresolved:
		return "never"
	case s.CP.Pos == "return":
		return "return of " + s.CP.Func
	}
	return s.CP.Pos
}
