package runtime

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// TestEncodeRandom encodes random mixes of every event the recorder writes,
// in every word form (one-word and three-word outcomes, sync events that waited
// or not, selects that send, pack words alone, repeated and counts), and compares with trace.AppendEvent; then cuts
// the buffer at every length and checks that encode keeps exactly the
// events that are whole.
func TestEncodeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var words []uint32
	var ref []byte
	var ends []int    // word index after each event
	var refEnds []int // byte offset after each event
	var blocks uint64 // block executions, a pack's included
	type run struct {
		word, event int // where a repeated pack's words begin, its index in ends
		e           trace.Event
	}
	var runs []run
	for range 1000 {
		var e trace.Event
		var ws []uint32
		v := rng.Uint64() >> rng.IntN(64)
		switch k := rng.IntN(9); k {
		case 0, 1, 2:
			id := uint32(v) & (outBit - 1)
			if k > 0 {
				id %= 64 // runs of one-byte ids
			}
			e, ws = trace.Event{Kind: trace.EvBlock, Block: id}, []uint32{id}
		case 3:
			id := uint32(v) & (outBit - 1)
			e, ws = trace.Event{Kind: trace.EvExit, Block: id}, []uint32{opBit | opExit<<16, id}
		case 4:
			e = trace.Event{Kind: trace.EvOutcome, Value: v}
			if v < outBit {
				ws = []uint32{outBit | uint32(v)}
			} else {
				ws = []uint32{opBit | opOutcome<<16, lo(v), hi(v)}
			}
		case 5:
			e, ws = trace.Event{Kind: trace.EvClock, Time: int64(v)}, []uint32{opBit | opClock<<16, lo(v), hi(v)}
		case 6:
			e = trace.Event{Kind: trace.EvSpawn, Site: uint32(v) % 1000, Ordinal: 3, Child: v}
			ws = []uint32{opBit | opSpawn<<16, e.Site, 3, lo(v), hi(v)}
		case 7:
			op := trace.Op(1 + rng.IntN(int(trace.OpSleep)))
			e = trace.Event{Kind: trace.EvSync, Op: op, Site: uint32(v) % 5000, Object: v * 3, End: int64(v >> 1), Waited: rng.IntN(2) == 0}
			aux := uint32(op)
			if op == trace.OpSelect && rng.IntN(2) == 0 {
				e.Sends, aux = true, aux|1<<9
			}
			ws = []uint32{0, e.Site, lo(e.Object), hi(e.Object), lo(uint64(e.End)), hi(uint64(e.End))}
			if e.Waited {
				e.Begin, aux = int64(v>>2), aux|1<<8
				ws = append(ws, lo(uint64(e.Begin)), hi(uint64(e.Begin)))
			}
			ws[0] = opBit | opSync<<16 | aux
		case 8:
			n := 1 + v%64
			e = trace.Event{Kind: trace.EvPack, Block: uint32(v) % 5000, Object: n, Value: v >> (v % 64)}
			ws = []uint32{opBit | opPack<<16 | uint32(n), e.Block, lo(e.Value), hi(e.Value)}
			switch v % 3 {
			case 0: // a count of the loops that only count
				e.Object, e.Value = v>>40+1, 0
				ws = []uint32{opBit | opPackN<<16, e.Block, 0, 0, lo(e.Object), hi(e.Object)}
			case 1: // the same word several times in a row: one event
				e.Ordinal = uint32(rng.IntN(5)) + 1
				runs = append(runs, run{len(words), len(ends), e})
				for range e.Ordinal {
					ws = append(ws, ws[:4]...)
				}
			}
		}
		switch e.Kind {
		case trace.EvBlock:
			blocks++
		case trace.EvPack:
			blocks += e.Object * uint64(e.Ordinal+1)
		}
		words = append(words, ws...)
		ref = trace.AppendEvent(ref, e)
		ends, refEnds = append(ends, len(words)), append(refEnds, len(ref))
	}
	var c trace.Chunk
	encode(words, &c, rawTimes())
	if !bytes.Equal(c.Body, ref) || c.Events != uint64(len(ends)) {
		t.Fatalf("encode differs from trace.AppendEvent (%d events, want %d)", c.Events, len(ends))
	}
	if c.Blocks != blocks {
		t.Fatalf("encode counts %d block executions, want %d", c.Blocks, blocks)
	}
	for cut, k := 0, 0; cut <= len(words); cut++ {
		for k < len(ends) && ends[k] <= cut {
			k++
		}
		want := 0
		if k > 0 {
			want = refEnds[k-1]
		}
		wantBody, wantEvents := ref[:want], k
		for _, r := range runs {
			// A cut inside a repeated word's run keeps the whole words: the
			// same pack, repeated fewer times.
			if r.event == k && cut >= r.word+4 {
				e := r.e
				e.Ordinal = uint32(cut-r.word)/4 - 1
				wantBody, wantEvents = trace.AppendEvent(bytes.Clone(wantBody), e), k+1
			}
		}
		encode(words[:cut], &c, rawTimes())
		if !bytes.Equal(c.Body, wantBody) || c.Events != uint64(wantEvents) {
			t.Fatalf("cut at word %d: %d events, %d bytes; want %d, %d", cut, c.Events, len(c.Body), wantEvents, len(wantBody))
		}
	}
}

