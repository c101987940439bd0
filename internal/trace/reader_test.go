package trace

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// sample is main spawning two workers; the second worker has enough events
// for three chunks.
func sample() []GoroutineEvents {
	var long []Event
	long = append(long, Event{Kind: EvClock, Time: 20}, Event{Kind: EvBlock, Block: 3})
	for i := 0; i < 2500; i++ {
		long = append(long, Event{Kind: EvBlock, Block: 4})
	}
	long = append(long, Event{Kind: EvExit, Block: 3}, Event{Kind: EvClock, Time: 900})
	return []GoroutineEvents{
		{ID: 1, Events: []Event{
			{Kind: EvClock, Time: 0},
			{Kind: EvBlock, Block: 0},
			{Kind: EvBlock, Block: 1},
			{Kind: EvSpawn, Site: 1, Block: 1, Ordinal: 1, Child: 2},
			{Kind: EvBlock, Block: 1},
			{Kind: EvSpawn, Site: 1, Block: 1, Ordinal: 2, Child: 3},
			{Kind: EvBlock, Block: 2},
			{Kind: EvSync, Op: OpWGWait, Site: 2, Block: 2, Object: 0xc0001, Waited: true, Begin: 30, End: 950},
			{Kind: EvExit, Block: 0},
			{Kind: EvClock, Time: 1000},
		}},
		{ID: 2, Parent: 1, Site: 1, Ordinal: 1, Events: []Event{
			{Kind: EvClock, Time: 10},
			{Kind: EvBlock, Block: 3},
			{Kind: EvOutcome, Value: 42},
			{Kind: EvSync, Op: OpWGDone, Site: 0, Block: 3, Object: 0xc0001, End: 15},
			{Kind: EvExit, Block: 3},
			{Kind: EvClock, Time: 16},
		}},
		{ID: 3, Parent: 1, Site: 1, Ordinal: 2, Events: long},
	}
}

