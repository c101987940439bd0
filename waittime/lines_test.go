package waittime

import (
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
	"github.com/google/pprof/profile"
)

// cpuProfile is a CPU profile of samples at the given lines of file, each
// with its CPU time in ns.
func cpuProfile(file string, at map[int]int64) *profile.Profile {
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}}}
	fn := &profile.Function{ID: 1, Name: "example.com/m.w", Filename: "/home/u/m/" + file}
	lib := &profile.Function{ID: 2, Name: "crypto/sha256.block", Filename: "/go/src/crypto/sha256/sha256block.go"}
	p.Function = []*profile.Function{fn, lib}
	for line, ns := range at {
		leaf := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: lib, Line: 9}}}
		caller := &profile.Location{ID: uint64(len(p.Location) + 2), Line: []profile.Line{{Function: fn, Line: int64(line)}}}
		p.Location = append(p.Location, leaf, caller)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{leaf, caller}, Value: []int64{ns / 10_000_000, ns}})
	}
	return p
}

// TestLinesBySamples: the worker's block spans lines 20 to 22 and runs
// 40 ms while main waits for it; CPU samples put 30 ms of it, inside a
// library, under line 21 and 10 ms under line 22. Line 20, where the block
// begins, gets none, 21 three quarters and 22 a quarter, and the steps
// still add up to the wait; without samples the block keeps its time at
// line 20.
func TestLinesBySamples(t *testing.T) {
	b := newBuilder("lines.go")
	entry, wait := b.block("main", 10, 1), b.block("main", 11, 1)
	work := b.block("w", 20, 3)
	b.tr.graph.Blocks[work].End = tbb.Pos{File: "lines.go", Line: 22, Col: 30}
	done := b.block("w", 23, 1)
	const wg = 1
	m := b.goroutine(1, 0, 0, 0, 0)
	m.exec(entry)
	m.spawn(entry, 2, 1)
	m.advance(0)
	m.wait(wait, trace.OpWGWait, wg, 40*ms)
	m.done()
	w := b.goroutine(2, 1, entry, 1, 0)
	w.run(work, 40*ms)
	w.op(done, trace.OpWGDone, wg)
	w.done()

	running := func(rep *Report) map[string]int64 {
		out := map[string]int64{}
		for _, st := range siteAt(t, rep, wait, trace.OpWGWait).Classes[0].Steps {
			if st.State == Running.String() {
				out[st.Pos] += st.Ns
			}
		}
		return out
	}
	rep, err := Analyze(b.trace(), Options{CPUProfile: cpuProfile("lines.go", map[int]int64{21: 30 * ms, 22: 10 * ms, 99: 5 * ms})})
	if err != nil {
		t.Fatal(err)
	}
	checkAddsUp(t, rep)
	got := running(rep)
	if got["lines.go:20"] != 0 || got["lines.go:21"] != 30*ms || got["lines.go:22"] != 10*ms {
		t.Errorf("running steps %v; want lines 21 and 22 at 30 and 10 ms, none at 20", got)
	}
	p, err := rep.Profile()
	if err != nil {
		t.Fatal(err)
	}
	byLine := map[int64]int64{}
	for _, s := range p.Sample {
		byLine[s.Location[0].Line[0].Line] += s.Value[0]
	}
	if byLine[21] != 30*ms || byLine[22] != 10*ms || byLine[20] != 0 {
		t.Errorf("profile by line %v; want 21 and 22 at 30 and 10 ms, none at 20", byLine)
	}
	var text strings.Builder
	rep.WriteText(&text, 0)
	if !strings.Contains(text.String(), "+ lines.go:21 in main/w@lines.go:10#1  30.0 ms") {
		t.Errorf("text:\n%s", text.String())
	}

	rep, err = Analyze(b.trace(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := running(rep); got["lines.go:20"] != 40*ms {
		t.Errorf("without samples, running steps %v; want the 40 ms at line 20", got)
	}
}
