package trace

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
)

// TestWriteTentative checks that tentative chunks end a trace read after
// the writer stopped (a run that died), and are gone once the writer goes
// on and closes the trace.
func TestWriteTentative(t *testing.T) {
	g := testGraph(t)
	graph, err := tbb.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.dvt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := NewWriter(f, Header{Program: "p", Start: time.Unix(0, 0), Graph: graph, Hash: g.Hash})
	if err != nil {
		t.Fatal(err)
	}
	chunk := func(seq uint64, evs ...Event) *Chunk {
		c := &Chunk{G: 1, Seq: seq}
		for _, e := range evs {
			c.Add(e)
		}
		return c
	}
	if err := w.WriteChunk(chunk(0, Event{Kind: EvClock, Time: 1}, Event{Kind: EvBlock, Block: 0})); err != nil {
		t.Fatal(err)
	}
	blocked := Event{Kind: EvSync, Op: OpRecv, Site: 1, Object: 7, Waited: true, Blocked: true, Begin: 5, End: 9}
	for range 2 { // a second checkpoint replaces the first
		if err := w.WriteTentative([]*Chunk{chunk(1, Event{Kind: EvBlock, Block: 1}, blocked)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.WriteTentative([]*Chunk{chunk(2)}); err == nil {
		t.Error("a tentative chunk out of sequence was written")
	}

	// The run dies here: the reader sees the tentative chunk last.
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, r, 1)
	if len(got) == 4 {
		blocked.Block = got[3].Block // the file names the site; the reader maps it to its block
	}
	if !r.Truncated() || len(got) != 4 || got[3] != blocked {
		t.Errorf("after a checkpoint: truncated %v, events %+v; want the blocked recv last", r.Truncated(), got)
	}
	r.Close()

	// The run goes on: the tentative chunk is cut off.
	if err := w.WriteChunk(chunk(1, Event{Kind: EvBlock, Block: 2}, Event{Kind: EvClock, Time: 20})); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteTentative([]*Chunk{chunk(2, blocked)}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got = readAll(t, r, 1)
	if r.Truncated() || len(got) != 4 || got[2] != (Event{Kind: EvBlock, Block: 2}) {
		t.Errorf("closed trace: truncated %v, events %+v; want no tentative event", r.Truncated(), got)
	}
}
