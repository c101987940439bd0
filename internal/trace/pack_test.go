package trace

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// packGraph is a function with two packed loops: head 2 with three probed
// blocks (4, 5, 7: codes 0, 1, 2 of two bits) and head 8 with one (9: a
// count).
func packGraph(t testing.TB) *tbb.Graph {
	t.Helper()
	pos := func(l int) tbb.Pos { return tbb.Pos{File: "main.go", Line: l} }
	g := &tbb.Graph{
		Module:   "example.com/m",
		Packages: []string{"example.com/m"},
		Funcs:    []*tbb.Func{{ID: 0, Name: "example.com/m.main", Pkg: "example.com/m", Pos: pos(3), Entry: 0, Blocks: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}},
		Blocks: []*tbb.Block{
			{ID: 0, Kind: "entry", Pos: pos(4), Probe: true, Instrs: 1, Succs: []int{1}},
			{ID: 1, Kind: "split", Pos: pos(5), Probe: true, Instrs: 1, Succs: []int{2}},
			{ID: 2, Kind: "for.loop", Pos: pos(6), Instrs: 1, Succs: []int{3, 6}},
			{ID: 3, Kind: "for.body", Pos: pos(7), Instrs: 1, Succs: []int{4, 5, 7}},
			{ID: 4, Kind: "switch.case", Pos: pos(8), Probe: true, Pack: 2, Instrs: 1, Succs: []int{2}},
			{ID: 5, Kind: "switch.case", Pos: pos(9), Probe: true, Pack: 2, Instrs: 1, Succs: []int{2}},
			{ID: 6, Kind: "for.done", Pos: pos(12), Probe: true, Instrs: 1, Succs: []int{8}},
			{ID: 7, Kind: "switch.case", Pos: pos(10), Probe: true, Pack: 2, Instrs: 1, Succs: []int{2}},
			{ID: 8, Kind: "for.loop", Pos: pos(13), Instrs: 1, Succs: []int{9, 10}},
			{ID: 9, Kind: "for.body", Pos: pos(14), Probe: true, Pack: 8, Instrs: 1, Succs: []int{8}},
			{ID: 10, Kind: "for.done", Pos: pos(16), Probe: true, Instrs: 1, Succs: []int{}, Exit: true},
		},
	}
	if _, err := tbb.Marshal(g); err != nil {
		t.Fatal(err)
	}
	return g
}

// packSample is a trace of packGraph with pack events of both loops, a
// seed for the fuzz targets.
func packSample(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	evs := []Event{
		{Kind: EvBlock, Block: 0}, {Kind: EvBlock, Block: 1},
		{Kind: EvPack, Block: 2, Object: 32, Value: 0x6464_6464_6464_6464}, // codes 1, 2, 1, 0, ... (no 3)
		{Kind: EvPack, Block: 2, Object: 3, Value: 0b10_01_00},
		{Kind: EvPack, Block: 2, Object: 2, Value: 0b10_01, Ordinal: 3}, // four times (version 4)
		{Kind: EvBlock, Block: 6}, {Kind: EvPack, Block: 8, Object: 1000}, {Kind: EvBlock, Block: 10},
		{Kind: EvExit, Block: 0},
	}
	if err := Encode(&buf, "packed", packGraph(t), []GoroutineEvents{{ID: 1, GoID: 1, Events: evs}}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPackedEvents: a pack event is read as the block events it stands
// for, in order, by EventIter and by EventReader whatever its buffer, also
// when block events are taken from Raw's bytes between batches; the
// chunk's blocks count them.
func TestPackedEvents(t *testing.T) {
	g := packGraph(t)
	if got := g.PackedLoops(); !reflect.DeepEqual(got, map[int][]int{2: {4, 5, 7}, 8: {9}}) {
		t.Fatalf("PackedLoops = %v", got)
	}
	// Codes 2, 0, 1, 1, 2 (blocks 7, 4, 5, 5, 7), the first highest.
	codes := uint64(2)<<8 | 0<<6 | 1<<4 | 1<<2 | 2
	c := &Chunk{G: 1, Final: true}
	for _, e := range []Event{
		{Kind: EvBlock, Block: 0},
		{Kind: EvBlock, Block: 1},
		{Kind: EvPack, Block: 2, Object: 5, Value: codes},
		{Kind: EvPack, Block: 2, Object: 1, Value: 0},
		{Kind: EvPack, Block: 2, Object: 2, Value: 1<<2 | 2, Ordinal: 2}, // 5, 7 three times
		{Kind: EvBlock, Block: 6},
		{Kind: EvPack, Block: 8, Object: 3, Ordinal: 1}, // 9 three times, twice
		{Kind: EvBlock, Block: 10},
		{Kind: EvExit, Block: 0},
	} {
		c.Add(e)
	}
	if c.Events != 9 || c.Blocks != 22 {
		t.Fatalf("chunk counts %d events, %d blocks; want 9 and 22", c.Events, c.Blocks)
	}
	var want []Event
	for _, b := range []uint32{0, 1, 7, 4, 5, 5, 7, 4, 5, 7, 5, 7, 5, 7, 6, 9, 9, 9, 9, 9, 9, 10} {
		want = append(want, Event{Kind: EvBlock, Block: b})
	}
	want = append(want, Event{Kind: EvExit, Block: 0})
	path := filepath.Join(t.TempDir(), "pack.dvt")
	writeRawChunkOf(t, path, g, c)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, err := readIter(r, 1); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("EventIter: %v, %v\nwant %v", got, err, want)
	}
	for _, n := range []int{1, 2, 3, 100} {
		if got, err := readBatches(r, 1, n); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("buffer %d: %v, %v\nwant %v", n, got, err, want)
		}
		for seed := range uint64(8) {
			if got, err := readMixed(r, 1, n, seed); err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("buffer %d, Raw between batches (seed %d): %v, %v\nwant %v", n, seed, got, err, want)
			}
		}
	}
	if gi, _ := r.Goroutine(1); gi.Blocks != 22 {
		t.Errorf("the index counts %d blocks, want 22", gi.Blocks)
	}
}

