package waittime

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// Report is the result of [Analyze]: sync sites ranked by waiting time.
type Report struct {
	Waits     int   `json:"waits"`     // waits at all sites
	TotalNs   int64 `json:"total_ns"`  // their waiting time
	Unmatched int   `json:"unmatched"` // waits with no releaser in the trace
	// GoTrace says Go's execution trace was read (Options.GoTrace); Woken
	// is how many unmatched waits it names a waker for.
	GoTrace bool           `json:"go_trace,omitempty"`
	Woken   int            `json:"woken,omitempty"`
	Sites   []*Site        `json:"sites"`
	Blocked *BlockedReport `json:"blocked,omitempty"` // goroutines still blocked when the trace ended
	// Perturbed says the run perturbed its schedule (DIVERGO_PERTURB),
	// with PerturbSeed; PerturbNs is the time divergo delayed goroutines
	// in all, and WaitPerturbNs its share of the explained waits (the
	// classes' PerturbNs): both are taken out of the paths before they
	// are compared, so no step is ever divergo's.
	Perturbed     bool  `json:"perturbed,omitempty"`
	PerturbSeed   int64 `json:"perturb_seed,omitempty"`
	PerturbNs     int64 `json:"perturb_ns,omitempty"`
	WaitPerturbNs int64 `json:"wait_perturb_ns,omitempty"`

	graph  *tbb.Graph // for profiles
	blocks bool       // Options.Blocks: steps name their block
}

// Site is one sync statement where goroutines waited.
type Site struct {
	Block int    `json:"block"` // the block holding the statement
	Site  int    `json:"site"`  // the statement's site in the graph
	Pos   string `json:"pos"`   // file:line of the statement itself
	Func  string `json:"func"`
	Op    string `json:"op"`   // lock, recv, wg.wait, ...
	Kind  string `json:"kind"` // mutex, chan, select, wg, cond, once; for a Library site the tracer's: chan, select, sync, cond, network
	// Library says the waits were inside code that is not instrumented,
	// called at Pos (Op is the function called, Site is -1), as Go's
	// execution trace saw them (Options.GoTrace): they have no releaser
	// in the divergo trace, and WokenBy says who woke them.
	Library   bool `json:"library,omitempty"`
	Waits     int  `json:"waits"`
	Unmatched int  `json:"unmatched"`
	// UnmatchedNs is the waiting time of the Unmatched waits: it is in
	// TotalNs and in no class.
	UnmatchedNs int64 `json:"unmatched_ns,omitempty"`
	// Why counts the unmatched waits by why they have no releaser
	// (replay.Why's text: a timer's channel, a select case not recorded,
	// ...).
	Why map[string]int `json:"unmatched_why,omitempty"`
	// WokenBy is who woke unmatched waits, as Go's execution trace says
	// (Options.GoTrace), most waiting time first.
	WokenBy   []Waker  `json:"woken_by,omitempty"`
	TotalNs   int64    `json:"total_ns"`
	Classes   []*Class `json:"classes"`
	Instances []Wait   `json:"instances,omitempty"` // with Options.KeepWaits
}

// Class is an equivalence class of the site's waits and the steps that
// explain it: positive on the releasers' paths, negative on the waiters'.
// The steps and UnexplainedNs add up to TotalNs.
type Class struct {
	Waits int `json:"waits"`
	// TotalNs is the program's waiting: the waits' time less PerturbNs,
	// divergo's share of it. Sites' and the report's totals are sums of
	// it, so no figure a user reads holds divergo's delays.
	TotalNs int64 `json:"total_ns"`
	// Explained is the share of the waiting time the steps account for,
	// in [0, 1]: 1 - Σ|w - s| / Σw over the class's waits, w a wait's
	// waiting time and s the sum of its steps. A wait whose steps add up
	// to its waiting time counts fully; one whose steps miss it, or
	// overshoot it, by d loses d; a wait missed by more than itself
	// loses the whole of it (the share is clamped at 0).
	Explained float64 `json:"explained"`
	// UnexplainedNs is TotalNs minus the sum of the steps, signed: what
	// redundant step removal (within the tolerance) and the limits of the
	// trace left unexplained.
	UnexplainedNs int64 `json:"unexplained_ns"`
	// PerturbNs is the part of the waits' time that divergo's own delays
	// made (DIVERGO_PERTURB): the releasers' delays since their last
	// common synchronization with the waiters, less the waiters' (so
	// negative when the waiters' delays shortened the waits). It is taken
	// out of TotalNs and out of the paths before the waits are explained.
	PerturbNs int64  `json:"perturb_ns,omitempty"`
	Steps     []Step `json:"steps"` // largest first
}

