package waittime

import (
	"strings"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// fakeTrace is an in-memory Trace made by the tests: a hand-made graph and
// hand-timed event lists.
type fakeTrace struct {
	graph *tbb.Graph
	gs    []trace.GoroutineInfo
	evs   map[uint64][]trace.Event
}

func (f *fakeTrace) Graph() *tbb.Graph                 { return f.graph }
func (f *fakeTrace) Goroutines() []trace.GoroutineInfo { return f.gs }
func (f *fakeTrace) Events(id uint64) (trace.EventIter, error) {
	return &sliceIter{evs: f.evs[id]}, nil
}

type sliceIter struct {
	evs []trace.Event
	i   int
}

func (s *sliceIter) Next() bool {
	if s.i >= len(s.evs) {
		return false
	}
	s.i++
	return true
}
func (s *sliceIter) Event() trace.Event { return s.evs[s.i-1] }
func (s *sliceIter) Err() error         { return nil }

// builder makes a fakeTrace: blocks are declared per function with a line
// and an instruction count, goroutines are scripted with exact times.
type builder struct {
	file  string
	tr    *fakeTrace
	funcs map[string]int
	gos   map[uint64]*gscript
	sites map[[2]uint32]uint32 // (block, op) → site, made on first use
}

func newBuilder(file string) *builder {
	return &builder{
		file:  file,
		tr:    &fakeTrace{graph: &tbb.Graph{Version: tbb.Version, Module: "example.com/m"}, evs: map[uint64][]trace.Event{}},
		funcs: map[string]int{},
		gos:   map[uint64]*gscript{},
		sites: map[[2]uint32]uint32{},
	}
}

// site is the graph's site of operation op (0 for a go statement) in
// block, at the block's line: one per block and operation, made on first
// use, so that scripts name operations by their block as before sites.
func (b *builder) site(block uint32, op trace.Op) uint32 {
	k := [2]uint32{block, uint32(op)}
	if s, ok := b.sites[k]; ok {
		return s
	}
	g := b.tr.graph
	name := "go"
	if op != 0 {
		name = op.String()
	}
	s := uint32(len(g.Sites))
	g.Sites = append(g.Sites, &tbb.Site{ID: int(s), Block: int(block), Op: name, Pos: g.Blocks[block].Pos})
	b.sites[k] = s
	return s
}

// block adds a block of function fn (created on first use, the block being
// its entry) at line. Every block of a function is a successor of every
// other and of itself, so any order of a function's blocks is a path of the
// graph: scripts run blocks in whatever order they like without the
// replay (internal/replay) taking a block for an anomaly or the entry for a
// new call.
func (b *builder) block(fn string, line, instrs int) uint32 {
	g := b.tr.graph
	f, ok := b.funcs[fn]
	id := len(g.Blocks)
	if !ok {
		f = len(g.Funcs)
		b.funcs[fn] = f
		g.Funcs = append(g.Funcs, &tbb.Func{ID: f, Name: "example.com/m." + fn, Pkg: "example.com/m",
			Pos: tbb.Pos{File: b.file, Line: line - 1}, Entry: id})
	}
	g.Funcs[f].Blocks = append(g.Funcs[f].Blocks, id)
	blk := &tbb.Block{ID: id, Func: f, Kind: "body", Pos: tbb.Pos{File: b.file, Line: line, Col: 2},
		Probe: true, Instrs: instrs}
	g.Blocks = append(g.Blocks, blk)
	for _, o := range g.Funcs[f].Blocks {
		blk.Succs = append(blk.Succs, o)
		if o != id {
			g.Blocks[o].Succs = append(g.Blocks[o].Succs, id)
		}
	}
	return uint32(id)
}

// gscript scripts one goroutine; now is its clock in ns.
type gscript struct {
	b   *builder
	id  uint64
	i   int // in b.tr.gs
	now int64
}

func (b *builder) goroutine(id, parent uint64, site uint32, ordinal uint32, start int64) *gscript {
	gi := trace.GoroutineInfo{ID: id, Parent: parent, Ordinal: ordinal, Start: start}
	if parent != 0 {
		gi.Site, gi.SiteBlock = b.site(site, 0), site
	}
	b.tr.gs = append(b.tr.gs, gi)
	g := &gscript{b: b, id: id, i: len(b.tr.gs) - 1, now: start}
	b.gos[id] = g
	return g
}

func (g *gscript) emit(ev trace.Event) { g.b.tr.evs[g.id] = append(g.b.tr.evs[g.id], ev) }

// run executes block for exactly ns: a clock event follows it.
func (g *gscript) run(block uint32, ns int64) {
	g.emit(trace.Event{Kind: trace.EvBlock, Block: block})
	g.now += ns
	g.emit(trace.Event{Kind: trace.EvClock, Time: g.now})
}

// exec executes blocks without a timestamp: they share the time up to the
// next one.
func (g *gscript) exec(blocks ...uint32) {
	for _, b := range blocks {
		g.emit(trace.Event{Kind: trace.EvBlock, Block: b})
	}
}

func (g *gscript) advance(ns int64) {
	g.now += ns
	g.emit(trace.Event{Kind: trace.EvClock, Time: g.now})
}

// op does a sync operation at block that did not wait.
func (g *gscript) op(block uint32, op trace.Op, obj uint64) {
	g.emit(trace.Event{Kind: trace.EvBlock, Block: block})
	g.emit(trace.Event{Kind: trace.EvSync, Block: block, Site: g.b.site(block, op), Op: op, Object: obj, End: g.now})
}

// wait does a sync operation at block that waited until end (which may be
// now: then it did not wait).
func (g *gscript) wait(block uint32, op trace.Op, obj uint64, end int64) {
	if end <= g.now {
		g.op(block, op, obj)
		return
	}
	g.emit(trace.Event{Kind: trace.EvBlock, Block: block})
	g.emit(trace.Event{Kind: trace.EvSync, Block: block, Site: g.b.site(block, op), Op: op, Object: obj, Waited: true, Begin: g.now, End: end})
	g.now = end
}

// spawn runs a go statement in the current block (block is its site).
func (g *gscript) spawn(block uint32, child uint64, ordinal uint32) {
	g.emit(trace.Event{Kind: trace.EvSpawn, Block: block, Site: g.b.site(block, 0), Child: child, Ordinal: ordinal})
}

// done ends the goroutine's script: its end time is now.
func (g *gscript) done() {
	g.b.tr.gs[g.i].End, g.b.tr.gs[g.i].Ended = g.now, true
}

func (b *builder) trace() *fakeTrace { return b.tr }

type bytesBuffer = strings.Builder
