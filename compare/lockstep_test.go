package compare

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// bothWays compares a and b with lockstep on and off and fails unless
// both give the same report, to the last field, or the same error.
func bothWays(t *testing.T, name string, a, b Trace) *Report {
	t.Helper()
	on, errOn := Traces(a, b, Options{Weights: DefaultWeights})
	off, errOff := Traces(a, b, Options{Weights: DefaultWeights, tokensOnly: true})
	if (errOn == nil) != (errOff == nil) || errOn != nil && errOn.Error() != errOff.Error() {
		t.Fatalf("%s: lockstep gives error %v, tokens only %v", name, errOn, errOff)
	}
	if !reflect.DeepEqual(on, off) {
		t.Fatalf("%s: lockstep and tokens only differ:\nlockstep %+v\ntokens   %+v", name, on, off)
	}
	return on
}

// withClocks returns evs with clock events at random places, increasing
// times, and a sync event now and then, as a real recorder writes them
// at its own points on each side.
func withClocks(r *rand.Rand, evs []trace.Event) []trace.Event {
	out := make([]trace.Event, 0, len(evs)+len(evs)/2)
	now := int64(0)
	for _, e := range evs {
		if r.IntN(4) == 0 {
			now += 1 + r.Int64N(100)
			out = append(out, clock(now))
		}
		out = append(out, e)
		if e.Kind == trace.EvBlock && r.IntN(8) == 0 {
			now += 1 + r.Int64N(100)
			out = append(out, wait(int(e.Block), trace.OpLock, now, now+r.Int64N(50)))
			now += 50
		}
	}
	return out
}

// withOutcomes gives the then and body blocks of a generated program an
// index TCP (converging at the return), once, and puts an outcome event
// after each of their block events in evs, mostly 0: generated programs
// have outcome TCPs only on entry blocks otherwise, where lockstep
// replays calls in full.
func withOutcomes(r *rand.Rand, g *tbb.Graph, evs []trace.Event) []trace.Event {
	for _, b := range g.Blocks {
		if (b.Kind == "if.then" || b.Kind == "for.body") && len(b.Also) == 0 {
			b.Also = append(b.Also, &tbb.TCP{Kind: tbb.Index, CP: tbb.Return})
		}
	}
	out := make([]trace.Event, 0, len(evs)+len(evs)/2)
	for _, e := range evs {
		out = append(out, e)
		if b := g.Blocks[e.Block]; e.Kind == trace.EvBlock && len(b.Also) > 0 {
			out = append(out, trace.Event{Kind: trace.EvOutcome, Value: uint64(r.IntN(10) / 9)})
		}
	}
	return out
}

// TestLockstepSameReport: walking equal stretches in lockstep changes
// nothing in any report: on the property generator's executions (with
// clocks and syncs at different places on the two sides, and truncated
// streams; those with outcomes also from files, whose equal events lockstep
// takes as bytes), on mutated random streams of every event kind (errors
// included), on the figures' multi-goroutine runs and on trace files.
func TestLockstepSameReport(t *testing.T) {
	programs := 40
	if testing.Short() {
		programs = 10
	}
	r := rand.New(rand.NewPCG(7, 7))
	sections := 0
	for _, holes := range []bool{false, true} {
		generatedPairs(t, programs, holes, func(p *gprog, seed, run uint64, evA, evB []trace.Event, _, _ []item) {
			if seed%2 == 1 {
				evA, evB = withOutcomes(r, p.g, evA), withOutcomes(r, p.g, evB)
			}
			plainA, plainB := evA, evB
			evA, evB = withClocks(r, evA), withClocks(r, evB)
			if run == 3 {
				evB = evB[:r.IntN(len(evB)+1)]
			}
			rep := bothWays(t, "generated", newMem(p.g).add(1, 0, 0, 0, evA...), newMem(p.g).add(1, 0, 0, 0, evB...))
			sections += len(rep.Sections)
			if seed%2 == 1 && run != 3 {
				// From files, where lockstep takes equal events as
				// bytes: the same report again, with the clocks and
				// without them, where equal stretches are longer (not
				// cut short: a file names a goroutine's first block,
				// which matches mains that memory traces leave
				// unmatched).
				for _, evs := range [][2][]trace.Event{{evA, evB}, {plainA, plainB}} {
					ma, mb := newMem(p.g).add(1, 0, 0, 0, evs[0]...), newMem(p.g).add(1, 0, 0, 0, evs[1]...)
					mr := bothWays(t, "generated", ma, mb)
					fr := bothWays(t, "generated files", toFile(t, ma), toFile(t, mb))
					fr.Summary.Graph = mr.Summary.Graph // the file's graph is hashed as written
					if !reflect.DeepEqual(fr, mr) {
						t.Fatalf("generated: files and memory differ:\nfiles  %+v\nmemory %+v", fr, mr)
					}
				}
			}
		})
	}
	if sections < programs {
		t.Errorf("only %d sections: the executions hardly diverge", sections)
	}

	fig := newFig1(t)
	n := len(fig.g.Blocks)
	for range 300 {
		a, b := mutated(r)
		bothWays(t, "random", newMem(fig.g).add(1, 0, 0, 0, eventsFrom(a, n)...), newMem(fig.g).add(1, 0, 0, 0, eventsFrom(b, n)...))
	}

	dir := t.TempDir()
	if rep := bothWays(t, "figure 1", fig.run(1, 0, 1000), fig.run(0, 100, 5000)); rep.Summary.LockOrder == 0 {
		t.Errorf("figure 1: no lock-order note")
	}
	// The same runs but for the operation of main's wait, or the site of
	// its first spawn: only that tells the events apart. The spawn's
	// ordinal alone does not (a go statement executed more often before
	// is no difference at this one).
	for _, v := range []struct {
		name     string
		change   func(e *trace.Event)
		kind     trace.Kind
		sections int
	}{
		{"operation", func(e *trace.Event) { e.Op = trace.OpLock }, trace.EvSync, 1},
		{"site", func(e *trace.Event) { e.Site++ }, trace.EvSpawn, 1},
		{"ordinal", func(e *trace.Event) { e.Ordinal = 2 }, trace.EvSpawn, 0},
	} {
		other := fig.run(1, 0, 1000)
		for i, e := range other.events[1] {
			if e.Kind == v.kind {
				v.change(&other.events[1][i])
				break
			}
		}
		if rep := bothWays(t, "figure 1 with another "+v.name, fig.run(1, 0, 1000), other); len(rep.Sections) != v.sections {
			t.Errorf("figure 1 with another %s: %d sections, want %d", v.name, len(rep.Sections), v.sections)
		}
	}
	bothWays(t, "figure 1 files", toFile(t, fig.run(1, 0, 1000)), toFile(t, fig.run(0, 0, 2000)))
	f2 := newFig2(t)
	bothWays(t, "figure 2 files", toFile(t, f2.run(3)), toFile(t, f2.run(6)))

	// The benchmark's loop, as the runtime writes it: chunks closed by
	// clocks, a divergence every 10 iterations, one iteration more on b.
	pa, pb := filepath.Join(dir, "loop-a.dvt"), filepath.Join(dir, "loop-b.dvt")
	for _, w := range []struct {
		path string
		side uint64
	}{{pa, 0}, {pb, 1}} {
		if err := writeTrace(w.path, "", f2.g, &loopTrace{f: f2, n: 5000, side: w.side, every: 10}); err != nil {
			t.Fatal(err)
		}
	}
	if rep := bothWays(t, "loop files", openFile(t, pa), openFile(t, pb)); len(rep.Sections) < 400 {
		t.Errorf("loop files: %d sections, want one per 10 iterations", len(rep.Sections))
	}
}

