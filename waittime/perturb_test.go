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
// divergo's perturbation between two blocks of 1 ms. The wait is
// explained by a perturb step with no line, and neither block gets the
// delay.
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
	if !rep.Perturbed || rep.PerturbSeed != 3 || rep.PerturbNs != 10*ms {
		t.Errorf("report says perturbed %v, seed %d, %s of delays; want true, 3, 10 ms", rep.Perturbed, rep.PerturbSeed, FormatNs(rep.PerturbNs))
	}
	s := siteAt(t, rep, lock, trace.OpLock)
	var perturb int64
	for _, st := range s.Classes[0].Steps {
		switch {
		case st.State == Perturb.String():
			perturb += st.Ns
			if st.Pos != "" {
				t.Errorf("perturbation step names line %s", st.Pos)
			}
		case abs(st.Ns) > 1*ms+10*us:
			t.Errorf("%s in %s explains %s: more than it ran", st.Pos, st.Goroutine, FormatNs(st.Ns))
		}
	}
	if perturb != 10*ms {
		t.Errorf("perturbation explains %s, want 10 ms", FormatNs(perturb))
	}
	checkAddsUp(t, rep)
	var text strings.Builder
	rep.WriteText(&text, 0)
	for _, want := range []string{"perturbed run (DIVERGO_PERTURB=3)", "+ (divergo's perturbation, DIVERGO_PERTURB) in main/w@perturb.go:10#1  10.0 ms"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text does not say %q:\n%s", want, text.String())
		}
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
	var inProfile int64
	for _, smp := range p.Sample {
		if smp.Location[0].Line[0].Function.Name == profPerturb {
			inProfile += smp.Value[0]
		}
	}
	if inProfile != 10*ms {
		t.Errorf("profile gives %s to %s, want 10 ms", FormatNs(inProfile), profPerturb)
	}
}
