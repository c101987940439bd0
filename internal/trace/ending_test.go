package trace

import (
	"bytes"
	"encoding/binary"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
)

// endingTrace writes a trace of one goroutine whose run ended as e.
func endingTrace(t *testing.T, e *Ending) []byte {
	t.Helper()
	var buf bytes.Buffer
	graph := testGraph(t)
	gb, err := tbb.Marshal(graph)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWriter(&buf, Header{Program: "p", Start: time.Unix(0, 0), Graph: gb, Hash: graph.Hash})
	if err != nil {
		t.Fatal(err)
	}
	c := Chunk{G: 1, Final: true}
	c.Add(Event{Kind: EvBlock, Block: 0})
	if err := w.WriteChunk(&c); err != nil {
		t.Fatal(err)
	}
	if e != nil {
		w.SetEnding(*e)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestEnding checks that the run's ending round-trips through the index,
// that a trace without an index says it has no end, and that a version 6
// trace (which has no ending) reads as unknown.
func TestEnding(t *testing.T) {
	for _, e := range []Ending{
		{Kind: EndReturn, G: 1},
		{Kind: EndExit, Code: 3, G: 5},
		{Kind: EndPanic, Code: 2, G: 7},
		{Kind: EndFatal, Code: 2, Message: "fatal error: concurrent map writes"},
		{Kind: EndTimeout, Code: 2},
		{Kind: EndKilled},
	} {
		data := endingTrace(t, &e)
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Ending(); got != e {
			t.Errorf("wrote %+v, read %+v", e, got)
		}
		// Cut before the index: no end.
		r, err = NewReader(bytes.NewReader(data[:len(data)-trailerSize-1]), int64(len(data)-trailerSize-1))
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Ending(); got.Kind != EndNone {
			t.Errorf("truncated: ending %v, want none", got)
		}
	}
	data := endingTrace(t, nil)
	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil || r.Ending().Kind != EndUnknown {
		t.Errorf("no ending set: %v %v, want unknown", r.Ending(), err)
	}
	// Version 6: the same bytes, read without the ending.
	data = endingTrace(t, &Ending{Kind: EndExit, Code: 1})
	data[len(Magic)] = 6
	if binary.AppendUvarint(nil, Version)[0] != 7 {
		t.Fatal("the version is not one byte")
	}
	r, err = NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Ending(); got.Kind != EndUnknown {
		t.Errorf("version 6: ending %v, want unknown", got)
	}
}