// TestPackErrors: a pack event the graph cannot explain is an error, met
// after the events before it.
func TestPackErrors(t *testing.T) {
	g := packGraph(t)
	good := []Event{{Kind: EvBlock, Block: 0}, {Kind: EvBlock, Block: 1}}
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		{"no such loop", AppendEvent(nil, Event{Kind: EvPack, Block: 4, Object: 1, Value: 1}), "heads no packed loop"},
		{"no codes", AppendEvent(nil, Event{Kind: EvPack, Block: 2, Object: 0}), "no codes"},
		{"more codes than a word", AppendEvent(nil, Event{Kind: EvPack, Block: 2, Object: 33, Value: 1}), "in a 64-bit word"},
		{"code out of range", AppendEvent(nil, Event{Kind: EvPack, Block: 2, Object: 2, Value: 3}), "code 3, the loop has 3 packed blocks"},
		{"codes past the used bits", AppendEvent(nil, Event{Kind: EvPack, Block: 2, Object: 1, Value: 1 << 2}), "use more than 2 bits"},
		{"codes for a count", AppendEvent(nil, Event{Kind: EvPack, Block: 8, Object: 2, Value: 1}), "one probed block"},
		{"a last byte 0", []byte{byte(EvPack)<<1 | 1, 2, 1, 2, 1, 0}, "the last zero"},
		{"codes longer than a word", []byte{byte(EvPack)<<1 | 1, 2, 1, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9}, "more than the 8 allowed"},
		{"unknown length flags", []byte{byte(EvPack)<<1 | 1, 2, 1, 0x21, 1}, "unknown flags"},
		{"repeated 0 times", []byte{byte(EvPack)<<1 | 1, 2, 1, PackRepeats | 1, 1, 0}, "repeated 0 times"},
		{"repeats cut short", []byte{byte(EvPack)<<1 | 1, 2, 1, PackRepeats | 1, 1}, "cut short"},
		{"repeats past 32 bits", []byte{byte(EvPack)<<1 | 1, 2, 1, PackRepeats | 1, 1, 0x80, 0x80, 0x80, 0x80, 0x10}, "does not fit 32 bits"},
		{"repeats of a bad word", AppendEvent(nil, Event{Kind: EvPack, Block: 2, Object: 1, Value: 3, Ordinal: 4}), "code 3, the loop has 3 packed blocks"},
		{"a count repeated past 64 bits", AppendEvent(nil, Event{Kind: EvPack, Block: 8, Object: 1 << 62, Ordinal: 4}), "overflow a count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Chunk{G: 1, Final: true}
			for _, e := range good {
				c.Add(e)
			}
			c.Body = append(c.Body, tc.body...)
			c.Events++
			path := filepath.Join(t.TempDir(), "bad.dvt")
			writeRawChunkOf(t, path, g, c)
			r, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := readIter(r, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if !reflect.DeepEqual(got, good) {
				t.Fatalf("events before the error %v, want %v", got, good)
			}
			for _, n := range []int{1, 100} {
				if got, berr := readBatches(r, 1, n); berr == nil || berr.Error() != err.Error() || !reflect.DeepEqual(got, good) {
					t.Fatalf("buffer %d: %v, %v; want %v, %v", n, got, berr, good, err)
				}
			}
		})
	}
}
