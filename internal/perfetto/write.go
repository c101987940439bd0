package perfetto

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/steps"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// Run is one trace to draw as a process.
type Run struct {
	Name   string // process name; "" means the program's name
	Reader *trace.Reader
	// Marks are slices to draw on the goroutines' tracks over the steps
	// they span (a diff's divergent sections, from compare's
	// Report.Marks): each begins at the estimated time of its first step
	// and ends at that of the step after its last. Marks of one goroutine
	// must not overlap.
	Marks []steps.Mark
}

// Options tune the output.
type Options struct {
	// MinFrame: function frames shorter than this that hold no wait and no
	// divergent section are left out. 0 means [DefaultMinFrame]; a negative
	// value draws every frame.
	MinFrame time.Duration
}

// DefaultMinFrame keeps a file of a call-heavy program to a size a browser
// opens: frame times are estimates anyway, and below a microsecond they are
// mostly noise of the interpolation.
const DefaultMinFrame = time.Microsecond

// WriteTrace writes one trace as Chrome trace-event JSON to w.
func WriteTrace(w io.Writer, r *trace.Reader) error {
	return Write(w, Options{}, Run{Reader: r})
}

// Write writes runs as processes of one Chrome trace-event JSON file.
func Write(w io.Writer, opts Options, runs ...Run) error {
	return write(w, opts, runs)
}

// tidBase is one less than the first thread id; process ids count from 1
// and stay below it.
const tidBase = 100

// writer is the state shared by the runs of one file.
type writer struct {
	enc      *encoder
	minFrame int64
	nextFlow uint64
}

func (w *writer) flowID() uint64 {
	w.nextFlow++
	return w.nextFlow
}

// write draws runs.
func write(out io.Writer, opts Options, runs []Run) error {
	w := &writer{enc: newEncoder(out), minFrame: int64(opts.MinFrame)}
	if opts.MinFrame == 0 {
		w.minFrame = int64(DefaultMinFrame)
	}
	other := []arg{str("generator", "divergo"), str("time", "ts is microseconds since each trace's start; frame times are estimated from instruction counts between timestamps")}
	// Thread ids are unique in the file and kept clear of the process ids:
	// Perfetto's importer ties a process's metadata to the thread whose tid
	// is the pid, and keys threads by tid before pid.
	tid := max(tidBase, len(runs))
	for i, run := range runs {
		if run.Reader == nil {
			return fmt.Errorf("run %d: %w", i+1, errNoTrace)
		}
		name := run.Name
		if name == "" {
			name = run.Reader.Program()
		}
		other = append(other, str(fmt.Sprintf("run%d", i+1), name))
		rs := newRunState(w, run.Reader, i+1, name, &tid)
		rs.marks = byGoroutine(run.Marks)
		if err := rs.run(); err != nil {
			if len(runs) > 1 {
				return fmt.Errorf("%s: %w", name, err)
			}
			return err
		}
	}
	return w.enc.close(other)
}

// binfo is what the drawing needs of one block.
type binfo struct {
	fn int32
}

// runState draws one run.
type runState struct {
	w     *writer
	r     *trace.Reader
	g     *tbb.Graph
	pid   int
	name  string
	block []binfo
	// paths are the implied paths of the graph, shared by the goroutines'
	// replayers: the run is drawn by one goroutine.
	paths *replay.Paths
	short []string // short function names by func id
	gs    map[uint64]*gstate
	order []*gstate // main first, then spawn-tree order
	marks map[uint64][]mark
	// pairs names every wait's releaser (replay.Releasers: the rule
	// waittime uses too); drawn holds the releases whose slice is written
	// and the number of waits they ended still to draw.
	pairs *replay.Releasers
	drawn map[replay.SyncRef]int
}

func newRunState(w *writer, r *trace.Reader, pid int, name string, tid *int) *runState {
	g := r.Graph()
	rs := &runState{w: w, r: r, g: g, pid: pid, name: name, gs: map[uint64]*gstate{}, drawn: map[replay.SyncRef]int{}}
	rs.block = make([]binfo, len(g.Blocks))
	rs.paths = replay.NewPaths(replay.NewProgram(g))
	for i, b := range g.Blocks {
		rs.block[i] = binfo{fn: int32(b.Func)}
	}
	rs.short = make([]string, len(g.Funcs))
	for i, f := range g.Funcs {
		rs.short[i] = trace.ShortFuncName(f.Name)
	}
	for _, gi := range treeOrder(g, r.Goroutines()) {
		*tid++
		gs := &gstate{rs: rs, info: gi, tid: *tid, open: -1}
		rs.gs[gi.ID] = gs
		rs.order = append(rs.order, gs)
	}
	return rs
}

