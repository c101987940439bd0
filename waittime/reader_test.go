package waittime

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// writeTrace writes a fake trace as a real trace file.
func writeTrace(t testing.TB, f *fakeTrace) string {
	t.Helper()
	var gs []trace.GoroutineEvents
	for _, gi := range f.gs {
		gs = append(gs, trace.GoroutineEvents{ID: gi.ID, Parent: gi.Parent, Site: gi.Site, Ordinal: gi.Ordinal,
			Start: gi.Start, End: gi.End, Events: f.evs[gi.ID]})
	}
	file := filepath.Join(t.TempDir(), "run.dvt")
	if err := trace.WriteFile(file, f.graph, gs); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestReader runs the expansion example through a trace file and the
// streaming reader: the same report as from memory.
func TestReader(t *testing.T) {
	r, err := trace.Open(writeTrace(t, expansionTrace()))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep, err := Analyze(r, Options{KeepWaits: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf, 0); err != nil {
		t.Fatal(err)
	}
	golden(t, "expansion.golden", buf.Bytes())
}
