package waittime

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// Report is the result of [Analyze]: sync sites ranked by waiting time.
type Report struct {
	Waits     int            `json:"waits"`     // waits at all sites
	TotalNs   int64          `json:"total_ns"`  // their waiting time
	Unmatched int            `json:"unmatched"` // waits with no releaser in the trace
	Sites     []*Site        `json:"sites"`
	Blocked   *BlockedReport `json:"blocked,omitempty"` // goroutines still blocked when the trace ended

	graph *tbb.Graph // for profiles
}

// Site is one sync statement where goroutines waited.
type Site struct {
	Block     int      `json:"block"`
	Pos       string   `json:"pos"` // file:line
	Func      string   `json:"func"`
	Op        string   `json:"op"`   // lock, recv, wg.wait, ...
	Kind      string   `json:"kind"` // mutex, chan, select, wg, cond, once
	Waits     int      `json:"waits"`
	Unmatched int      `json:"unmatched"`
	TotalNs   int64    `json:"total_ns"`
	Classes   []*Class `json:"classes"`
	Instances []Wait   `json:"instances,omitempty"` // with Options.KeepWaits
}

// Class is an equivalence class of the site's waits and the steps that
// explain it: positive on the releasers' paths, negative on the waiters'.
type Class struct {
	Waits     int     `json:"waits"`
	TotalNs   int64   `json:"total_ns"`
	Explained float64 `json:"explained"` // sum of the steps over the waiting time
	Steps     []Step  `json:"steps"`     // largest first
}

// Step is one block's share of a class's explanation, summed over the
// goroutines that ran it.
type Step struct {
	Pos        string `json:"pos"`
	Block      int    `json:"block"`
	Func       string `json:"func"`
	State      string `json:"state"`
	Goroutine  string `json:"goroutine"`  // its spawn path, or a pattern when several
	Goroutines int    `json:"goroutines"` // how many goroutines contributed
	Ns         int64  `json:"ns"`         // signed
}

// Wait is one instance of waiting.
type Wait struct {
	GID          uint64 `json:"gid"`
	Goroutine    string `json:"goroutine"`
	Block        int    `json:"block"`
	Op           string `json:"op"`
	Begin        int64  `json:"begin"`
	End          int64  `json:"end"`
	Releaser     uint64 `json:"releaser,omitempty"`
	ReleaserName string `json:"releaser_goroutine,omitempty"`
	ReleaseOp    string `json:"release_op,omitempty"`
	ReleaseBlock int    `json:"release_block,omitempty"`
	ReleasePos   string `json:"release_pos,omitempty"`
	ReleaseTime  int64  `json:"release_time,omitempty"`
	Class        int    `json:"class"` // index in the site's classes; -1 when unmatched
}

// ginfo is what names a goroutine.
type ginfo struct {
	trace.GoroutineInfo
	fn   int
	name string
}

func (a *analysis) report() *Report {
	rep := &Report{graph: a.graph}
	for _, s := range a.sites {
		rep.Sites = append(rep.Sites, a.siteReport(s))
	}
	slices.SortFunc(rep.Sites, func(x, y *Site) int {
		return cmp.Or(cmp.Compare(y.TotalNs, x.TotalNs), cmp.Compare(x.Block, y.Block), cmp.Compare(x.Op, y.Op))
	})
	for _, s := range rep.Sites {
		rep.Waits += s.Waits
		rep.TotalNs += s.TotalNs
		rep.Unmatched += s.Unmatched
	}
	return rep
}

func (a *analysis) siteReport(s *site) *Site {
	b := a.graph.Block(int(s.key.block))
	out := &Site{
		Block: int(s.key.block), Pos: sitePos(b).FileLine(), Func: a.funcName(b),
		Op: s.key.op.String(), Kind: stateOf(s.key.op).String(),
		Waits: s.waits, Unmatched: s.unmatched, TotalNs: s.total,
	}
	order := make([]int, len(s.classes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(s.classes[j].total, s.classes[i].total) })
	newIndex := make([]int, len(s.classes))
	for n, i := range order {
		newIndex[i] = n
		out.Classes = append(out.Classes, a.classReport(s.classes[i]))
	}
	for _, w := range s.instances {
		if w.Class >= 0 {
			w.Class = newIndex[w.Class]
		}
		out.Instances = append(out.Instances, a.waitReport(w))
	}
	return out
}

