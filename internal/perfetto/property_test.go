package perfetto

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/trace"
)

// gen builds random but well-formed goroutine streams over testGraph:
// calls and returns, clocks that often do not advance (so that many events
// share a time), waits and releases on a few objects, spawns.
type gen struct {
	r    *rand.Rand
	alt  *rand.Rand // picks the blocks within a function: two runs differing only in it diverge inside frames
	t    int64
	evs  []trace.Event
	next uint64 // next goroutine id
	kids []trace.GoroutineEvents
}

// funcs of testGraph: entry block and the other blocks of each.
var genFuncs = [][]uint32{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9}}

func (g *gen) tick() {
	if g.r.IntN(3) > 0 {
		g.t += int64(g.r.IntN(50))
	}
}

func (g *gen) body(fn int, depth int) {
	bs := genFuncs[fn]
	g.evs = append(g.evs, blk(bs[0]))
	for range g.r.IntN(6) {
		switch g.r.IntN(7) {
		case 0:
			g.tick()
			g.evs = append(g.evs, clk(g.t))
		case 1:
			if depth < 4 {
				g.body(1+g.r.IntN(3), depth+1)
			}
		case 2:
			begin := g.t
			g.tick()
			ops := []trace.Op{trace.OpLock, trace.OpRecv, trace.OpSend, trace.OpWGWait, trace.OpSleep}
			g.evs = append(g.evs, wait(ops[g.r.IntN(len(ops))], bs[0], uint64(1+g.r.IntN(3)), begin, g.t))
		case 3:
			g.tick()
			ops := []trace.Op{trace.OpUnlock, trace.OpSend, trace.OpRecv, trace.OpWGDone, trace.OpClose}
			g.evs = append(g.evs, syn(ops[g.r.IntN(len(ops))], bs[0], uint64(1+g.r.IntN(3)), g.t))
		case 4:
			if g.next < 8 {
				g.next++
				g.evs = append(g.evs, spawn(bs[0], uint32(g.next), g.next))
				g.kids = append(g.kids, trace.GoroutineEvents{ID: g.next, Parent: 1, Site: bs[0], Ordinal: uint32(g.next), Start: g.t})
			}
		default:
			if len(bs) > 1 {
				g.evs = append(g.evs, blk(bs[1+g.alt.IntN(len(bs)-1)]))
			}
		}
	}
	if g.r.IntN(8) > 0 { // sometimes the exit is lost, as after a panic
		g.evs = append(g.evs, ext(bs[0]))
	}
}

// randomRun makes main and the goroutines it spawned. Runs of one seed
// and different variants have the same calls, syncs and spawns.
func randomRun(seed, variant uint64) []trace.GoroutineEvents {
	g := &gen{r: rand.New(rand.NewPCG(seed, 7)), alt: rand.New(rand.NewPCG(seed, variant)), next: 1}
	g.evs = []trace.Event{clk(0)}
	g.body(0, 0)
	g.tick()
	g.evs = append(g.evs, clk(g.t))
	gs := []trace.GoroutineEvents{{ID: 1, Events: g.evs, Running: g.r.IntN(5) == 0}}
	for _, k := range g.kids {
		g.evs, g.t = []trace.Event{clk(k.Start)}, k.Start
		g.body(1+g.r.IntN(3), 0)
		g.tick()
		g.evs = append(g.evs, clk(g.t))
		k.Events, k.Running = g.evs, g.r.IntN(5) == 0
		gs = append(gs, k)
	}
	return gs
}

// TestRandomTraces: whatever the streams, the output follows the format's
// rules, for every minimum frame length, and for diffs of two runs.
func TestRandomTraces(t *testing.T) {
	graph := testGraph(t)
	sections := 0
	defer func() {
		if sections < 50 {
			t.Errorf("only %d divergent sections in all the diffs: the generator does not exercise the marks", sections)
		}
	}()
	for seed := range uint64(150) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			a := open(t, graph, randomRun(seed, 1))
			for _, min := range []int64{-1, 0, 20} {
				var buf bytes.Buffer
				if err := Write(&buf, Options{MinFrame: time.Duration(min)}, Run{Reader: a}); err != nil {
					t.Fatal(err)
				}
				if _, err := Validate(buf.Bytes()); err != nil {
					t.Fatalf("min frame %d: %v\n%s", min, err, buf.Bytes())
				}
			}
			b := open(t, graph, randomRun(seed, 2))
			if seed%4 == 0 {
				b = open(t, graph, randomRun(seed+1000, 2))
			}
			var buf bytes.Buffer
			rep, err := writeDiff(&buf, Run{Reader: a}, Run{Reader: b}, compare.Options{}, Options{MinFrame: -1})
			if err != nil {
				t.Fatal(err)
			}
			sections += rep.Summary.Sections
			if _, err := Validate(buf.Bytes()); err != nil {
				t.Fatalf("diff: %v\n%s", err, buf.Bytes())
			}
		})
	}
}
