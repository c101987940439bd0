package compare

import (
	"os"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// The graphs the analyzer builds for the ports of the paper's figures in
// the module's testdata/, regenerated with
//
//	divergo graph -o compare/testdata/fig1a.graph.json ./testdata/fig1a
//	divergo graph -o compare/testdata/fig2.graph.json ./testdata/fig2
//
// The hand-built graphs of figures_test.go mirror them; these tests check
// the correspondence on the real ones.

func loadGraph(t *testing.T, path string) *tbb.Graph {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := tbb.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// funcBlocks returns the blocks of the function whose name ends in suffix,
// checking their kinds.
func funcBlocks(t *testing.T, g *tbb.Graph, suffix string, kinds ...string) []int {
	t.Helper()
	for _, f := range g.Funcs {
		if !strings.HasSuffix(f.Name, suffix) {
			continue
		}
		if len(f.Blocks) != len(kinds) {
			t.Fatalf("%s has %d blocks, want %d: the analyzer's graph changed shape", f.Name, len(f.Blocks), len(kinds))
		}
		for i, b := range f.Blocks {
			if g.Blocks[b].Kind != kinds[i] {
				t.Fatalf("%s block %d is %q, want %q", f.Name, i, g.Blocks[b].Kind, kinds[i])
			}
		}
		return f.Blocks
	}
	t.Fatalf("no function %s", suffix)
	return nil
}

func TestFigure1AnalyzerGraph(t *testing.T) {
	g := loadGraph(t, "testdata/fig1a.graph.json")
	f := &fig1{g: g, labels: map[int]string{}}
	m := funcBlocks(t, g, ".main", "entry", "split", "split")
	t0 := funcBlocks(t, g, ".task0", "entry", "split", "if.then", "if.else", "if.done")
	t1 := funcBlocks(t, g, ".task1", "entry", "split", "for.loop", "for.body", "for.post", "for.done")
	f.m0, f.m1, f.m2 = m[0], m[1], m[2]
	f.t0, f.t1, f.tThen, f.tElse, f.tEnd = t0[0], t0[1], t0[2], t0[3], t0[4]
	f.c0, f.c1, f.cBody, f.cDone = t1[0], t1[1], t1[3], t1[5]
	for id, l := range map[int]string{m[0]: "A0-A1", m[1]: "A1'", m[2]: "A2-A3", t0[0]: "B0", t0[1]: "B1-B4", t0[2]: "B5", t0[3]: "B6-B7",
		t0[4]: "A2(task0)", t1[0]: "C0", t1[1]: "C1-C3", t1[2]: "C4", t1[3]: "C5", t1[4]: "C4(i++)", t1[5]: "A2(task1)"} {
		f.labels[id] = l
	}
	got, rep := correspondence(t, f.run(1, 0, 1000), f.run(0, 100, 5000), f.labels)
	golden(t, "figure1-analyzer.golden", got)
	if len(rep.Sections) != 2 || rep.Distance != 7 || rep.Summary.LockOrder != 2 {
		t.Errorf("%d sections, distance %v, %d lock notes; want 2, 7, 2", len(rep.Sections), rep.Distance, rep.Summary.LockOrder)
	}
}

func TestFigure2AnalyzerGraph(t *testing.T) {
	g := loadGraph(t, "testdata/fig2.graph.json")
	b := funcBlocks(t, g, ".task0", "entry", "split", "for.loop", "for.body", "if.then", "if.else", "if.done", "for.post", "for.done")
	f := &fig2{g: g, entry: b[0], crit: b[1], body: b[3], then: b[4], els: b[5], join: b[6], done: b[8], labels: map[int]string{}}
	for i, l := range []string{"B0", "B1-B3", "B4", "B5", "B6(then)", "B6(else)", "B7", "B4(j++)", "end"} {
		f.labels[b[i]] = l
	}
	for _, tt := range []struct {
		name     string
		ia, ib   int
		sections int
	}{{"odd-even", 1, 2, 2}, {"even-even", 2, 4, 1}} {
		t.Run(tt.name, func(t *testing.T) {
			got, rep := correspondence(t, f.run(tt.ia), f.run(tt.ib), f.labels)
			golden(t, "figure2-analyzer-"+tt.name+".golden", got)
			if len(rep.Sections) != tt.sections {
				t.Errorf("%d sections, want %d", len(rep.Sections), tt.sections)
			}
		})
	}
}