func (a *analysis) classReport(c *class) *Class {
	out := &Class{Waits: c.waits, TotalNs: c.total}
	var sum int64
	for k, gr := range c.cum {
		if gr.ns == 0 {
			continue
		}
		sum += gr.ns
		b := a.graph.Block(int(k.block))
		gs := slices.Sorted(maps.Keys(gr.gs))
		out.Steps = append(out.Steps, Step{
			Pos: stepPos(b, k.state).FileLine(), Block: int(k.block), Func: a.funcName(b), State: k.state.String(),
			Goroutine: a.groupName(gs), Goroutines: len(gs), Ns: gr.ns,
		})
	}
	slices.SortFunc(out.Steps, func(x, y Step) int {
		return cmp.Or(cmp.Compare(abs(y.Ns), abs(x.Ns)), cmp.Compare(x.Block, y.Block), cmp.Compare(x.State, y.State))
	})
	if c.total > 0 {
		out.Explained = float64(sum) / float64(c.total)
	}
	return out
}

func (a *analysis) waitReport(w Wait) Wait {
	w.Goroutine = a.name(w.GID)
	if w.Releaser != 0 {
		w.ReleaserName = a.name(w.Releaser)
		w.ReleasePos = a.graph.Block(w.ReleaseBlock).Pos.FileLine()
	}
	return w
}

// sitePos is where a sync statement is: the TCP of a lock or select block
// names the operation itself, other blocks their first statement.
func sitePos(b *tbb.Block) tbb.Pos {
	if b.TCP != nil && (b.TCP.Kind == tbb.Lock || b.TCP.Kind == tbb.Select) {
		return b.TCP.Pos
	}
	return b.Pos
}

// stepPos is where a step is: a runnable step waits at its go statement,
// the block's spawn TCP; other steps are at the block's first statement.
func stepPos(b *tbb.Block, s State) tbb.Pos {
	if s == Runnable {
		for _, t := range append([]*tbb.TCP{b.TCP}, b.Also...) {
			if t != nil && t.Kind == tbb.Spawn && t.Pos.IsValid() {
				return t.Pos
			}
		}
	}
	return b.Pos
}

func (a *analysis) funcName(b *tbb.Block) string {
	if f := a.graph.Func(b.Func); f != nil {
		return f.Name
	}
	return "?"
}

// name is a goroutine's spawn path: "main/worker@pool.go:23#2" is the
// second goroutine main started at pool.go:23, running worker.
func (a *analysis) name(id uint64) string {
	gi := a.infos[id]
	if gi == nil {
		return fmt.Sprintf("g%d", id)
	}
	if gi.name != "" {
		return gi.name
	}
	if gi.Path != "" {
		gi.name = gi.Path
		return gi.name
	}
	gi.name = fmt.Sprintf("g%d", id) // guards against a cycle of parents
	if gi.Parent == 0 {
		if f := a.graph.Func(gi.fn); f != nil && gi.ID != 1 && !strings.HasSuffix(f.Name, ".main") {
			gi.name = shortFunc(f.Name)
		} else {
			gi.name = "main"
		}
		return gi.name
	}
	fn := "?"
	if f := a.graph.Func(gi.fn); f != nil {
		fn = shortFunc(f.Name)
	}
	site := "?"
	if b := a.graph.Block(int(gi.Site)); b != nil {
		site = fmt.Sprintf("%s:%d", path.Base(b.Pos.File), b.Pos.Line)
	}
	gi.name = fmt.Sprintf("%s/%s@%s#%d", a.name(gi.Parent), fn, site, gi.Ordinal)
	return gi.name
}

// groupName names the goroutines behind one step: the goroutine itself, or
// its spawn path with "#*" when all were started at the same go statement
// by the same parent, or a count.
func (a *analysis) groupName(ids []uint64) string {
	if len(ids) == 1 {
		return a.name(ids[0])
	}
	first := a.infos[ids[0]]
	for _, id := range ids[1:] {
		gi := a.infos[id]
		if first == nil || gi == nil || gi.Parent != first.Parent || gi.Site != first.Site || first.Parent == 0 {
			return fmt.Sprintf("%d goroutines", len(ids))
		}
	}
	n := a.name(ids[0])
	if i := strings.LastIndexByte(n, '#'); i >= 0 {
		n = n[:i]
	}
	return n + "#*"
}

// shortFunc drops the package path: "example.com/m.(*T).M" → "(*T).M".
func shortFunc(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name
}
