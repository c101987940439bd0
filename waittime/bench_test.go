package waittime

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// genTrace is a synthetic trace generated on the fly, so that benchmarks of
// long traces measure the analysis and not a trace held in memory: workers
// goroutines run blocksPer blocks per iteration, then take one of four
// mutexes; odd workers wait for it.
type genTrace struct {
	graph      *tbb.Graph
	workers    int
	iterations int
	blocksPer  int
}

const genPeriod = 1000 // ns per iteration

func newGenTrace(blocks int) *genTrace {
	b := newBuilder("gen.go")
	for i := 0; i < 12; i++ {
		b.block("worker", 10+i, 5+i)
	}
	g := &genTrace{graph: b.tr.graph, workers: 8, blocksPer: 10}
	g.iterations = blocks / (g.workers * (g.blocksPer + 1))
	return g
}

func (g *genTrace) Graph() *tbb.Graph { return g.graph }
func (g *genTrace) Goroutines() []trace.GoroutineInfo {
	var gs []trace.GoroutineInfo
	for i := 0; i < g.workers; i++ {
		gs = append(gs, trace.GoroutineInfo{ID: uint64(i + 1), Start: 0, End: int64(g.iterations) * genPeriod, Ended: true})
	}
	return gs
}
func (g *genTrace) Events(id uint64) (trace.EventIter, error) {
	return &genIter{g: g, w: int64(id - 1)}, nil
}

type genIter struct {
	g    *genTrace
	w    int64
	n    int // iteration
	step int // event within the iteration
	ev   trace.Event
}

func (it *genIter) Next() bool {
	g := it.g
	if it.n >= g.iterations {
		return false
	}
	base := int64(it.n)*genPeriod + it.w*100
	obj := uint64(it.n%4 + 1)
	switch {
	case it.step < g.blocksPer:
		it.ev = trace.Event{Kind: trace.EvBlock, Block: uint32((it.step*7 + it.n + int(it.w)) % 10)}
	case it.step == g.blocksPer:
		it.ev = trace.Event{Kind: trace.EvSync, Op: trace.OpLock, Object: obj, Block: 10, End: base + 50}
		if it.w%2 == 1 {
			it.ev.Waited, it.ev.Begin, it.ev.End = true, base+50, base+80
		}
	case it.step == g.blocksPer+1:
		it.ev = trace.Event{Kind: trace.EvBlock, Block: 11}
	default:
		it.ev = trace.Event{Kind: trace.EvSync, Op: trace.OpUnlock, Object: obj, Block: 11, End: base + 90}
		it.n++
		it.step = 0
		return true
	}
	it.step++
	return true
}
func (it *genIter) Event() trace.Event { return it.ev }
func (it *genIter) Err() error         { return nil }

// BenchmarkAnalyze measures Analyze over traces of 1M and 10M block
// executions: time per block should stay flat (linear time) and so should
// the peak heap (memory bounded by goroutines × path size).
func BenchmarkAnalyze(b *testing.B) {
	for _, blocks := range []int{1_000_000, 10_000_000} {
		b.Run(fmt.Sprintf("blocks=%dM", blocks/1_000_000), func(b *testing.B) {
			tr := newGenTrace(blocks)
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
				if rep.Waits == 0 {
					b.Fatal("no waits")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(blocks), "ns/block")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}

// samplePeak samples the live heap every 50 ms until stop.
func samplePeak(stop <-chan struct{}, done chan<- uint64) {
	var peak uint64
	var ms runtime.MemStats
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
		select {
		case <-stop:
			done <- peak
			return
		case <-tick.C:
		}
	}
}
