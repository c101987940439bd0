package compare

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// builder makes TBB graphs by hand, the way the analyzer would for a small
// Go program.
type builder struct {
	g      tbb.Graph
	file   string
	labels map[int]string
}

func newBuilder(file string) *builder {
	return &builder{g: tbb.Graph{Version: tbb.Version, Module: "example.com/m"}, file: file, labels: map[int]string{}}
}

func (b *builder) fn(name string, line int) int {
	id := len(b.g.Funcs)
	b.g.Funcs = append(b.g.Funcs, &tbb.Func{ID: id, Name: name, Pkg: "example.com/m", Pos: tbb.Pos{File: b.file, Line: line}, Entry: -1})
	return id
}

// block adds a block to function fn; the first block of a function is its
// entry. label is the name the paper gives it, for golden output.
func (b *builder) block(fn int, kind string, line int, probe bool, label string) int {
	id := len(b.g.Blocks)
	b.g.Blocks = append(b.g.Blocks, &tbb.Block{ID: id, Func: fn, Kind: kind, Pos: tbb.Pos{File: b.file, Line: line}, Probe: probe, Instrs: 3, Succs: []int{}})
	f := b.g.Funcs[fn]
	if f.Entry < 0 {
		f.Entry = id
	}
	f.Blocks = append(f.Blocks, id)
	b.labels[id] = label
	return id
}

func (b *builder) edge(from int, to ...int) {
	b.g.Blocks[from].Succs = append(b.g.Blocks[from].Succs, to...)
}

func (b *builder) exit(blk int) { b.g.Blocks[blk].Exit = true }

func (b *builder) tcp(blk int, kind tbb.Kind, line, cp int) {
	t := &tbb.TCP{Kind: kind, Pos: tbb.Pos{File: b.file, Line: line}, CP: cp}
	if cp != tbb.Return {
		t.CPPos = b.g.Blocks[cp].Pos
		b.g.Blocks[cp].CP = true
	}
	if b.g.Blocks[blk].TCP == nil {
		b.g.Blocks[blk].TCP = t
	} else {
		b.g.Blocks[blk].Also = append(b.g.Blocks[blk].Also, t)
	}
}

