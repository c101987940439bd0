package compare

import (
	"fmt"
	"sort"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// spawnKey is a goroutine's place among its parent's spawns. A goroutine
// without a recorded go statement (main, or one started by uninstrumented
// library code such as errgroup's Group.Go) has no parent and site 0 and
// is told apart by first, its first block plus one (0 when it ran none),
// by the function that started it when the trace knows, and by its
// ordinal: the order in which its creator evaluated the function literal
// it runs, when it was handed one (runtime/handoff.go), else 0. Recorder
// and goroutine ids follow the schedule; the function a goroutine starts
// in, its creator and the order of creation do not.
type spawnKey struct {
	site    uint32
	ordinal uint32
	first   int64
	creator string
}

func keyOf(g Goroutine) spawnKey {
	k := spawnKey{site: g.Site, ordinal: g.Ordinal}
	if orphan(g) {
		if g.HasFirst {
			k.first = int64(g.FirstBlock) + 1
		}
		// By its label, as names show it: creators of one label
		// (net/http's HTTP/1 and HTTP/2 servers) number their
		// goroutines together.
		if g.Creator != "" {
			k.creator = trace.CreatorLabel(g.Creator)
		}
	}
	return k
}

// orphan reports whether g was started by no go statement of the program:
// main, a test's goroutine, or one uninstrumented code started.
func orphan(g Goroutine) bool { return g.Parent == 0 && g.Site == 0 }

// gPair is a goroutine of A matched with one of B.
type gPair struct {
	a, b  uint64
	spawn string
	// unfinA and unfinB: the goroutine of that run was cut off at exit.
	unfinA, unfinB bool
}

// lone is a goroutine of one run without a partner.
type lone struct {
	id    uint64
	spawn string
}

// match pairs goroutines by spawn path: roots by their spawn site and
// ordinal, children of a matched pair by site and ordinal among that pair's
// children. Goroutines without a go statement are paired by first block,
// then in order among those with the same one. Children of an unmatched
// goroutine are unmatched too.
func match(p *program, ga, gb []Goroutine) (pairs []gPair, onlyA, onlyB []lone, err error) {
	ka, ra, err := family(ga)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("trace a: %w", err)
	}
	kb, rb, err := family(gb)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("trace b: %w", err)
	}
	// The trace's name of a goroutine when it has one, as show and wait
	// print it; else the spawn path built here.
	named := func(g Goroutine, built string) string {
		if g.Path != "" {
			return g.Path
		}
		return built
	}
	var walkLone func(kids map[uint64][]Goroutine, g Goroutine, path string, out *[]lone)
	walkLone = func(kids map[uint64][]Goroutine, g Goroutine, path string, out *[]lone) {
		*out = append(*out, lone{id: g.ID, spawn: named(g, path)})
		for _, c := range kids[g.ID] {
			walkLone(kids, c, path+" > "+p.site(c, 0), out)
		}
	}
	var walk func(xs, ys []Goroutine, prefix string)
	walk = func(xs, ys []Goroutine, prefix string) {
		name := func(g Goroutine, n int) string {
			if prefix == "" {
				return p.site(g, n)
			}
			return prefix + " > " + p.site(g, n)
		}
		byKey := map[spawnKey][]Goroutine{}
		for _, y := range ys {
			k := keyOf(y)
			byKey[k] = append(byKey[k], y)
		}
		nth := map[spawnKey]int{}
		for _, x := range xs {
			k := keyOf(x)
			nth[k]++
			path := name(x, nth[k])
			if cand := byKey[k]; len(cand) > 0 {
				y := cand[0]
				byKey[k] = cand[1:]
				pairs = append(pairs, gPair{a: x.ID, b: y.ID, spawn: named(x, path), unfinA: x.Unfinished, unfinB: y.Unfinished})
				walk(ka[x.ID], kb[y.ID], path)
				continue
			}
			walkLone(ka, x, path, &onlyA)
		}
		for _, y := range ys {
			k := keyOf(y)
			for _, left := range byKey[k] {
				if left.ID == y.ID {
					nth[k]++
					walkLone(kb, y, name(y, nth[k]), &onlyB)
				}
			}
		}
	}
	walk(ra, rb, "")
	// Goroutines whose parent chain loops never hang off a root: report
	// them alone rather than drop them.
	seen := map[uint64]bool{}
	for _, pr := range pairs {
		seen[pr.a] = true
	}
	for _, l := range onlyA {
		seen[l.id] = true
	}
	for _, g := range ga {
		if !seen[g.ID] {
			onlyA = append(onlyA, lone{id: g.ID, spawn: "?"})
		}
	}
	seen = map[uint64]bool{}
	for _, pr := range pairs {
		seen[pr.b] = true
	}
	for _, l := range onlyB {
		seen[l.id] = true
	}
	for _, g := range gb {
		if !seen[g.ID] {
			onlyB = append(onlyB, lone{id: g.ID, spawn: "?"})
		}
	}
	return pairs, onlyA, onlyB, nil
}

