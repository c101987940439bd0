package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// TestReadersRefuseAlike: every reader of a trace (show, its JSON and its
// timeline, diff on either side, wait) refuses the same corrupt traces
// with the same one-line error, since the checks are made once, in the
// trace reader. wait used to accept an exit at a block the graph does not
// have, and show printed a chunk's block count as it was
// (18446744073709551615).
func TestReadersRefuseAlike(t *testing.T) {
	good := showTrace(t)
	g := showGraph("main.go")
	dir := t.TempDir()
	write := func(name string, chunks ...*trace.Chunk) string {
		path := filepath.Join(dir, name)
		writeChunks(t, path, g, chunks...)
		return path
	}
	mainChunk := func(blocks uint64, evs ...trace.Event) *trace.Chunk {
		c := &trace.Chunk{G: 1, Final: true, End: 100}
		for _, e := range evs {
			c.Add(e)
		}
		if blocks != 0 {
			c.Blocks = blocks
		}
		return c
	}
	clock := trace.Event{Kind: trace.EvClock, Time: 0}
	recv := trace.Event{Kind: trace.EvSync, Op: trace.OpRecv, Site: 1, Object: 0xc0, Waited: true, Begin: 10, End: 90}
	for _, tc := range []struct {
		name, path, want string
	}{
		{"exit not in the graph", write("exit.dvt", mainChunk(0, clock, trace.Event{Kind: trace.EvBlock, Block: 0}, recv, trace.Event{Kind: trace.EvExit, Block: 99})),
			"exit event: block 99 is not in the graph (2 blocks)"},
		{"block not in the graph", write("block.dvt", mainChunk(0, clock, trace.Event{Kind: trace.EvBlock, Block: 0}, trace.Event{Kind: trace.EvBlock, Block: 7000}, recv)),
			"block event: block 7000 is not in the graph (2 blocks)"},
		{"block count", write("count.dvt", mainChunk(math.MaxUint64, clock, trace.Event{Kind: trace.EvBlock, Block: 0}, recv, trace.Event{Kind: trace.EvExit, Block: 0})),
			"the chunk counts 18446744073709551615 block executions, its events hold 1"},
	} {
		for _, args := range [][]string{
			{"show", tc.path},
			{"show", "-json", tc.path},
			{"show", "-perfetto", filepath.Join(t.TempDir(), "t.json"), tc.path},
			{"diff", tc.path, good},
			{"diff", good, tc.path},
			{"diff", "-json", good, tc.path},
			{"wait", tc.path},
		} {
			status, _, errs := runCmd(t, args...)
			if status != 2 || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("%s: divergo %s: status %d, stderr %q; want 2 and one line with %q", tc.name, strings.Join(args[:len(args)-1], " "), status, errs, tc.want)
			}
		}
	}
}

// writeChunks writes a trace of graph g holding the chunks as given, their
// counts unchecked.
func writeChunks(t *testing.T, path string, g *tbb.Graph, chunks ...*trace.Chunk) {
	t.Helper()
	data, err := tbb.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	w, err := trace.NewWriter(&file, trace.Header{Program: "corrupt", Start: time.Unix(0, 0), Graph: data, Hash: g.Hash})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if err := w.WriteChunk(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, file.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
}
