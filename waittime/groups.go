package waittime

import (
	"fmt"
	"strings"

	"github.com/divergo/divergo/internal/trace"
)

// Steps are kept per goroutine for the first keepEach goroutines of a go
// statement (or, for goroutines started outside instrumented code, of a
// function), and per go statement for the rest: all the later goroutines of
// one go statement share one step key, a group.
//
// Expansion puts the releaser's steps into the waiter's path, so when
// thousands of goroutines pass one lock each path holds a step for every
// goroutine whose work reached it through earlier waits, and every
// snapshot of it, one per pair of goroutines that synchronized, is as long:
// memory and time grew with the square of the goroutines (10,005
// goroutines took 456 s and 24.3 GB). Nothing but the report's goroutine
// column tells two goroutines' steps apart (redundant steps and classes
// compare steps by block and state, any goroutine), and a report of
// thousands of workers names them by their go statement ("#*") anyway, so
// summing their steps per go statement changes no duration: each path is
// then bounded by the program's go statements and blocks, not by the
// goroutines it ran, and memory and time are linear in the trace
// (docs/PERFORMANCE.md, "waittime on many goroutines"). The first
// keepEach keep their own steps so a report on a few workers still says
// which one was slow.
const keepEach = 32

// groupBase is the first step key of a group: recorder ids are dense from
// 1, far below it, and group keys stay below 2^32 (sortable).
const groupBase = 1 << 31

// group is the goroutines that share one step key.
type group struct {
	first      uint64 // its first goroutine, for the name
	sameParent bool   // all started by one parent: named as that parent's
}

// assignKeys gives each goroutine the key of its steps: its recorder id, or
// its group's key from the (keepEach+1)th goroutine of its go statement on.
// infos are in recorder-id order, the order goroutines were created in.
func (a *analysis) assignKeys(infos []trace.GoroutineInfo) {
	seen := make(map[uint64]int)
	for _, info := range infos {
		g := a.gs[info.ID]
		g.key = info.ID
		var gk uint64
		switch {
		case info.Parent != 0 && info.Parent != info.ID && info.Site < 1<<29:
			gk = uint64(info.Site) << 1
		case info.Parent == 0 && info.HasFirst && info.ID != 1:
			b := a.graph.Block(int(info.FirstBlock))
			if b == nil || b.Func < 0 || b.Func >= 1<<29 {
				continue
			}
			gk = uint64(b.Func)<<1 | 1
		default:
			continue
		}
		seen[gk]++
		if seen[gk] <= keepEach {
			continue
		}
		key := groupBase + gk
		gr := a.groups[key]
		if gr == nil {
			if a.groups == nil {
				a.groups = make(map[uint64]*group)
			}
			gr = &group{first: info.ID, sameParent: true}
			a.groups[key] = gr
		}
		if first := a.infos[gr.first]; first.Parent != info.Parent {
			gr.sameParent = false
		}
		g.key = key
	}
}

// groupLabel names a group: as its first goroutine, with "#*" for its
// ordinal, and without the parent when the goroutines had several.
func (a *analysis) groupLabel(gr *group) string {
	n := a.name(gr.first)
	if i := strings.LastIndexByte(n, '#'); i >= 0 {
		n = n[:i]
	}
	if !gr.sameParent {
		if i := strings.LastIndexByte(n, '/'); i >= 0 {
			n = "*" + n[i:]
		}
	}
	return n + "#*"
}

// sameSpawn says whether every goroutine behind the step keys ids was
// started at one go statement by one parent.
func (a *analysis) sameSpawn(ids []uint64) bool {
	var parent uint64
	var site uint32
	for i, id := range ids {
		gi := a.infos[id]
		if gr := a.groups[id]; gr != nil {
			if !gr.sameParent {
				return false
			}
			gi = a.infos[gr.first]
		}
		if gi == nil || gi.Parent == 0 {
			return false
		}
		if i == 0 {
			parent, site = gi.Parent, gi.Site
		} else if gi.Parent != parent || gi.Site != site {
			return false
		}
	}
	return true
}

// countLabel names goroutines that share no go statement.
func countLabel(n int) string { return fmt.Sprintf("%d goroutines", n) }

// own adds a step of g's own to its path. For a goroutine of a group it
// also counts g among the group's goroutines that ran that kind of step,
// once: a report's row then counts the goroutines that ran its steps, not
// every goroutine of the go statement.
func (a *analysis) own(g *gstate, k stepKey, ns int64) {
	g.path.add(k, ns)
	if ns == 0 || g.key == g.info.ID {
		return
	}
	kd := k.kind()
	if _, ok := g.ran[kd]; ok {
		return
	}
	if g.ran == nil {
		g.ran = make(map[kind]struct{})
	}
	g.ran[kd] = struct{}{}
	if a.groupRan == nil {
		a.groupRan = make(map[stepKey]int)
	}
	a.groupRan[k]++
}

// ranBy is how many goroutines step key id stands for in a step of kind
// k: 1 for a goroutine, the goroutines of a group that ran k.
func (a *analysis) ranBy(id uint64, k kind) int {
	if a.groups[id] == nil {
		return 1
	}
	return max(1, a.groupRan[stepKey{id, k.at, k.state}])
}
