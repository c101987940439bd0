package trace

import (
	"bytes"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// TestTestRoots writes the goroutines of a test binary (two test roots, a
// goroutine one of them spawned, a test cut short) and reads them back
// complete and cut before the index: names, results and paths.
func TestTestRoots(t *testing.T) {
	g := testGraph(t)
	data, _ := tbb.Marshal(g)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Program: "p.test", Graph: data, Hash: g.Hash})
	if err != nil {
		t.Fatal(err)
	}
	block := func(b uint32) *Chunk {
		c := &Chunk{}
		c.Add(Event{Kind: EvBlock, Block: b})
		return c
	}
	chunks := []*Chunk{
		{G: 2, Origin: Origin{Test: "TestPool/size=4", FirstBlock: 0, HasFirst: true}, Final: true, End: 50, Result: TestFail},
		{G: 3, Origin: Origin{Parent: 2, Site: 1, Ordinal: 1, FirstBlock: 3, HasFirst: true}, Final: true, End: 40},
		{G: 4, Origin: Origin{Test: "TestSkipped", FirstBlock: 0, HasFirst: true}, Final: true, End: 60, Result: TestSkip},
		{G: 5, Origin: Origin{Test: "TestHang", FirstBlock: 0, HasFirst: true}},
	}
	for _, c := range chunks {
		first := c.Origin.FirstBlock
		b := block(first)
		b.G, b.Origin, b.Final, b.End, b.Result = c.G, c.Origin, c.Final, c.End, c.Result
		if err := w.WriteChunk(b); err != nil {
			t.Fatal(err)
		}
	}
	whole := buf.Len()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := "TestHang unfinished\nTestPool/size=4 fail\nTestPool/size=4 > worker@main.go:7#1 \nTestSkipped skip\n"
	for _, tc := range []struct {
		name string
		data []byte
	}{{"complete", buf.Bytes()}, {"cut short", buf.Bytes()[:whole]}} {
		r, err := NewReader(bytes.NewReader(tc.data), int64(len(tc.data)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var b strings.Builder
		for _, gi := range r.Sorted() {
			res := ""
			if gi.Test != "" {
				res = gi.Result.String()
			}
			b.WriteString(gi.Path + " " + res + "\n")
		}
		if b.String() != want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, b.String(), want)
		}
	}
}
