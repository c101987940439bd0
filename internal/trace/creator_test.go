package trace

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// creatorGraph is testGraph with a function literal of main's, at line 20,
// whose entry is block 5.
func creatorGraph(t testing.TB) *tbb.Graph {
	g := testGraph(t)
	g.Funcs = append(g.Funcs, &tbb.Func{ID: 2, Name: "example.com/m.main$1", Pkg: "example.com/m", Pos: tbb.Pos{File: "main.go", Line: 20}, Entry: 5, Blocks: []int{5}})
	g.Blocks = append(g.Blocks, &tbb.Block{ID: 5, Func: 2, Kind: "entry", Pos: tbb.Pos{File: "main.go", Line: 21}, Probe: true, Instrs: 2, Succs: []int{}, Exit: true})
	if _, err := tbb.Marshal(g); err != nil {
		t.Fatal(err)
	}
	return g
}

// creatorSample is a trace of goroutines that code divergo did not
// instrument started: two handlers of net/http's, one of errgroup's running
// a function literal, one of a library's, and one of a trace that does not
// know its creator.
func creatorSample(t testing.TB) []byte {
	t.Helper()
	run := func(start int64, block uint32) []Event {
		return []Event{{Kind: EvClock, Time: start}, {Kind: EvBlock, Block: block}, {Kind: EvExit, Block: block}, {Kind: EvClock, Time: start + 5}}
	}
	gs := []GoroutineEvents{
		{ID: 1, Events: []Event{{Kind: EvClock, Time: 0}, {Kind: EvBlock, Block: 0}, {Kind: EvExit, Block: 0}, {Kind: EvClock, Time: 100}}},
		// Created first (the Go runtime's lower id), started second; its
		// goroutine runs the handler again later (a kept-alive connection).
		{ID: 2, GoID: 11, Creator: "net/http.(*Server).Serve", Events: run(30, 3)},
		{ID: 3, GoID: 12, Creator: "net/http.(*Server).Serve", Events: run(20, 3)},
		{ID: 7, GoID: 11, Creator: "net/http.(*Server).Serve", Events: run(80, 3)},
		{ID: 4, Creator: "golang.org/x/sync/errgroup.(*Group).Go", Events: run(40, 5)},
		{ID: 5, Creator: "example.com/lib.(*Pool[...]).start", Events: run(50, 3)},
		{ID: 6, Events: run(60, 3)},
	}
	var buf bytes.Buffer
	if err := Encode(&buf, "creators", creatorGraph(t), gs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCreators: a goroutine's creator travels in its first chunk and in the
// index, and names it: what started it, what it ran, its place among
// those started so, in order of creation, then of start.
func TestCreators(t *testing.T) {
	data := creatorSample(t)
	want := map[uint64]string{
		1: "main",
		2: "net/http handler worker #1",
		3: "net/http handler worker #3",
		7: "net/http handler worker #2",
		4: "errgroup.Go at main.go:20 #1",
		5: "lib.(*Pool[...]).start worker #1",
		6: "?/worker#1",
	}
	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	cut := int(r.dataEnd) // the chunks without the index: read by scanning them
	for _, tc := range []struct {
		name string
		data []byte
	}{{"complete", data}, {"cut short", data[:cut]}} {
		r, err := NewReader(bytes.NewReader(tc.data), int64(len(tc.data)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Truncated() != (tc.name == "cut short") {
			t.Fatalf("%s: truncated %v", tc.name, r.Truncated())
		}
		for _, gi := range r.Goroutines() {
			if gi.Path != want[gi.ID] {
				t.Errorf("%s: goroutine %d is %q, want %q", tc.name, gi.ID, gi.Path, want[gi.ID])
			}
		}
	}
}

func TestCreatorLabel(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"net/http.(*Server).Serve", "net/http handler"},
		{"net/http.(*http2serverConn).scheduleHandler", "net/http handler"},
		{"golang.org/x/sync/errgroup.(*Group).Go", "errgroup.Go"},
		{"time.goFunc", "time.AfterFunc"},
		{"sync.(*WaitGroup).Go", "WaitGroup.Go"},
		{"example.com/m/internal/pool.(*Pool).start", "pool.(*Pool).start"},
		{"example.com/m/pool.Map[...]", "pool.Map[...]"},
		{"main.main", "main.main"},
	} {
		if got := CreatorLabel(tc.in); got != tc.want {
			t.Errorf("CreatorLabel(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCreatorFlagOnLaterChunk: a creator belongs to a goroutine's first
// chunk; a later chunk that claims one is refused.
func TestCreatorFlagOnLaterChunk(t *testing.T) {
	c := &Chunk{G: 2, Seq: 0, Origin: Origin{Creator: "time.goFunc"}}
	body := appendChunk(nil, c)
	if _, err := parseChunkBody(skipTag(t, body)); err != nil {
		t.Fatalf("first chunk: %v", err)
	}
	got, _ := parseChunkBody(skipTag(t, body))
	if got.Origin.Creator != "time.goFunc" {
		t.Errorf("creator %q after a round trip", got.Origin.Creator)
	}
	c.Seq = 1
	bad := skipTag(t, appendChunk(nil, c))
	// A later chunk's header has no origin: set the flag by hand.
	bad[2] |= chunkCreator
	if _, err := parseChunkBody(bad); err == nil || !strings.Contains(err.Error(), "chunk flags") {
		t.Errorf("a creator on chunk 1: %v", err)
	}
}

// skipTag returns the body of an encoded chunk, after its tag and length.
func skipTag(t *testing.T, b []byte) []byte {
	t.Helper()
	if len(b) == 0 || b[0] != tagChunk {
		t.Fatal("not a chunk")
	}
	_, n := binary.Uvarint(b[1:])
	return b[1+n:]
}
