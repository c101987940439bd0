package trace

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
)

// wideEvents has block ids of one, two and three varint bytes at the
// boundaries of the inline decoding, and every other kind of event between
// them.
func wideEvents() []Event {
	evs := []Event{{Kind: EvClock, Time: 5}}
	for _, id := range []uint32{0, 1, 63, 64, 65, 127, 128, 4095, 8191, 8192, 8193, wideBlocks - 1} {
		evs = append(evs,
			Event{Kind: EvBlock, Block: id},
			Event{Kind: EvOutcome, Value: uint64(id) * 3},
			Event{Kind: EvBlock, Block: id},
			Event{Kind: EvSync, Op: OpLock, Site: 5, Block: 4, Object: 0xc000, Waited: true, Begin: 7, End: 9},
			Event{Kind: EvSpawn, Site: 1, Block: 1, Ordinal: 2, Child: 9},
			Event{Kind: EvExit, Block: id},
		)
	}
	for i := range 3000 {
		evs = append(evs, Event{Kind: EvBlock, Block: uint32(i * 7 % 9000)})
	}
	return append(evs, Event{Kind: EvClock, Time: 50})
}

// wideBlocks is how many blocks wideGraph has: enough for block ids of
// three varint bytes (from 8192). Wider ids are checked by the encoding's
// own tests: a reader refuses a block the graph does not have.
const wideBlocks = 9000

// wideGraph is testGraph with blocks up to wideBlocks, for wideEvents.
func wideGraph(t testing.TB) *tbb.Graph {
	g := testGraph(t)
	for id := len(g.Blocks); id < wideBlocks; id++ {
		g.Blocks = append(g.Blocks, &tbb.Block{ID: id, Func: 1, Kind: "if.then", Pos: tbb.Pos{File: "main.go", Line: 14}, Probe: true, Instrs: 1, Succs: []int{}, Exit: true})
		g.Funcs[1].Blocks = append(g.Funcs[1].Blocks, id)
	}
	if _, err := tbb.Marshal(g); err != nil {
		t.Fatal(err)
	}
	return g
}

// readBatches reads a whole stream with ReadEvents and a buffer of size n.
func readBatches(r *Reader, id uint64, n int) ([]Event, error) {
	er, err := r.EventReader(id)
	if err != nil {
		return nil, err
	}
	var out []Event
	buf := make([]Event, n)
	for {
		k, err := er.ReadEvents(buf)
		if k < 0 || k > n {
			return out, errors.New("ReadEvents returned a count outside the buffer")
		}
		out = append(out, buf[:k]...)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return out, err
		}
		if k == 0 {
			return out, errors.New("ReadEvents returned no events and no error")
		}
	}
}

// readMixed reads a whole stream taking block events straight from Raw's
// bytes (up to a few each time, by the seed) and the rest with ReadEvents
// in batches of size n, as compare's lockstep does.
func readMixed(r *Reader, id uint64, n int, seed uint64) ([]Event, error) {
	er, err := r.EventReader(id)
	if err != nil {
		return nil, err
	}
	var out []Event
	buf := make([]Event, n)
	for {
		seed = seed*6364136223846793005 + 1442695040888963407
		if seed>>62 != 0 {
			b, left := er.Raw()
			want := int(seed>>40) % 50
			off, k := 0, uint64(0)
			// The raw bytes are not checked: as compare's lockstep does,
			// a block the graph does not have is left to ReadEvents.
			nblocks := uint32(len(r.Graph().Blocks))
			for k < left && want > 0 && off < len(b) {
				c0 := b[off]
				switch {
				case c0&0x81 == 0 && uint32(c0>>1) < nblocks:
					out = append(out, Event{Kind: EvBlock, Block: uint32(c0 >> 1)})
					off++
				case c0&0x81 == 0x80 && off+1 < len(b) && b[off+1] < 0x80 && (uint32(c0&0x7f)>>1|uint32(b[off+1])<<6) < nblocks:
					out = append(out, Event{Kind: EvBlock, Block: uint32(c0&0x7f)>>1 | uint32(b[off+1])<<6})
					off += 2
				default:
					want = 0
					continue
				}
				k++
				want--
			}
			er.Skip(off, k, k)
			if k > 0 {
				continue
			}
		}
		k, err := er.ReadEvents(buf)
		out = append(out, buf[:k]...)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return out, err
		}
	}
}