// mutated returns random bytes for eventsFrom and a copy with a few bytes
// changed and, one time in four, cut short: two streams with an equal
// prefix, which is what lockstep walks.
func mutated(r *rand.Rand) (a, b []byte) {
	a = make([]byte, 2*(1+r.IntN(60)))
	for i := range a {
		a[i] = byte(r.UintN(256))
	}
	b = slices.Clone(a)
	for range r.IntN(3) {
		b[r.IntN(len(b))] = byte(r.UintN(256))
	}
	if r.IntN(4) == 0 {
		b = b[:r.IntN(len(b)+1)]
	}
	return a, b
}

// TestLockstepStreamState: after a pair is compared with lockstep on, each
// side's stream is where it is with tokens only: the same frames, last
// outcome blocks, counts, clock and anomalies, also for streams cut off
// inside calls. Reports do not show all of it (b's outcome owners only
// matter at later differences).
func TestLockstepStreamState(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	fig := newFig1(t)
	check := func(name string, p *program, a, b Trace) {
		t.Helper()
		opts := Options{Weights: DefaultWeights}
		on, errOn := comparePair(p, newCache(p), a, b, gPair{a: 1, b: 1}, opts)
		opts.tokensOnly = true
		off, errOff := comparePair(p, newCache(p), a, b, gPair{a: 1, b: 1}, opts)
		if errOn != nil || errOff != nil {
			if (errOn == nil) != (errOff == nil) || errOn.Error() != errOff.Error() {
				t.Fatalf("%s: errors %v and %v", name, errOn, errOff)
			}
			return
		}
		for _, s := range []struct {
			side    string
			on, off *stream
		}{{"a", on.a, off.a}, {"b", on.b, off.b}} {
			x, y := s.on, s.off
			if !x.rp.SameState(y.rp) || !slices.Equal(x.lastOut, y.lastOut) || x.rp.Anomalies != y.rp.Anomalies ||
				x.nblocks != y.nblocks || x.ntcps != y.ntcps || x.instrs != y.instrs || x.nev != y.nev || x.taken != y.taken ||
				x.now != y.now || x.instrsAt != y.instrsAt || x.rate != y.rate || x.clock() != y.clock() {
				t.Fatalf("%s: side %s differs with lockstep: last outcomes %v / %v, blocks %d / %d, instrs %d / %d, clock %d / %d, steps %d / %d",
					name, s.side, x.lastOut, y.lastOut, x.nblocks, y.nblocks, x.instrs, y.instrs, x.clock(), y.clock(), x.taken, y.taken)
			}
		}
		if !reflect.DeepEqual(on.sections, off.sections) || !reflect.DeepEqual(on.locks, off.locks) {
			t.Fatalf("%s: sections differ", name)
		}
	}
	p, err := newProgram(fig.g)
	if err != nil {
		t.Fatal(err)
	}
	n := len(fig.g.Blocks)
	for range 300 {
		a, b := mutated(r)
		check("random", p, newMem(fig.g).add(1, 0, 0, 0, eventsFrom(a, n)...), newMem(fig.g).add(1, 0, 0, 0, eventsFrom(b, n)...))
	}
	generatedPairs(t, 20, false, func(g *gprog, _, _ uint64, evA, evB []trace.Event, _, _ []item) {
		evA, evB = withOutcomes(r, g.g, evA), withOutcomes(r, g.g, evB)
		p, err := newProgram(g.g)
		if err != nil {
			t.Fatal(err)
		}
		evA, evB = withClocks(r, evA), withClocks(r, evB)
		evA, evB = evA[:r.IntN(len(evA)+1)], evB[:r.IntN(len(evB)+1)]
		check("generated", p, newMem(g.g).add(1, 0, 0, 0, evA...), newMem(g.g).add(1, 0, 0, 0, evB...))
	})
}
