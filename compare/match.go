package compare

import (
	"fmt"
	"sort"

	"github.com/divergo/divergo/internal/tbb"
)

// spawnKey is a goroutine's place among its parent's spawns.
type spawnKey struct {
	site    uint32
	ordinal uint32
}

// gPair is a goroutine of A matched with one of B.
type gPair struct {
	a, b  uint64
	spawn string
}

// lone is a goroutine of one run without a partner.
type lone struct {
	id    uint64
	spawn string
}

// match pairs goroutines by spawn path: roots by their spawn site and
// ordinal, children of a matched pair by site and ordinal among that pair's
// children. Children of an unmatched goroutine are unmatched too.
func match(p *program, ga, gb []Goroutine) (pairs []gPair, onlyA, onlyB []lone, err error) {
	ka, ra, err := family(ga)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("trace a: %w", err)
	}
	kb, rb, err := family(gb)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("trace b: %w", err)
	}
	var walkLone func(kids map[uint64][]Goroutine, g Goroutine, path string, out *[]lone)
	walkLone = func(kids map[uint64][]Goroutine, g Goroutine, path string, out *[]lone) {
		*out = append(*out, lone{id: g.ID, spawn: path})
		for _, c := range kids[g.ID] {
			walkLone(kids, c, path+" > "+p.site(c), out)
		}
	}
	var walk func(xs, ys []Goroutine, prefix string)
	walk = func(xs, ys []Goroutine, prefix string) {
		byKey := map[spawnKey][]Goroutine{}
		for _, y := range ys {
			k := spawnKey{y.Site, y.Ordinal}
			byKey[k] = append(byKey[k], y)
		}
		for _, x := range xs {
			k := spawnKey{x.Site, x.Ordinal}
			path := p.site(x)
			if prefix != "" {
				path = prefix + " > " + path
			}
			if cand := byKey[k]; len(cand) > 0 {
				y := cand[0]
				byKey[k] = cand[1:]
				pairs = append(pairs, gPair{a: x.ID, b: y.ID, spawn: path})
				walk(ka[x.ID], kb[y.ID], path)
				continue
			}
			walkLone(ka, x, path, &onlyA)
		}
		for _, y := range ys {
			k := spawnKey{y.Site, y.Ordinal}
			for _, left := range byKey[k] {
				if left.ID == y.ID {
					path := p.site(y)
					if prefix != "" {
						path = prefix + " > " + path
					}
					walkLone(kb, y, path, &onlyB)
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
			if l[i].Site != l[j].Site {
				return l[i].Site < l[j].Site
			}
			if l[i].Ordinal != l[j].Ordinal {
				return l[i].Ordinal < l[j].Ordinal
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
// by a go statement, else "go file:line#ordinal".
func (p *program) site(g Goroutine) string {
	if g.Parent == 0 && g.Site == 0 && g.Ordinal == 0 {
		return "main"
	}
	pos := "-"
	if b := p.g.Block(int(g.Site)); b != nil {
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
