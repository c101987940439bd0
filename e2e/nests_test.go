package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestQuietNests checks that a loop nest with no change point is left out
// of the trace and read as if it had run (docs/FORMAT.md, "Quiet loop
// nests"): testdata/nests's goroutines each run a triangle of 45,000 or
// more iterations with a branch inside, which must record no block of the
// nest, while the nest whose inner loop ends on a received value keeps its
// probes; the output is the plain program's, two runs with one input take
// the same paths, and runs with another size differ in their inputs.
func TestQuietNests(t *testing.T) {
	t.Parallel()
	p := prepare(t, "nests", false)
	r := p.run(t)
	if plain := goCmd(t, p.dir, "run", "."); r.stdout != plain {
		t.Errorf("output %q, plain %q", r.stdout, plain)
	}
	g := r.graph
	probedLoops := func(name string) (probed, all int) {
		f := g.FuncByName(name)
		if f == nil {
			t.Fatalf("no function %s in the graph", name)
		}
		for _, id := range f.Blocks {
			b := g.Block(id)
			if strings.HasPrefix(b.Kind, "for.") || strings.HasPrefix(b.Kind, "if.") {
				all++
				if b.Probe {
					probed++
				}
			}
		}
		return probed, all
	}
	if probed, all := probedLoops("example.com/nests.main$1"); all == 0 || probed > 1 {
		t.Errorf("the goroutines' nest: %d of its %d loop and if blocks probed, want at most the block after it", probed, all)
	}
	if probed, _ := probedLoops("example.com/nests.bounded"); probed == 0 {
		t.Errorf("bounded's nest, whose inner loop ends on a received value, has no probed block")
	}
	workers := 0
	for _, gr := range r.gs {
		if gr.Path == "main" {
			continue
		}
		workers++
		if gr.Blocks > 4 {
			t.Errorf("%s recorded %d block executions, want the entry and the block after its nest", gr.Path, gr.Blocks)
		}
	}
	if workers != 4 {
		t.Errorf("%d goroutines besides main, want 4", workers)
	}

	out := t.TempDir()
	for i, n := range []string{"300", "300", "299"} {
		execProg(t, p.dir, p.bin, []string{"-n", n}, "DIVERGO_TRACE="+filepath.Join(out, string(rune('a'+i))+".dvt"))
	}
	if code, stdout, stderr := divergo(t, p.dir, "diff", filepath.Join(out, "a.dvt"), filepath.Join(out, "b.dvt")); code != 0 {
		t.Errorf("diff of two runs with one input: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := divergo(t, p.dir, "diff", filepath.Join(out, "a.dvt"), filepath.Join(out, "c.dvt"))
	if code != 1 || !strings.Contains(stdout, "inputs differ") {
		t.Errorf("diff of runs of size 300 and 299: exit %d, want 1 and a word on the inputs\n%s%s", code, stdout, stderr)
	}
}
