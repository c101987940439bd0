package waittime

import (
	"fmt"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// forkJoinGen builds a fork-join trace in memory: each round main starts
// four goroutines that run ten blocks each and join on a WaitGroup.
func forkJoinGen(rounds int) *fakeTrace {
	b := newBuilder("fj.go")
	spawnB, waitB := b.block("main", 5, 2), b.block("main", 6, 2)
	var work []uint32
	for i := 0; i < 10; i++ {
		work = append(work, b.block("work", 10+i, 5))
	}
	done := b.block("work", 20, 2)
	m := b.goroutine(1, 0, 0, 0, 0)
	id := uint64(2)
	for r := 0; r < rounds; r++ {
		end := m.now
		for i := 0; i < 4; i++ {
			m.spawn(spawnB, id, uint32(r*4+i+1))
			w := b.goroutine(id, 1, spawnB, uint32(r*4+i+1), m.now)
			id++
			w.exec(work...)
			w.advance(int64(1000 + 10*i))
			w.op(done, trace.OpWGDone, 7)
			w.done()
			end = max(end, w.now)
		}
		m.exec(spawnB)
		m.wait(waitB, trace.OpWGWait, 7, end+100)
	}
	m.done()
	return b.trace()
}

// genForkJoin is forkJoinGen generated on the fly, so that the benchmark's
// heap is the analysis's: main starts four workers per round (ids from 2),
// each runs ten blocks and a wg.done, main waits.
type genForkJoin struct {
	graph  *tbb.Graph
	rounds int
}

const fjPeriod = 2000

func newGenForkJoin(rounds int) *genForkJoin {
	return &genForkJoin{graph: forkJoinGen(0).graph, rounds: rounds}
}

func (g *genForkJoin) Graph() *tbb.Graph { return g.graph }
func (g *genForkJoin) Goroutines() []trace.GoroutineInfo {
	gs := []trace.GoroutineInfo{{ID: 1, End: int64(g.rounds) * fjPeriod, Ended: true}}
	for r := 0; r < g.rounds; r++ {
		for i := 0; i < 4; i++ {
			start := int64(r) * fjPeriod
			gs = append(gs, trace.GoroutineInfo{ID: uint64(2 + r*4 + i), Parent: 1, Site: 0, Ordinal: uint32(r*4 + i + 1),
				Start: start, End: start + 1000 + 10*int64(i), Ended: true})
		}
	}
	return gs
}
func (g *genForkJoin) Events(id uint64) (trace.EventIter, error) {
	return &fjIter{g: g, id: id}, nil
}

type fjIter struct {
	g    *genForkJoin
	id   uint64
	n    int
	step int
	ev   trace.Event
}

func (it *fjIter) Next() bool {
	if it.id == 1 { // main: four spawns, its block, the join
		if it.n >= it.g.rounds {
			return false
		}
		base := int64(it.n) * fjPeriod
		switch {
		case it.step < 4:
			it.ev = trace.Event{Kind: trace.EvSpawn, Block: 0, Child: uint64(2 + it.n*4 + it.step), Ordinal: uint32(it.n*4 + it.step + 1)}
		case it.step == 4:
			it.ev = trace.Event{Kind: trace.EvBlock, Block: 0}
		default:
			it.ev = trace.Event{Kind: trace.EvSync, Op: trace.OpWGWait, Object: 7, Block: 1, Waited: true, Begin: base, End: base + 1130}
			it.n++
			it.step = 0
			return true
		}
		it.step++
		return true
	}
	w := int64(it.id-2) % 4
	start := int64(it.id-2) / 4 * fjPeriod
	switch {
	case it.step < 10:
		it.ev = trace.Event{Kind: trace.EvBlock, Block: uint32(2 + it.step)}
	case it.step == 10:
		it.ev = trace.Event{Kind: trace.EvClock, Time: start + 1000 + 10*w}
	case it.step == 11:
		it.ev = trace.Event{Kind: trace.EvSync, Op: trace.OpWGDone, Object: 7, Block: 12, End: start + 1000 + 10*w}
	default:
		return false
	}
	it.step++
	return true
}
func (it *fjIter) Event() trace.Event { return it.ev }
func (it *fjIter) Err() error         { return nil }

// BenchmarkForkJoin: a goroutine per task, 2000 and 20000 rounds of four.
// Time per round stays flat; the heap grows with the goroutines listed,
// not with what each did.
func BenchmarkForkJoin(b *testing.B) {
	for _, rounds := range []int{2000, 20000} {
		tr := newGenForkJoin(rounds)
		b.Run(fmt.Sprintf("rounds=%d", rounds), func(b *testing.B) {
			var peak uint64
			for b.Loop() {
				stop := make(chan struct{})
				done := make(chan uint64)
				go samplePeak(stop, done)
				rep, err := Analyze(tr, Options{})
				close(stop)
				peak = max(peak, <-done)
				if err != nil {
					b.Fatal(err)
				}
				if rep.Waits != rounds {
					b.Fatalf("%d waits, want %d", rep.Waits, rounds)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rounds), "ns/round")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}
