package trace

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
)

// A chunk whose body sits in a frame is written byte for byte like the
// same chunk without one, and the frame's own bytes before the header are
// left alone.
func TestWriteChunkFramed(t *testing.T) {
	g := testGraph(t)
	data, _ := tbb.Marshal(g)
	h := Header{Program: "p", Start: time.Unix(1, 0), Graph: data, Hash: g.Hash}
	var body []byte
	for i := range 300 {
		body = AppendEvent(body, Event{Kind: EvBlock, Block: uint32(i % 7)})
	}
	chunks := func(framed bool) []byte {
		var out bytes.Buffer
		w, err := NewWriter(&out, h)
		if err != nil {
			t.Fatal(err)
		}
		for seq := range uint64(3) {
			c := &Chunk{G: 1<<40 + 7, Seq: seq, Events: 300, Blocks: 300, Body: body, Final: seq == 2, End: -1 << 50,
				Origin: Origin{GoID: 1 << 62, Parent: 1 << 61, Site: 1<<32 - 1, Ordinal: 1<<32 - 1, FirstBlock: 1<<32 - 1, HasFirst: true, Start: -1 << 60}}
			if framed {
				frame := append(bytes.Repeat([]byte{0xee}, ChunkHeadroom), body...)
				c.Frame, c.Body = frame, frame[ChunkHeadroom:]
			}
			if err := w.WriteChunk(c); err != nil {
				t.Fatal(err)
			}
			if framed && (c.Frame[0] != 0xee || c.Frame[ChunkHeadroom-1] == 0xee) {
				t.Errorf("chunk %d: the header is not in the room just before the body", seq)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	plain, framed := chunks(false), chunks(true)
	if !bytes.Equal(plain, framed) {
		t.Fatalf("framed chunks differ: %d bytes against %d", len(framed), len(plain))
	}
	// The file reads back to its last check: the extreme spawn site, there
	// to make the header as long as it can be, is beyond the graph's sites.
	if _, err := NewReader(bytes.NewReader(framed), int64(len(framed))); err == nil || !strings.Contains(err.Error(), "spawn site 4294967295 out of range") {
		t.Fatalf("reading the framed chunks: %v, want the site out of range", err)
	}
}
