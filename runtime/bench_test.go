package runtime

import (
	"math/rand/v2"
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

// BenchmarkOutcome is the per-outcome cost: g.Outcome inlined, a one-word
// value, including the amortized cost of encoding and writing.
func BenchmarkOutcome(b *testing.B) {
	startSession(b)
	g := Main(testGraphJSON(b), bMain)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Outcome(uint64(i & 1023))
	}
	b.StopTimer()
	g.Exit(bMain)
}

// BenchmarkEnterOff is a function entry and exit with DIVERGO_TRACE=off:
// Enter's test and the deferred Exit's, inlined.
func BenchmarkEnterOff(b *testing.B) {
	resetSession()
	b.Cleanup(resetSession)
	b.Setenv("DIVERGO_TRACE", "off")
	m := Main(testGraphJSON(b), bMain)
	for i := 0; i < b.N; i++ {
		enterExit()
	}
	m.Exit(bMain)
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
		encode(words, &c, rawTimes())
	}
}

// mixedWords is a buffer as testdata/wordcount fills it: a producer's lines
// (small blocks, an index outcome per word, a call and a send per line) and
// a worker's (a receive, then per word a block, the 32-bit hash of the word
// as a map outcome, and another block).
func mixedWords() []uint32 {
	return mixedWordsOut(func(w []uint32, v uint32) []uint32 { return append(w, outBit|v>>2) })
}

func mixedWordsOut(out func(w []uint32, v uint32) []uint32) []uint32 {
	var w []uint32
	x := uint32(1)
	for len(w) < maxWords-64 {
		w = append(w, 0)
		for i := 0; i < 12; i++ {
			if i > 0 {
				w = append(w, 3)
			}
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			w = out(append(w, 4), x%34)
		}
		w = append(w, 6, opBit|opExit<<16, 0, 30, opBit|opSync<<16|uint32(trace.OpSend), 30, 0xc000, 0x10, 12345678+x%1000, 0)
		w = append(w, opBit|opSync<<16|uint32(trace.OpRecv), 7, 0xc000, 0x10, 12345678+x%999, 0, 9)
		for i := 0; i < 12; i++ {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			if x%4 != 0 {
				w = out(append(w, 12), x)
			}
			w = append(w, 14)
		}
		w = append(w, 17)
	}
	return w
}

// BenchmarkEncodeMixed is the cost per word of encoding buffers of
// interleaved blocks, outcomes and sync events (mixedWords).
func BenchmarkEncodeMixed(b *testing.B) {
	words := mixedWords()
	var c trace.Chunk
	b.SetBytes(int64(4 * len(words)))
	for i := 0; i < b.N; i++ {
		encode(words, &c, rawTimes())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(words)), "ns/word")
}

// BenchmarkSendRecv is a send and a receive through the wrappers on a
// buffered channel, neither of which waits: what a pipeline pays per item.
func BenchmarkSendRecv(b *testing.B) {
	startSession(b)
	g := Main(testGraphJSON(b), bMain)
	ch := make(chan int, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Send(g, bSpawn, ch, i)
		Recv(g, bSpawn, ch)
	}
	b.StopTimer()
	g.Exit(bMain)
}

var sinkTime int64

// BenchmarkClock compares the stamp sync events take (the TSC where it is
// usable, clock.go) with nanotime, which they took before.
func BenchmarkClock(b *testing.B) {
	useTSC = tscUsable()
	b.Run("now", func(b *testing.B) {
		for b.Loop() {
			sinkTime += now()
		}
	})
	b.Run("nanotime", func(b *testing.B) {
		for b.Loop() {
			sinkTime += nanotime()
		}
	})
}

// BenchmarkPingPong is a send and a receive through the wrappers on an
// unbuffered channel between two goroutines: most operations wait, so it
// measures the blocking path (the record of the pending wait, blocked.go).
func BenchmarkPingPong(b *testing.B) {
	startSession(b)
	g := Main(testGraphJSON(b), bMain)
	ping, pong := make(chan int), make(chan int)
	ended := goWorker(g, func(w *G) {
		for v := range ping {
			Send(w, bWorkerL, pong, v)
		}
	})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Send(g, bSpawn, ping, i)
		Recv(g, bSpawn, pong)
	}
	b.StopTimer()
	close(ping)
	<-ended // its final flush must not land in the next round's session
	g.Exit(bMain)
}

// BenchmarkLockContended is Lock/Unlock pairs through the wrappers by
// GOMAXPROCS goroutines on one mutex: the waits of a mutex-heavy program.
func BenchmarkLockContended(b *testing.B) {
	startSession(b)
	g := Main(testGraphJSON(b), bMain)
	var mu sync.Mutex
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := current(false, nil)
		for pb.Next() {
			w.Lock(bWorker, &mu)
			w.Unlock(bWorker, &mu)
		}
	})
	b.StopTimer()
	g.Exit(bMain)
}

// packedWords is a buffer as testdata/cpuloop fills it: per call of its
// Collatz walk the entry block, two or three pack words of random codes
// (which never repeat), the exit and the caller's next block.
func packedWords() []uint32 {
	var w []uint32
	rng := rand.New(rand.NewPCG(1, 2))
	for len(w) < maxWords-64 {
		w = append(w, 0)
		for k := range 2 + rng.IntN(2) {
			n := uint64(64)
			if k > 0 {
				n = 1 + rng.Uint64N(63)
			}
			codes := rng.Uint64() >> (64 - n)
			w = append(w, opBit|opPack<<16|uint32(n), 1, lo(codes), hi(codes))
		}
		w = append(w, opBit|opExit<<16, 0, 14)
	}
	return w
}

// BenchmarkEncodePacked is the cost per event of encoding buffers of a
// function whose loop is packed (packedWords).
func BenchmarkEncodePacked(b *testing.B) {
	words := packedWords()
	var c trace.Chunk
	b.SetBytes(int64(4 * len(words)))
	for i := 0; i < b.N; i++ {
		encode(words, &c, rawTimes())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.Events), "ns/event")
}

// BenchmarkSelect is a select of two receives, one ready, and a default,
// written as the instrumenter writes it: "plain" records its begin and
// end only, "forcible" adds what lets a replay force its clause (Forcing,
// and Case around each channel), the cost every select pays off replay.
func BenchmarkSelect(b *testing.B) {
	startSession(b)
	g := Main(testGraphJSON(b), bMain)
	defer g.Exit(bMain)
	ch, never := make(chan int, 1), make(chan int)
	b.Run("plain", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			ch <- i
			t := g.SelectBegin(bWorker)
			select {
			case <-ch:
				SelectEndOn(g, bWorker, t, ch, false, 0)
			case <-never:
				SelectEndOn(g, bWorker, t, never, false, 1)
			default:
				g.SelectEnd(bWorker, t, 2)
			}
		}
	})
	b.Run("forcible", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			ch <- i
			t := g.SelectBegin(bWorker)
			if g.Forcing() {
				g.SelectForce(SelRecv(ch), SelRecv(never), SelDefault())
			}
			select {
			case <-Case(g, 0, ch):
				SelectEndOn(g, bWorker, t, ch, false, 0)
			case <-Case(g, 1, never):
				SelectEndOn(g, bWorker, t, never, false, 1)
			default:
				g.SelectEnd(bWorker, t, 2)
			}
		}
	})
}