// readIter reads a whole stream with EventIter.
func readIter(r *Reader, id uint64) ([]Event, error) {
	it, err := r.Events(id)
	if err != nil {
		return nil, err
	}
	var out []Event
	for it.Next() {
		out = append(out, it.Event())
	}
	return out, it.Err()
}

func TestEventReaderReadsWhatWasWritten(t *testing.T) {
	gs := append(sample(), GoroutineEvents{ID: 4, Parent: 1, Site: 1, Ordinal: 3, Events: wideEvents()})
	var file bytes.Buffer
	if err := Encode(&file, "wide", wideGraph(t), gs); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		for _, n := range []int{1, 2, 7, 999, 1000, 1001, 4096} {
			got, err := readBatches(r, g.ID, n)
			if err != nil {
				t.Fatalf("goroutine %d, buffer %d: %v", g.ID, n, err)
			}
			if !reflect.DeepEqual(got, g.Events) {
				t.Fatalf("goroutine %d, buffer %d: %d events differ from the %d written", g.ID, n, len(got), len(g.Events))
			}
			got, err = readMixed(r, g.ID, n, uint64(n))
			if err != nil {
				t.Fatalf("goroutine %d, buffer %d, block events from Raw: %v", g.ID, n, err)
			}
			if !reflect.DeepEqual(got, g.Events) {
				t.Fatalf("goroutine %d, buffer %d, block events from Raw: %d events differ from the %d written", g.ID, n, len(got), len(g.Events))
			}
		}
	}
	if _, err := r.EventReader(99); err == nil {
		t.Error("EventReader of a missing goroutine: no error")
	}
}

// TestEventReaderEOFWithLastEvents: a buffer that holds the whole rest of the
// stream comes back with io.EOF, so that readers need no extra call.
func TestEventReaderEOFWithLastEvents(t *testing.T) {
	r, err := NewReader(bytes.NewReader(writeSample(t)), int64(len(writeSample(t))))
	if err != nil {
		t.Fatal(err)
	}
	er, err := r.EventReader(1)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]Event, 100)
	n, err := er.ReadEvents(buf)
	if n != len(sample()[0].Events) || !errors.Is(err, io.EOF) {
		t.Fatalf("ReadEvents = %d, %v; want %d, io.EOF", n, err, len(sample()[0].Events))
	}
	if n, err := er.ReadEvents(buf); n != 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("after the end: %d, %v; want 0, io.EOF", n, err)
	}
}

// TestEventReaderErrors: a corrupt event stops the stream after the good
// events before it, with the error EventIter gives, and the error sticks.
func TestEventReaderErrors(t *testing.T) {
	good := []Event{{Kind: EvBlock, Block: 1}, {Kind: EvBlock, Block: 4}, {Kind: EvOutcome, Value: 3}}
	var body []byte
	for _, e := range good {
		body = AppendEvent(body, e)
	}
	for _, tc := range []struct {
		name   string
		body   []byte
		events uint64
	}{
		{"unknown kind", append(body[:len(body):len(body)], 9<<1|1), 4},
		{"cut short", append(body[:len(body):len(body)], 0x80), 4},
		{"bytes after the last event", append(body[:len(body):len(body)], 2), 3},
		{"bad sync op", append(body[:len(body):len(body)], byte(EvSync)<<1|1, 0, 0, 2, 3, 4), 4},
		// Blocks the graph does not have, at each width of the inline
		// decoding and past it, and an exit at one.
		{"block of one byte not in the graph", AppendEvent(body[:len(body):len(body)], Event{Kind: EvBlock, Block: 5}), 4},
		{"block of two bytes not in the graph", AppendEvent(body[:len(body):len(body)], Event{Kind: EvBlock, Block: 200}), 4},
		{"block of three bytes not in the graph", AppendEvent(body[:len(body):len(body)], Event{Kind: EvBlock, Block: 9000}), 4},
		{"exit not in the graph", AppendEvent(body[:len(body):len(body)], Event{Kind: EvExit, Block: 5}), 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.dvt")
			writeRawChunk(t, path, &Chunk{G: 1, Final: true, Events: tc.events, Body: tc.body})
			r, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			want, werr := readIter(r, 1)
			if werr == nil {
				t.Fatal("EventIter met no error")
			}
			for _, n := range []int{1, 2, 100} {
				got, err := readBatches(r, 1, n)
				if err == nil || err.Error() != werr.Error() {
					t.Fatalf("buffer %d: error %v, want %v", n, err, werr)
				}
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(got, good) {
					t.Fatalf("buffer %d: events before the error %v, want %v", n, got, want)
				}
				for seed := range uint64(8) {
					got, err := readMixed(r, 1, n, seed)
					if err == nil || err.Error() != werr.Error() || !reflect.DeepEqual(got, good) {
						t.Fatalf("buffer %d, block events from Raw (seed %d): %v, %v; want %v, %v", n, seed, got, err, good, werr)
					}
				}
			}
			er, _ := r.EventReader(1)
			buf := make([]Event, 100)
			if _, err := er.ReadEvents(buf); err == nil {
				t.Fatal("no error")
			}
			if n, err := er.ReadEvents(buf); n != 0 || err == nil || err.Error() != werr.Error() {
				t.Fatalf("second call: %d, %v; want 0 and the same error", n, err)
			}
		})
	}
}