// treeOrder lists goroutines depth first along the spawn tree: main, then
// each child after its parent, siblings in the order of their go statements
// in the source and then of their ordinals. That order is the same in every
// run of a program with the same spawn structure, unlike recorder ids.
func treeOrder(g *tbb.Graph, infos []trace.GoroutineInfo) []trace.GoroutineInfo {
	byID := map[uint64]bool{}
	for _, gi := range infos {
		byID[gi.ID] = true
	}
	kids := map[uint64][]trace.GoroutineInfo{}
	var roots []trace.GoroutineInfo
	for _, gi := range infos {
		if gi.ID != 1 && gi.Parent != 0 && gi.Parent != gi.ID && byID[gi.Parent] {
			kids[gi.Parent] = append(kids[gi.Parent], gi)
		} else {
			roots = append(roots, gi)
		}
	}
	sortSiblings := func(gs []trace.GoroutineInfo) {
		sort.SliceStable(gs, func(i, j int) bool {
			a, b := gs[i], gs[j]
			if a.Parent == b.Parent && a.Parent != 0 {
				sa, sb := trace.SiteName(g, a.Site), trace.SiteName(g, b.Site)
				if sa != sb {
					return pathLess(sa, sb)
				}
				if a.Ordinal != b.Ordinal {
					return a.Ordinal < b.Ordinal
				}
			}
			return pathLess(a.Path, b.Path)
		})
	}
	sortSiblings(roots)
	out := make([]trace.GoroutineInfo, 0, len(infos))
	seen := map[uint64]bool{}
	var visit func(gi trace.GoroutineInfo)
	visit = func(gi trace.GoroutineInfo) {
		if seen[gi.ID] {
			return
		}
		seen[gi.ID] = true
		out = append(out, gi)
		cs := kids[gi.ID]
		sortSiblings(cs)
		for _, c := range cs {
			visit(c)
		}
	}
	for _, gi := range roots {
		visit(gi)
	}
	// A parent cycle (a corrupt trace) leaves goroutines unvisited.
	for _, gi := range infos {
		visit(gi)
	}
	return out
}

// pathLess orders spawn paths: main first, then as trace.PathLess does,
// with numbers compared as numbers, so that "#10" follows "#9" and
// children follow their parent.
func pathLess(a, b string) bool {
	if a == "main" || b == "main" {
		return a == "main" && b != "main"
	}
	return trace.PathLess(a, b)
}

// metadata names the process and its threads.
func (rs *runState) metadata() {
	enc := rs.w.enc
	enc.emit(&event{ph: 'M', cat: "__metadata", name: "process_name", pid: rs.pid, noTid: true, args: []arg{str("name", rs.name)}})
	enc.emit(&event{ph: 'M', cat: "__metadata", name: "process_sort_index", pid: rs.pid, noTid: true, args: []arg{num("sort_index", int64(rs.pid))}})
	for i, g := range rs.order {
		enc.emit(&event{ph: 'M', cat: "__metadata", name: "thread_name", pid: rs.pid, tid: g.tid, args: []arg{str("name", g.info.Path)}})
		enc.emit(&event{ph: 'M', cat: "__metadata", name: "thread_sort_index", pid: rs.pid, tid: g.tid, args: []arg{num("sort_index", int64(i))}})
	}
}

// site is the file:line of a sync or spawn event's own statement, its
// site, held by block b.
func (rs *runState) site(site, b uint32) string {
	if p := trace.SitePos(rs.g, site, b); p.IsValid() {
		return p.FileLine()
	}
	return fmt.Sprintf("block %d", b)
}

// who names a goroutine for args: its spawn path and id.
func (g *gstate) who() string {
	return fmt.Sprintf("%s (goroutine %d)", g.info.Path, g.info.ID)
}

var errNoTrace = errors.New("a run has no trace")
