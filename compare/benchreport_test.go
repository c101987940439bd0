package compare

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestBenchFilesReport pins the reports of BenchmarkCompareFiles's 1M
// pairs, sparse and dense, as "divergo diff" prints them (JSON, and text
// with every group and section): their SHA-256 sums were taken from the
// code before lockstep compared the files' bytes (docs/PERFORMANCE.md,
// "Comparing in lockstep, from the files' bytes"), so that every later speed-up is checked to leave
// each section, distance and line as it was. They were taken again when a
// section's start came to be interpolated between the timestamps around it
// (when.go): only start_ns, start_span_ns and the first parting's time
// changed. The 10M pair, the sparse one
// ten times longer, is checked too with COMPARE_BENCH_10M=1 (it takes a
// few seconds more).
func TestBenchFilesReport(t *testing.T) {
	if testing.Short() {
		t.Skip("writes two 1M-block trace pairs")
	}
	f := newFig2(t)
	dir := t.TempDir()
	type pair struct {
		blocks, every int
		sections      int
		json, text    string
	}
	pairs := []pair{
		{1_000_000, 0, 101, "5cbb5261b4f4c255c9087c2a16376eab06fbbffe2eda099e55fa0b8cdd45fe83", "cb5512cdb4653eba33f7bcce9e3b15dae60ab7819ee0dc0cab9bb3e5036e2361"},
		{1_000_000, 100, 2001, "b0656634fa9b9e7a6267673b1c8b0763d673d60fb05f4f38dc334513e5832b5c", "6a09b675cca587151dc7faa908cd46857c5d0351f743c8a646de99adb92b4df0"},
	}
	if os.Getenv("COMPARE_BENCH_10M") != "" {
		pairs = append(pairs, pair{10_000_000, 0, 101, "8cabfdb37897d3be0b19152c9284896dd9a24abccfd32e460430a5ffa62474a6", "1c6fe745a4a515de21540e4683b5b24d400313cb1d921c57263340b171efde85"})
	}
	for _, c := range pairs {
		name := fmt.Sprintf("blocks=%d/every=%d", c.blocks, c.every)
		pa, pb := filepath.Join(dir, fmt.Sprintf("%d-%d-a.dvt", c.blocks, c.every)), filepath.Join(dir, fmt.Sprintf("%d-%d-b.dvt", c.blocks, c.every))
		for _, w := range []struct {
			path string
			side uint64
		}{{pa, 0}, {pb, 1}} {
			if err := writeTrace(w.path, "", f.g, &loopTrace{f: f, n: c.blocks / 5, side: w.side, every: c.every}); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := Traces(openFile(t, pa), openFile(t, pb), Options{Weights: DefaultWeights})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Sections) != c.sections {
			t.Errorf("%s: %d sections, want %d", name, len(rep.Sections), c.sections)
		}
		var js, text bytes.Buffer
		enc := json.NewEncoder(&js)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			t.Fatal(err)
		}
		if err := rep.WriteText(&text, TextOptions{Groups: -1, Sections: true}); err != nil {
			t.Fatal(err)
		}
		sum := func(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }
		if got := sum(js.Bytes()); got != c.json {
			t.Errorf("%s: JSON report's sha256 is %s, want %s", name, got, c.json)
		}
		if got := sum(text.Bytes()); got != c.text {
			t.Errorf("%s: text report's sha256 is %s, want %s (%d bytes)", name, got, c.text, text.Len())
		}
	}
}