func writeSample(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Encode(&buf, "sample", testGraph(t), sample()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readAll(t *testing.T, r *Reader, id uint64) []Event {
	t.Helper()
	it, err := r.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	var out []Event
	for it.Next() {
		out = append(out, it.Event())
	}
	if err := it.Err(); err != nil {
		t.Fatalf("goroutine %d: %v", id, err)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.dvt")
	if err := WriteFile(path, testGraph(t), sample()); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Truncated() {
		t.Error("complete trace reported truncated")
	}
	if r.Program() != "synthetic" || r.Version() != Version {
		t.Errorf("program %q version %d", r.Program(), r.Version())
	}
	if r.Graph().Hash != testGraph(t).Hash {
		t.Errorf("graph hash %s", r.Graph().Hash)
	}
	want := sample()
	gs := r.Goroutines()
	if len(gs) != len(want) {
		t.Fatalf("%d goroutines, want %d", len(gs), len(want))
	}
	paths := []string{"main", "main/worker@main.go:7#1", "main/worker@main.go:7#2"}
	for i, gi := range gs {
		w := want[i]
		if gi.ID != w.ID || gi.Parent != w.Parent || gi.Site != w.Site || gi.Ordinal != w.Ordinal {
			t.Errorf("goroutine %d: info %+v", i, gi)
		}
		if gi.Path != paths[i] {
			t.Errorf("goroutine %d: path %q, want %q", gi.ID, gi.Path, paths[i])
		}
		if !gi.Ended || gi.Start != w.Events[0].Time || gi.End != w.Events[len(w.Events)-1].Time {
			t.Errorf("goroutine %d: span %d..%d ended %v", gi.ID, gi.Start, gi.End, gi.Ended)
		}
		if gi.Events != uint64(len(w.Events)) {
			t.Errorf("goroutine %d: %d events, want %d", gi.ID, gi.Events, len(w.Events))
		}
		got := readAll(t, r, gi.ID)
		if !reflect.DeepEqual(got, w.Events) {
			t.Errorf("goroutine %d: events differ: got %d, want %d", gi.ID, len(got), len(w.Events))
		}
	}
	if gs[2].Chunks != 3 || gs[2].Blocks != 2501 {
		t.Errorf("long goroutine: %d chunks, %d blocks; want 3, 2501", gs[2].Chunks, gs[2].Blocks)
	}
	if gs[0].Waits != 1 || gs[1].Waits != 0 {
		t.Errorf("waits %d, %d; want 1, 0", gs[0].Waits, gs[1].Waits)
	}
	if _, err := r.Events(99); err == nil {
		t.Error("Events of a missing goroutine: no error")
	}
}

// TestTruncated cuts the file at every length: each cut inside the data
// must read as truncated, with exactly the whole chunks before the cut.
func TestTruncated(t *testing.T) {
	full := writeSample(t)
	complete, err := NewReader(bytes.NewReader(full), int64(len(full)))
	if err != nil {
		t.Fatal(err)
	}
	var all [][]Event
	for _, gi := range complete.Goroutines() {
		all = append(all, readAll(t, complete, gi.ID))
	}
	// Every cut near a chunk boundary or in the index, a stride elsewhere:
	// the long goroutine's chunks are kilobytes of one-byte events.
	near := map[int]bool{}
	for _, e := range complete.gs {
		for _, off := range e.offsets {
			for d := -3; d <= 3; d++ {
				near[int(off)+d] = true
			}
		}
	}
	for cut := int(complete.dataStart); cut < len(full); cut++ {
		if !near[cut] && cut < int(complete.dataEnd)-3 && cut%37 != 0 {
			continue
		}
		r, err := NewReader(bytes.NewReader(full[:cut]), int64(cut))
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if !r.Truncated() {
			t.Fatalf("cut at %d: not reported truncated", cut)
		}
		if r.dataEnd > int64(cut) {
			t.Fatalf("cut at %d: data end %d", cut, r.dataEnd)
		}
		for i, gi := range r.Goroutines() {
			got := readAll(t, r, gi.ID)
			if uint64(len(got)) != gi.Events || !reflect.DeepEqual(got, all[i][:len(got)]) {
				t.Fatalf("cut at %d: goroutine %d: %d events, not a prefix of the full stream", cut, gi.ID, len(got))
			}
		}
		if cut == int(complete.dataEnd) {
			// Every chunk is whole: only the index is missing.
			for i, gi := range r.Goroutines() {
				if gi.Events != uint64(len(all[i])) || gi.Path != complete.Goroutines()[i].Path {
					t.Errorf("cut before the index: goroutine %d has %d events, path %q", gi.ID, gi.Events, gi.Path)
				}
			}
		}
	}
}

func TestOpenErrors(t *testing.T) {
	full := writeSample(t)
	newer := append([]byte(Magic), binary.AppendUvarint(nil, Version+1)...)
	newer = append(newer, full[len(newer):]...)
	older := append([]byte(Magic), binary.AppendUvarint(nil, 1)...)
	older = append(older, full[len(older):]...)
	badHash := bytes.Replace(full, []byte(testGraph(t).Hash), []byte(strings.Repeat("0", len(testGraph(t).Hash))), 1)
	badTrailer := bytes.Clone(full)
	binary.LittleEndian.PutUint64(badTrailer[len(full)-trailerSize:], 1)
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "empty file"},
		{"not a trace", []byte("hello, world, this is text"), "not a divergo trace"},
		{"magic cut", []byte("DVGTR"), "cut short"},
		{"header cut", full[:30], "cut short"},
		{"newer version", newer, "newer than this divergo reads"},
		{"version 1", older, "format version 1 is older than this divergo reads (2): record the run again"},
		{"bad hash", badHash, "hash"},
		{"bad trailer", badTrailer, "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewReader(bytes.NewReader(tt.in), int64(len(tt.in)))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.dvt")); err == nil || !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

// TestSites: spawn and sync events are written with their site and read
// back with the block that holds it, and a goroutine is named after its go
// statement's own line, not its block's first line.
func TestSites(t *testing.T) {
	r, err := NewReader(bytes.NewReader(writeSample(t)), int64(len(writeSample(t))))
	if err != nil {
		t.Fatal(err)
	}
	evs, err := readIter(r, 2)
	if err != nil {
		t.Fatal(err)
	}
	if e := evs[3]; e.Kind != EvSync || e.Site != 0 || e.Block != 3 {
		t.Errorf("wg.done read as %+v, want site 0 in block 3", e)
	}
	gi, _ := r.Goroutine(2)
	if gi.Site != 1 || gi.SiteBlock != 1 || gi.Path != "main/worker@main.go:7#1" {
		t.Errorf("goroutine 2: site %d in block %d, path %q", gi.Site, gi.SiteBlock, gi.Path)
	}
	g := r.Graph()
	if got := SiteName(g, 2); got != "main.go:10" {
		t.Errorf("SiteName(2) = %q, want the wg.wait's own line main.go:10", got)
	}
	if got := SiteName(g, 9); got != "site9" {
		t.Errorf("SiteName(9) = %q", got)
	}
	if got := SitePos(g, 2, 2).FileLine(); got != "main.go:10" {
		t.Errorf("SitePos(2, 2) = %s", got)
	}
	// A site that is not the event's block's (an event made by hand): the
	// block's position.
	if got := SitePos(g, 0, 2).FileLine(); got != "main.go:9" {
		t.Errorf("SitePos(0, 2) = %s", got)
	}
}

// TestSiteOutOfRange: a sync event or a goroutine naming a site the graph
// does not have is a one-line error.
func TestSiteOutOfRange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.dvt")
	body := AppendEvent(nil, Event{Kind: EvSync, Op: OpLock, Site: 6, End: 1})
	writeRawChunk(t, path, &Chunk{G: 1, Final: true, Events: 1, Body: body})
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = readIter(r, 1)
	if err == nil || !strings.Contains(err.Error(), "sync event: site 6 out of range (the graph has 6 sites)") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %v", err)
	}
	writeRawChunk(t, path, &Chunk{G: 2, Final: true, Origin: Origin{Parent: 1, Site: 6, Ordinal: 1}})
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "goroutine 2: spawn site 6 out of range (the graph has 6 sites)") {
		t.Errorf("error %v", err)
	}
}

func TestWriterSequence(t *testing.T) {
	var buf bytes.Buffer
	g := testGraph(t)
	data, _ := tbb.Marshal(g)
	w, err := NewWriter(&buf, Header{Program: "p", Graph: data, Hash: g.Hash})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteChunk(&Chunk{G: 1, Seq: 1}); err == nil {
		t.Error("chunk 1 before chunk 0: no error")
	}
	if err := w.WriteChunk(&Chunk{G: 1, Seq: 0, Final: true}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteChunk(&Chunk{G: 1, Seq: 1}); err == nil {
		t.Error("chunk after the final one: no error")
	}
}
