package compare

import (
	"encoding/json"
	"io"
	"testing"
)

// TestChunkSize: chunks double from 8 to sectionChunk and stay there, at
// every chunk count a list can reach.
func TestChunkSize(t *testing.T) {
	want := []int{8, 16, 32, 64, 128, 128}
	for k, w := range want {
		if got := chunkSize(k); got != w {
			t.Errorf("chunkSize(%d) = %d, want %d", k, got, w)
		}
	}
	for _, k := range []int{59, 60, 61, 63, 64, 1000, 1 << 40} {
		if got := chunkSize(k); got != sectionChunk {
			t.Errorf("chunkSize(%d) = %d, want %d", k, got, sectionChunk)
		}
	}
}

// TestManySections: one goroutine pair of 100,000 divergent sections (every
// iteration of Figure 2's loop decides the other way, and one more runs on
// one side), nearly 800 chunks in one list, goes through the whole diff: the
// report, its text and its JSON.
func TestManySections(t *testing.T) {
	const iters = 100_000
	f := newFig2(t)
	a, b := &loopTrace{f: f, n: iters, every: 1}, &loopTrace{f: f, n: iters, side: 1, every: 1}
	rep := mustCompare(t, a, b)
	if want := iters + 1; len(rep.Sections) != want || rep.Summary.Sections != want {
		t.Fatalf("%d sections, summary %d; want %d", len(rep.Sections), rep.Summary.Sections, want)
	}
	if err := rep.WriteText(io.Discard, TextOptions{Sections: true}); err != nil {
		t.Fatal(err)
	}
	if err := json.NewEncoder(io.Discard).Encode(rep); err != nil {
		t.Fatal(err)
	}
}
