package compare

import (
	"math/rand/v2"
	"testing"

	"github.com/divergo/divergo/internal/steps"
	"github.com/divergo/divergo/internal/trace"
)

// observedSpans places each section by counting the tokens the
// correspondence consumes on each side, as a drawer watching Observe
// would: the definition StepsA and StepsB must meet, lockstep or not.
func observedSpans(t *testing.T, a, b Trace) [][2]steps.Span {
	t.Helper()
	type count struct {
		na, nb, sa, sb int64
		in             bool
	}
	counts := map[uint64]*count{}
	var out [][2]steps.Span
	// One pair at a time (Parallel 1), in the report's order.
	_, err := Traces(a, b, Options{Parallel: 1, Observe: func(s Step) {
		c := counts[s.Goroutine]
		if c == nil {
			c = &count{}
			counts[s.Goroutine] = c
		}
		begin := func() {
			if !c.in {
				c.in, c.sa, c.sb = true, c.na, c.nb
			}
		}
		token := s.Token != "" && s.Token != "end"
		switch s.Kind {
		case StepSame, StepLockOrder:
			if token {
				c.na++
				c.nb++
			}
		case StepA:
			begin()
			if token {
				c.na++
			}
		case StepB:
			begin()
			if token {
				c.nb++
			}
		case StepSection:
			begin()
			out = append(out, [2]steps.Span{{From: c.sa, To: c.na}, {From: c.sb, To: c.nb}})
			c.in = false
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSectionSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	sections := 0
	check := func(a, b Trace) {
		t.Helper()
		rep := bothWays(t, "generated", a, b)
		want := observedSpans(t, a, b)
		if len(want) != len(rep.Sections) {
			t.Fatalf("%d sections observed, %d reported", len(want), len(rep.Sections))
		}
		for i, s := range rep.Sections {
			if got := [2]steps.Span{s.StepsA, s.StepsB}; got != want[i] {
				t.Fatalf("section %d at %s: steps %v, observed %v", i, s.TCP.Pos, got, want[i])
			}
		}
		sections += len(rep.Sections)
	}
	generatedPairs(t, 20, true, func(p *gprog, seed, run uint64, evA, evB []trace.Event, _, _ []item) {
		evA, evB = withOutcomes(r, p.g, evA), withOutcomes(r, p.g, evB)
		evA, evB = withClocks(r, evA), withClocks(r, evB)
		if run == 3 {
			evB = evB[:r.IntN(len(evB)+1)]
		}
		check(newMem(p.g).add(1, 0, 0, 0, evA...), newMem(p.g).add(1, 0, 0, 0, evB...))
	})
	fig := newFig1(t)
	check(fig.run(1, 0, 1000), fig.run(0, 100, 5000))
	if sections < 20 {
		t.Errorf("only %d sections: the executions hardly diverge", sections)
	}
}

// Marks gives each section on its goroutine in both runs, at its steps,
// and a goroutine of one run only from its first step to its end.
func TestMarks(t *testing.T) {
	fig := newFig1(t)
	a, b := fig.run(1, 0, 1000), fig.run(0, 100, 5000)
	b.add(9, 101, uint32(fig.m0), 2, blk(fig.t0), ret(fig.t0))
	rep := bothWays(t, "figure 1", a, b)
	ma, mb := rep.Marks()
	if len(rep.Sections) == 0 || len(ma) != len(rep.Sections) || len(mb) != len(rep.Sections)+1 {
		t.Fatalf("%d sections: %d marks in A, %d in B", len(rep.Sections), len(ma), len(mb))
	}
	for i, s := range rep.Sections {
		if ma[i].Goroutine != s.Goroutine || ma[i].Span != s.StepsA || mb[i].Goroutine != s.GoroutineB || mb[i].Span != s.StepsB {
			t.Errorf("section %d: marks %+v and %+v", i, ma[i], mb[i])
		}
		if want := "divergent: " + s.TCP.Kind + " at " + s.TCP.Pos; s.TCP.Kind != "none" && ma[i].Label != want {
			t.Errorf("section %d: label %q, want %q", i, ma[i].Label, want)
		}
	}
	lone := mb[len(mb)-1]
	if lone.Goroutine != 9 || lone.Span != (steps.Span{From: 0, To: steps.ToEnd}) || lone.Label != "only in run B" {
		t.Errorf("lone goroutine: %+v", lone)
	}
}