// family indexes goroutines by parent, each list in spawn order, and returns
// the roots: goroutines whose parent is not recorded.
func family(gs []Goroutine) (kids map[uint64][]Goroutine, roots []Goroutine, err error) {
	ids := make(map[uint64]bool, len(gs))
	for _, g := range gs {
		if ids[g.ID] {
			return nil, nil, fmt.Errorf("goroutine %d is listed twice", g.ID)
		}
		ids[g.ID] = true
	}
	kids = map[uint64][]Goroutine{}
	for _, g := range gs {
		if g.Parent != 0 && ids[g.Parent] && g.Parent != g.ID {
			kids[g.Parent] = append(kids[g.Parent], g)
		} else {
			roots = append(roots, g)
		}
	}
	order := func(l []Goroutine) {
		sort.Slice(l, func(i, j int) bool {
			ki, kj := keyOf(l[i]), keyOf(l[j])
			if ki != kj {
				if ki.site != kj.site {
					return ki.site < kj.site
				}
				if ki.ordinal != kj.ordinal {
					return ki.ordinal < kj.ordinal
				}
				if ki.first != kj.first {
					return ki.first < kj.first
				}
				return ki.creator < kj.creator
			}
			// Goroutines of one key are paired in order: a go
			// statement's children by ordinal, in their key; those that
			// uninstrumented code started in the order it created them
			// (errgroup's workers, each given its item), as far as the
			// Go runtime's ids tell, then of their recorder ids.
			if gi, gj := l[i].GoID, l[j].GoID; gi != gj && gi != 0 && gj != 0 && orphan(l[i]) {
				return gi < gj
			}
			return l[i].ID < l[j].ID
		})
	}
	order(roots)
	for _, l := range kids {
		order(l)
	}
	return kids, roots, nil
}

// site names a goroutine's spawn for paths: "main" for a root not started
// by a go statement; for the nth goroutine that uninstrumented code started
// in FUNC (n 0 when unknown), what started it and what it ran as
// trace.OrphanName says ("net/http handler (*store).incr #12"), or "go ?
// FUNC#n" when the trace does not know its creator; else "go
// file:line#ordinal".
func (p *program) site(g Goroutine, n int) string {
	if orphan(g) {
		if !g.HasFirst || g.ID == 1 {
			return "main"
		}
		if g.Ordinal != 0 {
			n = int(g.Ordinal) // its creator's k-th literal of this function
		}
		if name := trace.OrphanName(p.g, g.Creator, g.FirstBlock, g.HasFirst); name != "" {
			return fmt.Sprintf("%s #%d", name, n)
		}
		fn := "-"
		if b := p.g.Block(int(g.FirstBlock)); b != nil {
			if f := p.g.Func(b.Func); f != nil {
				fn = f.Name
			}
		}
		return fmt.Sprintf("go ? %s#%d", fn, n)
	}
	pos := "-"
	if s := p.g.Site(int(g.Site)); s != nil {
		pos = s.Pos.FileLine() // the go statement's own line
	} else if b := p.g.Block(int(g.Site)); b != nil {
		// A graph without sites (made by hand): Site is the block.
		pos = b.Pos.FileLine()
		for _, t := range append([]*tbb.TCP{b.TCP}, b.Also...) {
			if t != nil && t.Kind == tbb.Spawn {
				pos = t.Pos.FileLine()
				break
			}
		}
	}
	return fmt.Sprintf("go %s#%d", pos, g.Ordinal)
}
