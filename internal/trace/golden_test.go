package trace

import (
	"bytes"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden pins the byte layout of docs/FORMAT.md: the chunks of the
// sample trace must encode to exactly the bytes in testdata/sample.golden (a
// hex dump). A
// change here is a format change: bump Version unless old readers still
// read the new bytes.
func TestGolden(t *testing.T) {
	var small []GoroutineEvents
	for _, g := range sample() {
		if len(g.Events) > 20 {
			g.Events = append(g.Events[:3:3], g.Events[len(g.Events)-2:]...)
		}
		small = append(small, g)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, "sample", testGraph(t), small); err != nil {
		t.Fatal(err)
	}
	// The chunks only: the header embeds the graph's JSON (docs/TBB.md,
	// not this package's format) and the index holds absolute offsets.
	r, err := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	got := []byte(hex.Dump(buf.Bytes()[r.dataStart:r.dataEnd]))
	path := filepath.Join("testdata", "sample.golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("encoding changed; if on purpose, run go test -update and check docs/FORMAT.md\n got:\n%s", got)
	}
}
