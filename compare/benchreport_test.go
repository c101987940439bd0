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
		{1_000_000, 0, 101, "b7d6bd197bc8824420f5184dfa0bdea5005c1afaed2ed13e16cf2707c600e9f7", "7fccbe539668be273cb338e96661366d6be5560c15a8f4e9ab12e6ac0dac9d2e"},
		{1_000_000, 100, 2001, "a51a53751dd9c29b7a4d16bdf920d309629520a66d560defc41404019d27c401", "66bead3df4826d5a69b4f787c0c3ee11724ccb97d6bc8f76e94387c0ecdfd4b8"},
	}
	if os.Getenv("COMPARE_BENCH_10M") != "" {
		pairs = append(pairs, pair{10_000_000, 0, 101, "28164ee8cff0b08eea6a98eb17da69a5910ed4b76bb1ab006e9d441bc5119134", "2e0621b830c2d41dec5042742076428dd846d9e6b3db7b78caa5bbea64c27135"})
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