// writeRawChunk writes a trace of testGraph holding one chunk as given.
func writeRawChunk(t *testing.T, path string, c *Chunk) {
	t.Helper()
	writeRawChunkOf(t, path, testGraph(t), c)
}

// writeRawChunkOf writes a trace of g holding one chunk as given.
func writeRawChunkOf(t *testing.T, path string, g *tbb.Graph, c *Chunk) {
	t.Helper()
	data, err := tbb.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	w, err := NewWriter(&file, Header{Program: "bad", Start: time.Unix(0, 0), Graph: data, Hash: g.Hash})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteChunk(c); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, file.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
}

// FuzzEventReader feeds arbitrary bytes to the reader: for every goroutine,
// ReadEvents must give exactly the events and the error EventIter gives,
// whatever the buffer size, also with block events taken from Raw's bytes
// between the batches. Seeds: testdata/fuzz/FuzzEventReader (real
// traces written by the runtime, as for FuzzReader).
func FuzzEventReader(f *testing.F) {
	f.Add(writeSample(f), uint8(7))
	f.Add(packSample(f), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for _, gi := range r.Goroutines() {
			want, werr := readIter(r, gi.ID)
			got, err := readBatches(r, gi.ID, 1+int(size))
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("goroutine %d: error %v, EventIter says %v", gi.ID, err, werr)
			}
			if len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
				t.Fatalf("goroutine %d: %d events, EventIter reads %d (or they differ)", gi.ID, len(got), len(want))
			}
			got, err = readMixed(r, gi.ID, 1+int(size), uint64(size))
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("goroutine %d, block events from Raw: error %v, EventIter says %v", gi.ID, err, werr)
			}
			if len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
				t.Fatalf("goroutine %d, block events from Raw: %d events, EventIter reads %d (or they differ)", gi.ID, len(got), len(want))
			}
		}
	})
}

// BenchmarkReadEvents reads a stream of 1M events, mostly blocks with one-
// and two-byte ids, event by event with EventIter and in batches with
// EventReader: ns/event of each.
func BenchmarkReadEvents(b *testing.B) {
	evs := make([]Event, 0, 1<<20)
	for i := 0; len(evs) < cap(evs); i++ {
		evs = append(evs, Event{Kind: EvBlock, Block: uint32(i % 50)}, Event{Kind: EvBlock, Block: uint32(100 + i%3000)})
		if i%100 == 0 {
			evs = append(evs, Event{Kind: EvOutcome, Value: uint64(i)})
		}
	}
	var file bytes.Buffer
	if err := Encode(&file, "bench", wideGraph(b), []GoroutineEvents{{ID: 1, Events: evs}}); err != nil {
		b.Fatal(err)
	}
	r, err := NewReader(bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		b.Fatal(err)
	}
	perEvent := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(evs)), "ns/event")
	}
	b.Run("iter", func(b *testing.B) {
		for b.Loop() {
			it, _ := r.Events(1)
			n := 0
			for it.Next() {
				n++
			}
			if it.Err() != nil || n != len(evs) {
				b.Fatalf("%d events, %v", n, it.Err())
			}
		}
		perEvent(b)
	})
	b.Run("batch", func(b *testing.B) {
		buf := make([]Event, 4096)
		for b.Loop() {
			er, _ := r.EventReader(1)
			total := 0
			for {
				n, err := er.ReadEvents(buf)
				total += n
				if err != nil {
					if !errors.Is(err, io.EOF) || total != len(evs) {
						b.Fatalf("%d events, %v", total, err)
					}
					break
				}
			}
		}
		perEvent(b)
	})
}
