package runtime

import (
	"os"
	"sync"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// BenchmarkProbe is the per-block cost: g.B inlined, including the amortized
// cost of encoding and writing full buffers.
// It reports the trace bytes per block execution (ids below 64, one byte).
func BenchmarkProbe(b *testing.B) {
	path := startSession(b)
	g := Main(testGraphJSON(b), bMain)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.B(uint32(i & 63))
	}
	b.StopTimer()
	g.Exit(bMain)
	if st, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(st.Size())/float64(b.N), "trace-B/block")
	}
}

// BenchmarkProbeOff is the probe with DIVERGO_TRACE=off.
func BenchmarkProbeOff(b *testing.B) {
	resetSession()
	b.Cleanup(resetSession)
	b.Setenv("DIVERGO_TRACE", "off")
	g := Main(testGraphJSON(b), bMain)
	for i := 0; i < b.N; i++ {
		g.B(uint32(i & 63))
	}
}

// BenchmarkEnter is a function entry and exit: goroutine id, table lookup,
// entry block, deferred exit.
func BenchmarkEnter(b *testing.B) {
	startSession(b)
	m := Main(testGraphJSON(b), bMain)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		enterExit()
	}
	b.StopTimer()
	m.Exit(bMain)
}

//go:noinline
func enterExit() {
	g := Enter(bWorker)
	defer g.Exit(bWorker)
}

func BenchmarkGoid(b *testing.B) {
	if goidOffset < 0 {
		goidOffset = detectGoidOffset()
	}
	for i := 0; i < b.N; i++ {
		curGoid()
	}
}

func BenchmarkGoidStack(b *testing.B) {
	for i := 0; i < b.N; i++ {
		stackGoid()
	}
}

func BenchmarkNanotime(b *testing.B) {
	for i := 0; i < b.N; i++ {
		nanotime()
	}
}

func BenchmarkTimeSince(b *testing.B) {
	t0 := time.Now()
	for i := 0; i < b.N; i++ {
		_ = time.Since(t0)
	}
}

// BenchmarkLock is an uncontended Lock/Unlock pair through the wrappers;
// BenchmarkLockPlain the same without them.
func BenchmarkLock(b *testing.B) {
	startSession(b)
	g := Main(testGraphJSON(b), bMain)
	var mu sync.Mutex
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Lock(bSpawn, &mu)
		g.Unlock(bSpawn, &mu)
	}
	b.StopTimer()
	g.Exit(bMain)
}

func BenchmarkLockPlain(b *testing.B) {
	var mu sync.Mutex
	for i := 0; i < b.N; i++ {
		mu.Lock()
		mu.Unlock()
	}
}

// BenchmarkEncode is the cost per word of turning a full buffer of a loop's
// block ids into a chunk body.
func BenchmarkEncode(b *testing.B) {
	words := make([]uint32, maxWords)
	for i := range words {
		words[i] = uint32(2 + i%3)
		if i%50 == 0 {
			words[i] = 100 // an id of two bytes now and then
		}
	}
	var c trace.Chunk
	b.SetBytes(int64(4 * len(words)))
	for i := 0; i < b.N; i++ {
		encode(words, &c)
	}
}
