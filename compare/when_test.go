package compare

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// parting is a program whose main and worker each decide an if: main after
// a wait in code divergo does not see (g.Wait: no timestamp), the worker
// between two timestamps a few microseconds apart.
type parting struct {
	g            *tbb.Graph
	main, worker ifFunc
}

// ifFunc is a function of an entry block, whose TCP leads to the block of an
// if, its two branches and the block after them.
type ifFunc struct{ entry, cond, then, els, done int }

func addIf(b *builder, name string, line int, entryTCP tbb.Kind) ifFunc {
	fn := b.fn(name, line)
	f := ifFunc{
		entry: b.block(fn, "entry", line+1, true, ""),
		cond:  b.block(fn, "call.after", line+4, true, ""),
		then:  b.block(fn, "if.then", line+5, true, ""),
		els:   b.block(fn, "if.else", line+7, true, ""),
		done:  b.block(fn, "if.done", line+9, true, ""),
	}
	b.edge(f.entry, f.cond)
	b.edge(f.cond, f.then, f.els)
	b.edge(f.then, f.done)
	b.edge(f.els, f.done)
	b.exit(f.done)
	b.tcp(f.entry, entryTCP, line+2, f.cond)
	b.tcp(f.cond, tbb.Branch, line+5, f.done)
	return f
}

func newParting(t *testing.T) *parting {
	b := newBuilder("parting/main.go")
	p := &parting{main: addIf(b, "example.com/m.main", 30, tbb.Spawn), worker: addIf(b, "example.com/m.worker", 10, tbb.Lock)}
	p.g = b.graph(t)
	return p
}

// run is one run: main starts at 7 µs, starts the worker and waits in
// library code until 60 ms, then takes its branch mainThen way; the worker
// runs from 1 ms and takes its branch workerThen way between its lock at
// 1.002 ms and its end at 1.004 ms.
func (p *parting) run(mainThen, workerThen bool) *memTrace {
	mb, wb := p.main.els, p.worker.els
	if mainThen {
		mb = p.main.then
	}
	if workerThen {
		wb = p.worker.then
	}
	us := func(f float64) int64 { return int64(f * 1000) }
	m := newMem(p.g)
	mf, wf := p.main, p.worker
	m.add(1, 0, 0, 0, clock(us(7)), blk(mf.entry), spawn(mf.entry, 2, 1), blk(mf.cond), blk(mb), blk(mf.done), ret(mf.entry), clock(us(60_000)))
	m.add(2, 1, uint32(mf.entry), 1, clock(us(1000)), blk(wf.entry), wait(wf.entry, trace.OpLock, us(1000), us(1002)),
		blk(wf.cond), blk(wb), blk(wf.done), ret(wf.entry), clock(us(1004)))
	return m
}

// TestFirstPartedInTime: the parting named first is the one that came
// first in time, with a time inside its goroutine's span. Main's branch
// comes after a long stretch without timestamps: extrapolated from main's
// start, it was taken for the first, at 7 µs.
func TestFirstPartedInTime(t *testing.T) {
	p := newParting(t)
	rep := mustCompare(t, p.run(true, true), p.run(false, false))
	if len(rep.Sections) != 2 {
		t.Fatalf("%d sections, want 2", len(rep.Sections))
	}
	spans := map[uint64][2]int64{1: {7_000, 60_000_000}, 2: {1_000_000, 1_004_000}}
	for _, s := range rep.Sections {
		span, ok := spans[s.Goroutine]
		if !ok {
			t.Fatalf("section in goroutine %d", s.Goroutine)
		}
		for _, sd := range []Side{s.A, s.B} {
			if sd.StartNS < span[0] || sd.StartNS > span[1] {
				t.Errorf("%s: section at %s starts at %d ns, outside the goroutine's %d..%d", s.Spawn, s.TCP.Pos, sd.StartNS, span[0], span[1])
			}
		}
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b, TextOptions{NameA: "a.dvt", NameB: "b.dvt"}); err != nil {
		t.Fatal(err)
	}
	var line string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.Contains(l, "first parted") {
			line = l
		}
	}
	// The worker's branch, between its timestamps at 1.002 and 1.004 ms.
	if !strings.Contains(line, "parting/main.go:15 (branch) in main > go parting/main.go:32#1, 1.00") || !strings.HasSuffix(line, "ms into a.dvt") {
		t.Errorf("got %q, want the worker's branch at line 15, about 1.003ms into a.dvt", line)
	}
}

func TestWhenText(t *testing.T) {
	tests := []struct {
		sd   Side
		want string
	}{
		{Side{StartNS: 1_003_000, StartSpanNS: 2_000}, ", 1.003ms into a.dvt"},
		{Side{StartNS: 1_003_000, StartSpanNS: 0}, ", 1.003ms into a.dvt"},
		{Side{StartNS: 30 * int64(time.Millisecond), StartSpanNS: 2 * int64(time.Millisecond)}, ", 30ms into a.dvt"},
		{Side{StartNS: 30 * int64(time.Millisecond), StartSpanNS: 20 * int64(time.Millisecond)}, ", at about 30ms into a.dvt"},
		{Side{StartNS: 30 * int64(time.Millisecond), StartSpanNS: 59 * int64(time.Millisecond)}, ""}, // could be anywhere
		{Side{StartNS: 30 * int64(time.Millisecond), StartSpanNS: -1}, ""},                           // cut off: a lower bound
		{Side{}, ""}, // no timestamp at all
	}
	for _, tt := range tests {
		if got := whenText(tt.sd, "a.dvt"); got != tt.want {
			t.Errorf("whenText(%+v) = %q, want %q", tt.sd, got, tt.want)
		}
	}
}

func TestStartTime(t *testing.T) {
	tests := []struct {
		name      string
		st        startTime
		t, within int64
		ok        bool
	}{
		{"unknown", startTime{}, 0, 0, false},
		{"cut off", startTime{lo: 100, known: true}, 100, -1, true},
		{"interpolated", startTime{lo: 100, hi: 200, before: 3, span: 4, known: true, closed: true}, 175, 100, true},
		{"at the timestamp", startTime{lo: 100, hi: 200, before: 0, span: 4, known: true, closed: true}, 100, 100, true},
		{"never past the next one", startTime{lo: 100, hi: 200, before: 9, span: 4, known: true, closed: true}, 200, 100, true},
	}
	for _, tt := range tests {
		tm, within, ok := tt.st.at()
		if tm != tt.t || within != tt.within || ok != tt.ok {
			t.Errorf("%s: at() = %d, %d, %v; want %d, %d, %v", tt.name, tm, within, ok, tt.t, tt.within, tt.ok)
		}
	}
}
