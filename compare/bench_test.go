package compare

import (
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// loopTrace is Figure 2's task generated on the fly: a loop of n
// iterations, each an if deciding on a hash of the iteration. Side 1 flips
// 100 decisions spread over the loop and runs one iteration more, so the
// comparison walks long equal stretches, divergent sections and a loop
// section, and the report is the same size at every trace length.
// Each iteration is 5 block executions (body, then or else, join, post,
// head), 3 of them probed events.
type loopTrace struct {
	f    *fig2
	n    int
	side uint64
	// every, when set, flips one decision in every that many iterations
	// instead of 100 in all.
	every int
}

func (t *loopTrace) Graph() *tbb.Graph       { return t.f.g }
func (t *loopTrace) Goroutines() []Goroutine { return []Goroutine{{ID: 1}} }
func (t *loopTrace) Events(uint64) (EventReader, error) {
	n := t.n
	if t.side == 1 {
		n++
	}
	return &loopReader{t: t, n: n, i: -1}, nil
}

type loopReader struct {
	t     *loopTrace
	n     int
	i     int // iteration, -1 before the entry
	phase int
	done  bool
}

func (r *loopReader) Read(buf []trace.Event) (int, error) {
	f := r.t.f
	k := 0
	for k < len(buf) && !r.done {
		switch {
		case r.i < 0:
			buf[k] = blk(f.entry)
			r.i = 0
			if k+2 < len(buf) {
				buf[k+1], buf[k+2] = out(1), blk(f.crit)
				k += 2
			} else {
				r.i = -2
			}
		case r.i == -2:
			buf[k] = out(1)
			r.i = -3
		case r.i == -3:
			buf[k] = blk(f.crit)
			r.i = 0
		case r.i == r.n:
			if r.phase == 0 {
				buf[k] = blk(f.done)
				r.phase = 1
			} else {
				buf[k] = ret(f.entry)
				r.done = true
			}
		default:
			switch r.phase {
			case 0:
				buf[k] = blk(f.body)
				r.phase = 1
			case 1:
				h := hash(uint64(r.i))
				every := r.t.every
				if every == 0 {
					every = max(r.t.n/100, 1)
				}
				if r.i%every == 0 {
					h += r.t.side
				}
				if h%2 == 0 {
					buf[k] = blk(f.then)
				} else {
					buf[k] = blk(f.els)
				}
				r.phase = 2
			case 2:
				buf[k] = blk(f.join)
				r.phase = 0
				r.i++
			}
		}
		k++
	}
	if r.done {
		return k, io.EOF
	}
	return k, nil
}

// BenchmarkCompare compares pairs of 1M and 10M (and with
// COMPARE_BENCH_100M=1, 100M) block executions per side, generated on the
// fly: ns/block (per block execution of either side) should stay flat and
// B/op should not grow with the size.
func BenchmarkCompare(b *testing.B) {
	f := newFig2(b)
	sizes := []int{1_000_000, 10_000_000}
	if os.Getenv("COMPARE_BENCH_100M") != "" {
		sizes = append(sizes, 100_000_000)
	}
	for _, blocks := range sizes {
		b.Run(fmt.Sprintf("blocks=%d", blocks), func(b *testing.B) {
			iters := blocks / 5
			a, c := &loopTrace{f: f, n: iters}, &loopTrace{f: f, n: iters, side: 1}
			b.ReportAllocs()
			var rep *Report
			for b.Loop() {
				var err error
				rep, err = Traces(a, c, Options{Weights: DefaultWeights})
				if err != nil {
					b.Fatal(err)
				}
			}
			if rep.Summary.BlocksA < int64(blocks) || len(rep.Sections) != 101 {
				b.Fatalf("walked %d blocks, %d sections", rep.Summary.BlocksA, len(rep.Sections))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rep.Summary.BlocksA+rep.Summary.BlocksB), "ns/block")
			b.ReportMetric(float64(len(rep.Sections)), "sections")
		})
	}
}

// BenchmarkCompareMany compares two runs of 2000 short goroutines (a
// worker pool's) on a graph of 20000 blocks: what a pair costs apart from
// its length, the caches sized by the graph included.
func BenchmarkCompareMany(b *testing.B) {
	const nblocks, workers = 20000, 2000
	bl := newBuilder("many/main.go")
	main := bl.fn("example.com/m.main", 1)
	site := bl.block(main, "entry", 2, true, "")
	bl.exit(site)
	bl.tcp(site, tbb.Spawn, 3, tbb.Return)
	work := bl.fn("example.com/m.work", 10)
	prev := bl.block(work, "entry", 11, true, "")
	first := prev
	for i := 1; i < nblocks; i++ {
		// Every other block implied: replay puts it back.
		blk := bl.block(work, "plain", 12+i, i%2 == 0, "")
		bl.edge(prev, blk)
		prev = blk
	}
	bl.exit(prev)
	g := bl.graph(b)
	run := func(side int) *memTrace {
		m := newMem(g).add(1, 0, 0, 0, blk(site), ret(site))
		for w := range workers {
			evs := []trace.Event{blk(first)}
			for k := 2; k <= 40; k += 2 {
				evs = append(evs, blk(first+k))
			}
			if w%100 == 0 && side == 1 {
				evs = evs[:len(evs)-1]
			}
			m.add(uint64(w+2), 1, uint32(site), uint32(w+1), append(evs, ret(first))...)
		}
		return m
	}
	x, y := run(0), run(1)
	b.ReportAllocs()
	var rep *Report
	for b.Loop() {
		var err error
		rep, err = Traces(x, y, Options{Weights: DefaultWeights})
		if err != nil {
			b.Fatal(err)
		}
	}
	if rep.Summary.Matched != workers+1 || rep.Summary.Anomalies != 0 {
		b.Fatalf("%d pairs, %d anomalies", rep.Summary.Matched, rep.Summary.Anomalies)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rep.Summary.Matched), "ns/pair")
}
