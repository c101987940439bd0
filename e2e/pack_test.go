package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestPackedLoops checks that packing a loop's probes into words changes
// what is recorded, not what is read: testdata/packloops, instrumented
// with packed loops (the default) and with -pack=false, must give every
// goroutine the same events in both traces (clocks aside, which mark
// where buffers were written), the same output as the plain program, and
// compare must find the two runs the same.
func TestPackedLoops(t *testing.T) {
	t.Parallel()
	p := prepare(t, "packloops", false)
	packed := p.run(t)
	heads := packed.graph.PackedLoops()
	if len(heads) != 15 {
		t.Errorf("%d packed loops, want 15 (arms, collatz, chain, breaks, outer's inner, counts, find, rows' inner, spell, ranges' five, main's range over xs)", len(heads))
	}
	for h, ids := range heads {
		if f := packed.graph.Func(packed.graph.Block(h).Func); f == nil || strings.Contains(f.Name, "leftAlone") {
			t.Errorf("a loop of leftAlone (head %d, blocks %v) was packed", h, ids)
		}
	}

	if code, _, stderr := divergo(t, p.dir, "instrument", "-pack=false", "./..."); code != 0 {
		t.Fatalf("divergo instrument -pack=false: exit %d\n%s", code, stderr)
	}
	bin := filepath.Join(t.TempDir(), "unpacked")
	goCmd(t, p.dir, "build", "-overlay="+filepath.Join(p.dir, ".divergo", "overlay.json"), "-o", bin, ".")
	unpacked := (&program{dir: p.dir, bin: bin}).run(t)
	if len(unpacked.graph.PackedLoops()) != 0 {
		t.Errorf("-pack=false left packed loops in the graph")
	}
	plain := goCmd(t, p.dir, "run", ".")
	if packed.stdout != plain || unpacked.stdout != plain {
		t.Errorf("outputs differ:\nplain:\n%s\npacked:\n%s\nunpacked:\n%s", plain, packed.stdout, unpacked.stdout)
	}

	if len(packed.gs) != len(unpacked.gs) {
		t.Fatalf("%d goroutines packed, %d unpacked", len(packed.gs), len(unpacked.gs))
	}
	noClock := func(evs []trace.Event) []trace.Event {
		return slices.DeleteFunc(slices.Clone(evs), func(e trace.Event) bool { return e.Kind == trace.EvClock })
	}
	for i, g := range packed.gs {
		u := unpacked.gs[i]
		if g.Path != u.Path {
			t.Fatalf("goroutine %d: %s packed, %s unpacked", i, g.Path, u.Path)
		}
		a, b := noClock(g.evs), noClock(u.evs)
		for j := range min(len(a), len(b)) {
			if x, y := a[j], b[j]; x.Kind != y.Kind || x.Block != y.Block || x.Value != y.Value || x.Site != y.Site || x.Op != y.Op {
				t.Fatalf("%s: event %d is %s %d packed, %s %d unpacked", g.Path, j, x.Kind, x.Block, y.Kind, y.Block)
			}
		}
		if len(a) != len(b) {
			t.Fatalf("%s: %d events packed, %d unpacked", g.Path, len(a), len(b))
		}
		if g.Blocks != u.Blocks {
			t.Errorf("%s: the index counts %d recorded blocks packed, %d unpacked", g.Path, g.Blocks, u.Blocks)
		}
	}

	// Two packed runs with the same input take the same paths; with
	// another count, diff names the loops.
	out := t.TempDir()
	for i, n := range []string{"1000", "1000", "999"} {
		execProg(t, p.dir, p.bin, []string{"-n", n}, "DIVERGO_TRACE="+filepath.Join(out, string(rune('a'+i))+".dvt"))
	}
	if code, stdout, stderr := divergo(t, p.dir, "diff", filepath.Join(out, "a.dvt"), filepath.Join(out, "b.dvt")); code != 0 {
		t.Errorf("diff of two packed runs with one input: exit %d\n%s%s", code, stdout, stderr)
	}
	// show's EVENTS counts packs as the file holds them, far below
	// RECORDED: it says so.
	if code, stdout, stderr := divergo(t, p.dir, "show", filepath.Join(out, "a.dvt")); code != 0 || !strings.Contains(stdout, "up to\n64 in one event, and a word that repeats") {
		t.Errorf("show of a packed trace: exit %d, no word on packed events\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := divergo(t, p.dir, "diff", filepath.Join(out, "a.dvt"), filepath.Join(out, "c.dvt"))
	if code != 1 || !strings.Contains(stdout, "main.go:21  loop") {
		t.Errorf("diff of packed runs of 1000 and 999 iterations: exit %d, want 1 and the loop of arms (main.go:21)\n%s%s", code, stdout, stderr)
	}
}