// TestStampConv: stamps of the session's clock, converted the way the
// writer converts them, agree with nanotime; and a goroutine's times never
// go back, within a chunk or across chunks.
func TestStampConv(t *testing.T) {
	startSession(t)
	if !begin() {
		t.Fatal("recording did not start")
	}
	n0, s0 := nanotime(), now()
	time.Sleep(2 * time.Millisecond)
	s1, n1 := now(), nanotime()
	cv := newStampConv(math.MinInt64)
	t.Logf("useTSC %v, %.4f ns per unit", useTSC, cv.k)
	a := cv.ns(s0)
	got, want := cv.ns(s1)-a, n1-n0
	if d := got - want; d < -int64(20*time.Microsecond) || d > int64(20*time.Microsecond) {
		t.Errorf("useTSC %v: %d ns between two stamps, nanotime says %d", useTSC, got, want)
	}
	if at := cv.raw(s1); at < n1-sess.base.Load()-int64(20*time.Microsecond) || at > n1-sess.base.Load()+int64(20*time.Microsecond) {
		t.Errorf("useTSC %v: stamp at %d ns, nanotime at %d", useTSC, at, n1-sess.base.Load())
	}

	cv = stampConv{t0: 100, n0: 0, k: 2, floor: math.MinInt64, ordered: true}
	if a, b, c := cv.ns(150), cv.ns(120), cv.ns(160); a != 100 || b != 100 || c != 120 {
		t.Errorf("ns(150, 120, 160) = %d, %d, %d; want 100, 100, 120 (never back)", a, b, c)
	}
	next := stampConv{t0: 100, n0: 0, k: 1.9, floor: cv.floor, start: cv.floor, ordered: true}
	if v := next.ns(161); v != 120 {
		t.Errorf("first time of the next chunk converts to %d, below the last chunk's 120", v)
	}
}

// TestPackWordBuffer records pack words and counts through the recorder
// itself, from every offset in a buffer small enough that the inlined
// PackWord meets a full buffer and takes its slow path, and checks what
// encode makes of them: equal words in a row are one event with their
// repeats, a count is never merged with the next one, and the blocks add
// up.
func TestPackWordBuffer(t *testing.T) {
	for off := range 8 {
		g := &G{id: 1, goid: 1}
		g.setBuf(make([]uint32, 8, 8+reserve))
		var want []byte
		var blocks uint64
		for range off {
			g.B(1)
			want = trace.AppendEvent(want, trace.Event{Kind: trace.EvBlock, Block: 1})
			blocks++
		}
		const codes = 0x1b1b_1b1b_1b1b_1b1b
		for range 3 {
			g.PackWord(2, codes, 32)
		}
		g.PackCount(3, 4, 70_000)
		g.PackCount(3, 4, 70_000)
		g.PackCount(3, 4, smallCount) // block events, as the probes would have written
		g.PackWord(2, 0b10_01, 2)
		for _, e := range []trace.Event{
			{Kind: trace.EvPack, Block: 2, Value: codes, Object: 32, Ordinal: 2},
			{Kind: trace.EvPack, Block: 3, Object: 70_000},
			{Kind: trace.EvPack, Block: 3, Object: 70_000},
			{Kind: trace.EvBlock, Block: 4},
			{Kind: trace.EvBlock, Block: 4},
			{Kind: trace.EvBlock, Block: 4},
			{Kind: trace.EvBlock, Block: 4},
			{Kind: trace.EvPack, Block: 2, Value: 0b10_01, Object: 2},
		} {
			want = trace.AppendEvent(want, e)
		}
		blocks += 3*32 + 2*70_000 + smallCount + 2
		var c trace.Chunk
		encode(g.buf[:g.n], &c, rawTimes())
		if !bytes.Equal(c.Body, want) || c.Events != uint64(off+4+smallCount) || c.Blocks != blocks {
			t.Fatalf("offset %d: %d events, %d blocks, body %x; want %d, %d, %x", off, c.Events, c.Blocks, c.Body, off+4+smallCount, blocks, want)
		}
	}
}
