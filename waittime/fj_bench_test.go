package waittime

import (
	"fmt"
	"testing"

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

func BenchmarkForkJoin(b *testing.B) {
	for _, rounds := range []int{2000, 20000} {
		tr := forkJoinGen(rounds)
		b.Run(fmt.Sprintf("rounds=%d", rounds), func(b *testing.B) {
			for b.Loop() {
				if _, err := Analyze(tr, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rounds), "ns/round")
		})
	}
}
