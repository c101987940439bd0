package compare

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// eventsFrom decodes arbitrary bytes into events on a graph of n blocks:
// mostly valid block ids, some out of range, every kind.
func eventsFrom(data []byte, n int) []trace.Event {
	var evs []trace.Event
	for i := 0; i+1 < len(data); i += 2 {
		k, v := data[i], data[i+1]
		id := uint32(v) % uint32(n+2)
		switch k % 8 {
		case 0, 1, 2:
			evs = append(evs, blk(int(id)))
		case 3:
			evs = append(evs, ret(int(id)))
		case 4:
			evs = append(evs, out(uint64(v%3)))
		case 5:
			evs = append(evs, spawn(int(id), uint64(v), uint32(v%2)))
		case 6:
			evs = append(evs, trace.Event{Kind: trace.EvSync, Block: id, Op: trace.Op(v % 18), End: int64(v)})
		case 7:
			evs = append(evs, clock(int64(v)))
		}
	}
	return evs
}

// FuzzCompare: whatever the streams hold, Traces returns a report or a
// one-line error, and never panics or loops; lockstep changes nothing.
func FuzzCompare(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 4, 1, 0, 2, 0, 5, 3, 0}, []byte{0, 0, 0, 1, 4, 2, 0, 2, 0, 4, 3, 0})
	f.Add([]byte{0, 8, 0, 9, 0, 10, 0, 13}, []byte{0, 8, 0, 9, 0, 11, 0, 10, 0, 13})
	fig := newFig1(f)
	n := len(fig.g.Blocks)
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ta := newMem(fig.g).add(1, 0, 0, 0, eventsFrom(a, n)...)
		tb := newMem(fig.g).add(1, 0, 0, 0, eventsFrom(b, n)...)
		rep := bothWays(t, "fuzz", ta, tb)
		if rep == nil {
			return
		}
		if rep.Distance < 0 {
			t.Fatalf("negative distance %v", rep.Distance)
		}
		self, err := Traces(ta, ta, Options{Weights: DefaultWeights})
		if err == nil && !self.Summary.Same {
			t.Fatalf("a trace differs from itself: %+v", self.Sections)
		}
	})
}

// FuzzCompareFiles: two trace files whose one chunk holds arbitrary bytes
// (for events, mostly one-byte blocks, which lockstep takes as bytes),
// each body repeated 1+reps times, so that a divergence found once recurs
// thousands of times in one goroutine pair: Traces returns a report or a
// one-line error, the same with lockstep as with tokens only, and never
// panics.
func FuzzCompareFiles(f *testing.F) {
	f.Add([]byte{2, 2, 4, 7, 1, 6, 2, 8}, []byte{2, 2, 4, 7, 2, 6, 2, 8}, uint8(8), uint8(8), uint16(0))
	f.Add([]byte{2, 4, 6, 2, 4, 6, 13, 9, 2}, []byte{2, 4, 6, 2, 4, 6, 2}, uint8(9), uint8(7), uint16(0))
	fig := newFig1(f)
	// task0 called 10,000 times, taking the then branch in a and the else
	// branch in b: a list of 10,000 sections, past the 60 chunks at which
	// its chunk size once overflowed.
	a, na := fig.task0Body(fig.tThen)
	b, nb := fig.task0Body(fig.tElse)
	f.Add(a, b, na, nb, uint16(9999))
	data, err := tbb.Marshal(fig.g)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, a, b []byte, na, nb uint8, reps uint16) {
		dir := t.TempDir()
		open := func(name string, body []byte, n uint8) Trace {
			// At most 128 KB a body, so that every input stays quick.
			times := min(1+int(reps), (128<<10)/max(len(body), 1))
			var file bytes.Buffer
			w, err := trace.NewWriter(&file, trace.Header{Program: "fuzz", Start: time.Unix(0, 0), Graph: data, Hash: fig.g.Hash})
			if err != nil {
				t.Fatal(err)
			}
			c := &trace.Chunk{G: 1, Final: true, Events: uint64(min(int(n), len(body)) * times), Body: bytes.Repeat(body, times)}
			if err := w.WriteChunk(c); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, file.Bytes(), 0o666); err != nil {
				t.Fatal(err)
			}
			r, err := trace.Open(path)
			if err != nil {
				return nil
			}
			t.Cleanup(func() { r.Close() })
			return FromReader(r)
		}
		ta, tb := open("a.dvt", a, na), open("b.dvt", b, nb)
		if ta == nil || tb == nil {
			return
		}
		bothWays(t, "fuzz files", ta, tb)
	})
}

// task0Body is one call of Figure 1's task0 taking branch (tThen or
// tElse), encoded as a chunk body, and its number of events.
func (f *fig1) task0Body(branch int) ([]byte, uint8) {
	evs := []trace.Event{blk(f.t0), out(1), blk(f.t1), blk(branch), blk(f.tEnd), ret(f.t0)}
	var body []byte
	for _, e := range evs {
		body = trace.AppendEvent(body, e)
	}
	return body, uint8(len(evs))
}