// Step is one line's share of a class's explanation, summed over the
// goroutines that ran it: a goroutine's blocks on the same line in the same
// state are one step (a loop header and its post statement), unless
// Options.Blocks asks for one step per block. A step in a state other than
// running is at a statement (a sleep, an unexplained wait, a go
// statement's or a release's latency).
type Step struct {
	Pos        string `json:"pos"`              // file:line, the statement's own for a state other than running; empty for perturb and outside steps, which have no line
	Block      int    `json:"block"`            // the block, or the block holding the statement
	Site       int    `json:"site"`             // the statement's site; -1 for running steps
	Blocks     []int  `json:"blocks,omitempty"` // when several blocks were merged: all of them, Block first
	Func       string `json:"func"`             // the function holding Pos: a function its block called that records nothing, when its samples put the step there (lines.go)
	State      string `json:"state"`
	Goroutine  string `json:"goroutine"`  // its spawn path, or a pattern when several
	Goroutines int    `json:"goroutines"` // how many goroutines contributed; past the first 32 of a go statement, those of its goroutines that ran the step (groups.go)
	Ns         int64  `json:"ns"`         // signed
	// lineFn is the graph's function holding Pos plus 1, when it is not
	// Block's: for the profile's locations.
	lineFn int
}

// Wait is one instance of waiting.
type Wait struct {
	GID          uint64 `json:"gid"`
	Goroutine    string `json:"goroutine"`
	Block        int    `json:"block"`
	Site         int    `json:"site"`
	Pos          string `json:"pos"` // file:line of the statement that waited
	Op           string `json:"op"`
	Begin        int64  `json:"begin"`
	End          int64  `json:"end"`
	Releaser     uint64 `json:"releaser,omitempty"`
	ReleaserName string `json:"releaser_goroutine,omitempty"`
	ReleaseOp    string `json:"release_op,omitempty"`
	ReleaseBlock int    `json:"release_block,omitempty"`
	ReleaseSite  int    `json:"release_site,omitempty"`
	ReleasePos   string `json:"release_pos,omitempty"`
	ReleaseTime  int64  `json:"release_time,omitempty"`
	Class        int    `json:"class"`              // index in the site's classes; -1 when unmatched
	Why          string `json:"why,omitempty"`      // when unmatched: why there is no releaser, or why the one named could not explain it
	WokenBy      string `json:"woken_by,omitempty"` // when unmatched: who woke it, says Go's execution trace
	waker        *Waker // WokenBy's, named in the report
}

// ginfo is what names a goroutine.
type ginfo struct {
	trace.GoroutineInfo
	fn   int
	name string
}

func (a *analysis) report() *Report {
	rep := &Report{graph: a.graph, blocks: a.opts.Blocks, PerturbNs: a.perturbNs, GoTrace: a.opts.GoTrace != nil, Woken: a.wokenWaits}
	for _, s := range a.sites {
		rep.Sites = append(rep.Sites, a.siteReport(s))
	}
	for _, s := range a.libSites {
		rep.Sites = append(rep.Sites, a.libSiteReport(s))
	}
	slices.SortFunc(rep.Sites, func(x, y *Site) int {
		return cmp.Or(cmp.Compare(y.TotalNs, x.TotalNs), cmp.Compare(x.Block, y.Block), cmp.Compare(x.Site, y.Site), cmp.Compare(x.Op, y.Op), cmp.Compare(x.Pos, y.Pos))
	})
	for _, s := range rep.Sites {
		rep.Waits += s.Waits
		rep.TotalNs += s.TotalNs
		rep.Unmatched += s.Unmatched
		for _, c := range s.Classes {
			rep.WaitPerturbNs += c.PerturbNs
		}
	}
	return rep
}

