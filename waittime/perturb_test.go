package waittime

import (
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// perturbedTrace is a fake trace of a run under DIVERGO_PERTURB=seed.
type perturbedTrace struct {
	*fakeTrace
	seed int64
}

func (p perturbedTrace) Perturbed() (int64, bool) { return p.seed, true }

// TestPerturbation: the releaser, holding the mutex, is delayed 10 ms by
// divergo's perturbation between two blocks of 1 ms. The delay is taken
// out of the paths before they are compared: no step is divergo's, neither
// block gets the delay, the class's waiting time is the program's 1.6 ms,
// divergo is named once, in the report's header, and the profile has no
// sample of divergo's.
func TestPerturbation(t *testing.T) {
	b := newBuilder("perturb.go")
	entry, a, lock := b.block("main", 10, 1), b.block("main", 11, 10), b.block("main", 12, 1)
	wLock, x, y, unlock := b.block("w", 20, 1), b.block("w", 21, 10), b.block("w", 22, 10), b.block("w", 23, 1)
	const mu = 1
	m := b.goroutine(1, 0, 0, 0, 0)
	m.exec(entry)
	m.spawn(entry, 2, 1)
	m.run(a, 500*us)
	m.wait(lock, trace.OpLock, mu, 12*ms+100*us)
	m.done()
	w := b.goroutine(2, 1, entry, 1, 0)
	w.op(wLock, trace.OpLock, mu)
	w.run(x, 1*ms)
	w.emit(trace.Event{Kind: trace.EvPerturb, Begin: w.now, End: w.now + 10*ms})
	w.now += 10 * ms
	w.run(y, 1*ms)
	w.op(unlock, trace.OpUnlock, mu)
	w.done()

	rep, err := Analyze(perturbedTrace{b.trace(), 3}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Perturbed || rep.PerturbSeed != 3 || rep.PerturbNs != 10*ms || rep.WaitPerturbNs != 10*ms {
		t.Errorf("report says perturbed %v, seed %d, %s of delays, %s in waits; want true, 3, 10 ms, 10 ms",
			rep.Perturbed, rep.PerturbSeed, FormatNs(rep.PerturbNs), FormatNs(rep.WaitPerturbNs))
	}
	s := siteAt(t, rep, lock, trace.OpLock)
	c := s.Classes[0]
	for _, st := range c.Steps {
		switch {
		case st.State == Perturb.String():
			t.Errorf("a step is divergo's perturbation: %+v", st)
		case abs(st.Ns) > 1*ms+10*us:
			t.Errorf("%s in %s explains %s: more than it ran", st.Pos, st.Goroutine, FormatNs(st.Ns))
		}
	}
	if c.PerturbNs != 10*ms || c.TotalNs != 1*ms+600*us || c.Explained < DefaultTolerance {
		t.Errorf("class: %s of divergo's delays, %s of the program's, %.0f%% explained; want 10 ms, 1.6 ms and %.0f%%",
			FormatNs(c.PerturbNs), FormatNs(c.TotalNs), 100*c.Explained, 100*DefaultTolerance)
	}
	if s.TotalNs != c.TotalNs || rep.TotalNs != c.TotalNs {
		t.Errorf("site %s, report %s; want the class's %s", FormatNs(s.TotalNs), FormatNs(rep.TotalNs), FormatNs(c.TotalNs))
	}
	checkAddsUp(t, rep)
	var text strings.Builder
	rep.WriteText(&text, 0)
	header := "perturbed run (DIVERGO_PERTURB=3); divergo delayed goroutines 10.0 ms in all, which made the waits 10.0 ms longer; taken out of every figure"
	class := "class 1: 1 wait, 1.60 ms, 100% explained"
	if n := strings.Count(text.String(), "divergo"); !strings.Contains(text.String(), header) || !strings.Contains(text.String(), class) || n != 1 {
		t.Errorf("text does not say %q once and %q (divergo named %d times):\n%s", header, class, n, text.String())
	}
	d, err := Diff(rep, rep, 0)
	if err != nil {
		t.Fatal(err)
	}
	text.Reset()
	d.WriteText(&text, 0)
	if !strings.Contains(text.String(), "B is a perturbed run (DIVERGO_PERTURB=3)") {
		t.Errorf("diff does not say B was perturbed:\n%s", text.String())
	}
	p, err := rep.Profile()
	if err != nil {
		t.Fatal(err)
	}
	var all int64
	for _, smp := range p.Sample {
		all += smp.Value[0]
		for _, l := range smp.Location {
			for _, ln := range l.Line {
				if strings.Contains(ln.Function.Name, "divergo") || strings.Contains(ln.Function.Name, Perturb.String()) {
					t.Errorf("a sample of the profile is at %s", ln.Function.Name)
				}
			}
		}
	}
	if all != rep.TotalNs {
		t.Errorf("profile adds up to %s; want %s", FormatNs(all), FormatNs(rep.TotalNs))
	}
}