// graph returns the graph, with one site per block (site i in block i, at
// the block's spawn TCP if it has one, else at its line), so that the
// events below name a block's operation or go statement as the site of
// the same number.
func (b *builder) graph(t testing.TB) *tbb.Graph {
	t.Helper()
	b.g.Sites = b.g.Sites[:0]
	for _, blk := range b.g.Blocks {
		s := &tbb.Site{ID: blk.ID, Block: blk.ID, Op: "lock", Pos: blk.Pos}
		for _, tc := range append([]*tbb.TCP{blk.TCP}, blk.Also...) {
			if tc != nil && tc.Kind == tbb.Spawn {
				s.Op, s.Pos = "go", tc.Pos
			}
		}
		b.g.Sites = append(b.g.Sites, s)
	}
	data, err := tbb.Marshal(&b.g)
	if err != nil {
		t.Fatal(err)
	}
	g, err := tbb.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Event constructors.
func blk(id int) trace.Event    { return trace.Event{Kind: trace.EvBlock, Block: uint32(id)} }
func ret(entry int) trace.Event { return trace.Event{Kind: trace.EvExit, Block: uint32(entry)} }
func out(v uint64) trace.Event  { return trace.Event{Kind: trace.EvOutcome, Value: v} }
func clock(ns int64) trace.Event {
	return trace.Event{Kind: trace.EvClock, Time: ns}
}
func spawn(site int, child uint64, ord uint32) trace.Event {
	return trace.Event{Kind: trace.EvSpawn, Block: uint32(site), Site: uint32(site), Child: child, Ordinal: ord}
}
func wait(site int, op trace.Op, begin, end int64) trace.Event {
	return trace.Event{Kind: trace.EvSync, Block: uint32(site), Site: uint32(site), Op: op, Waited: begin != end, Begin: begin, End: end}
}

// memTrace is a trace held in memory.
type memTrace struct {
	g      *tbb.Graph
	gs     []Goroutine
	events map[uint64][]trace.Event
}

func newMem(g *tbb.Graph) *memTrace { return &memTrace{g: g, events: map[uint64][]trace.Event{}} }

// add records goroutine id spawned by parent at site with ordinal.
func (m *memTrace) add(id, parent uint64, site, ord uint32, evs ...trace.Event) *memTrace {
	m.gs = append(m.gs, Goroutine{ID: id, Parent: parent, Site: site, Ordinal: ord})
	m.events[id] = evs
	return m
}

func (m *memTrace) Graph() *tbb.Graph       { return m.g }
func (m *memTrace) Goroutines() []Goroutine { return m.gs }
func (m *memTrace) Events(id uint64) (EventReader, error) {
	evs, ok := m.events[id]
	if !ok {
		return nil, fmt.Errorf("no goroutine %d", id)
	}
	return &sliceReader{evs: evs}, nil
}

type sliceReader struct{ evs []trace.Event }

func (r *sliceReader) Read(buf []trace.Event) (int, error) {
	if len(r.evs) == 0 {
		return 0, io.EOF
	}
	n := copy(buf, r.evs)
	r.evs = r.evs[n:]
	return n, nil
}

// correspondence compares a and b and renders, per goroutine pair, the
// correspondence step by step with the paper's block labels, then the
// report as text.
func correspondence(t *testing.T, a, b Trace, labels map[int]string) (string, *Report) {
	t.Helper()
	var mu sync.Mutex
	steps := map[uint64][]Step{}
	rep, err := Traces(a, b, Options{Weights: DefaultWeights, Parallel: 1, Observe: func(s Step) {
		mu.Lock()
		if s.Section != nil {
			c := *s.Section
			s.Section = &c
		}
		steps[s.Goroutine] = append(steps[s.Goroutine], s)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	name := func(s Step) string {
		l := labels[s.Block]
		if l == "" {
			l = fmt.Sprint(s.Block)
		}
		switch s.Token {
		case "block", "call":
			return l
		case "exit":
			return "ret(" + l + ")"
		case "outcome", "spawn", "sync":
			return s.Token
		}
		return s.Token
	}
	for _, pr := range rep.Goroutines.Matched {
		fmt.Fprintf(&buf, "goroutine %d ~ %d (%s)\n", pr.A, pr.B, pr.Spawn)
		var same, sa, sb []string
		flushSame := func() {
			if len(same) > 0 {
				fmt.Fprintf(&buf, "  = %s\n", strings.Join(same, " "))
				same = nil
			}
		}
		for _, s := range steps[pr.A] {
			switch s.Kind {
			case StepSame:
				same = append(same, name(s))
			case StepLockOrder:
				same = append(same, "outcome(lock order differs)")
			case StepA:
				flushSame()
				sa = append(sa, name(s))
			case StepB:
				flushSame()
				sb = append(sb, name(s))
			case StepSection:
				flushSame()
				sec := s.Section
				kind := sec.TCP.Kind
				if sec.Unflagged {
					kind = "unflagged"
				}
				fmt.Fprintf(&buf, "  ≠ %s at %s (%s) → %s: a [%s] b [%s] fanout %d tcp %d freq %.3f d %s\n",
					kind, labels[sec.TCP.Block], sec.TCP.Pos, sec.CP.Pos,
					strings.Join(sa, " "), strings.Join(sb, " "), sec.Fanout, sec.TCPDistance, sec.TCPFreqDistance, num(sec.Distance))
				sa, sb = nil, nil
			}
		}
		flushSame()
	}
	buf.WriteString("\n")
	if err := rep.WriteText(&buf, TextOptions{Sections: true}); err != nil {
		t.Fatal(err)
	}
	return buf.String(), rep
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}