func (a *analysis) siteReport(s *site) *Site {
	b := a.graph.Block(int(s.key.block))
	out := &Site{
		Block: int(s.key.block), Site: int(s.key.site), Pos: sitePos(a.graph, s.key.site, s.key.block).FileLine(), Func: a.funcName(b),
		Op: s.key.op.String(), Kind: stateOf(s.key.op).String(),
		Waits: s.waits, Unmatched: s.unmatched, UnmatchedNs: s.unmatchedNs, TotalNs: s.total, Why: whyCounts(s.why),
		WokenBy: a.wakersOf(s.wakers),
	}
	for _, c := range s.classes {
		out.TotalNs -= c.perturb // divergo's share is no waiting of the program's
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
	out := &Class{Waits: c.waits, TotalNs: c.total - c.perturb, UnexplainedNs: c.residual, PerturbNs: c.perturb}
	if own := out.TotalNs; own > 0 {
		out.Explained = max(0, 1-float64(c.missed)/float64(own))
	} else if c.missed == 0 {
		out.Explained = 1 // divergo's delays were the whole wait, and nothing else is claimed
	}
	type rowKey struct {
		pos, goroutine string
		state          State
		block          int // -1 unless Options.Blocks
	}
	type row struct {
		step Step
		gs   map[uint64]int // step key → the goroutines it stands for
	}
	rows := map[rowKey]*row{}
	var parts []linePart
	for k, gr := range c.cum {
		if gr.ns == 0 {
			continue
		}
		block, site, p := a.stepPlace(k)
		gs := slices.Sorted(maps.Keys(gr.gs))
		group := a.groupName(gs, k)
		parts = parts[:0]
		noLine := k.state == Perturb || k.state == Outside
		if k.state == Running {
			parts = a.splitLines(k.at, p, gr.ns, parts)
		} else {
			parts = append(parts, linePart{pos: p, ns: gr.ns})
		}
		for _, part := range parts {
			pos := ""
			if !noLine {
				pos = part.pos.FileLine()
			}
			rk := rowKey{pos, group, k.state, -1}
			if a.opts.Blocks && pos != "" {
				rk.block = block
			}
			r := rows[rk]
			if r == nil {
				r = &row{step: Step{Pos: pos, Block: block, Site: site, Func: a.funcName(a.graph.Block(block)), State: k.state.String(), Goroutine: rk.goroutine},
					gs: make(map[uint64]int, len(gs))}
				rows[rk] = r
			}
			r.step.Ns += part.ns
			r.step.lineFn = max(r.step.lineFn, part.fn)
			r.step.Blocks = append(r.step.Blocks, block)
			for _, id := range gs {
				r.gs[id] = max(r.gs[id], a.ranBy(id, k))
			}
		}
	}
	for _, r := range rows {
		st := r.step
		slices.Sort(st.Blocks)
		st.Blocks = slices.Compact(st.Blocks)
		st.Block = st.Blocks[0]
		st.Func = a.funcName(a.graph.Block(st.Block))
		if f := a.graph.Func(st.lineFn - 1); st.lineFn > 0 && f != nil {
			st.Func = f.Name
		}
		if len(st.Blocks) == 1 {
			st.Blocks = nil
		}
		for _, n := range r.gs {
			st.Goroutines += n
		}
		if st.Ns != 0 {
			out.Steps = append(out.Steps, st)
		}
	}
	slices.SortFunc(out.Steps, func(x, y Step) int {
		return cmp.Or(cmp.Compare(abs(y.Ns), abs(x.Ns)), cmp.Compare(x.Block, y.Block), cmp.Compare(x.Site, y.Site), cmp.Compare(x.State, y.State),
			cmp.Compare(x.Goroutine, y.Goroutine))
	})
	return out
}

func (a *analysis) waitReport(w Wait) Wait {
	w.Goroutine = a.name(w.GID)
	if w.waker != nil {
		w.WokenBy = a.named(w.waker).String()
	}
	w.Pos = sitePos(a.graph, int32(w.Site), int32(w.Block)).FileLine()
	if w.Releaser != 0 {
		w.ReleaserName = a.name(w.Releaser)
		w.ReleasePos = sitePos(a.graph, int32(w.ReleaseSite), int32(w.ReleaseBlock)).FileLine()
	}
	return w
}

// sitePos is where a sync statement is: its site's own position (a sleep
// two lines into a block is at its own line, not the block's first).
func sitePos(g *tbb.Graph, site, block int32) tbb.Pos {
	return trace.SitePos(g, uint32(site), uint32(block))
}

// stepPlace is where the steps of kind k are; a step blocked inside a
// library is at the program's call (libwaits.go), in the block holding it.
func (a *analysis) stepPlace(k kind) (block, site int, pos tbb.Pos) {
	if k.state == Library || k.state == LibrarySleep {
		c := a.libCalls[k.at]
		return c.block, -1, c.pos
	}
	return stepPlace(a.graph, k)
}

// stepPlace is where the steps of kind k are: a running step is its block
// (site -1), at the block's first line; a step in any other state is time
// at one statement, its site, at the statement's own line.
func stepPlace(g *tbb.Graph, k kind) (block, site int, pos tbb.Pos) {
	if k.state == Perturb || k.state == Outside {
		return int(k.at), -1, pos // divergo's delays and unaligned time: no line
	}
	if k.state == Running {
		if b := g.Block(int(k.at)); b != nil {
			pos = b.Pos
		}
		return int(k.at), -1, pos
	}
	if s := g.Site(int(k.at)); s != nil {
		return s.Block, int(k.at), s.Pos
	}
	// A graph without sites (made by hand): the place is a block.
	if b := g.Block(int(k.at)); b != nil {
		pos = b.Pos
	}
	return int(k.at), int(k.at), pos
}

func (a *analysis) funcName(b *tbb.Block) string {
	if b == nil {
		return "?"
	}
	if f := a.graph.Func(b.Func); f != nil {
		return f.Name
	}
	return "?"
}

// name is a goroutine's spawn path: "main/worker@pool.go:23#2" is the
// second goroutine main started at pool.go:23, running worker.
func (a *analysis) name(id uint64) string {
	if gr := a.groups[id]; gr != nil {
		return a.groupLabel(gr)
	}
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
	if p := sitePos(a.graph, int32(gi.Site), int32(gi.SiteBlock)); p.IsValid() {
		site = fmt.Sprintf("%s:%d", path.Base(p.File), p.Line)
	}
	gi.name = fmt.Sprintf("%s/%s@%s#%d", a.name(gi.Parent), fn, site, gi.Ordinal)
	return gi.name
}

// groupName names the goroutines behind one step: the goroutine itself, or
// its spawn path with "#*" when all were started at the same go statement
// by the same parent, or a count.
func (a *analysis) groupName(ids []uint64, k kind) string {
	if len(ids) == 1 {
		return a.name(ids[0])
	}
	if !a.sameSpawn(ids) {
		n := 0
		for _, id := range ids {
			n += a.ranBy(id, k)
		}
		return countLabel(n)
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

// whyCounts is a site's reasons for unmatched waits by their text.
func whyCounts(m map[replay.Why]int) map[string]int {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]int, len(m))
	for w, n := range m {
		out[w.String()] += n
	}
	return out
}
