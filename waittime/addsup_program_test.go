package waittime

import (
	"fmt"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestAddsUpProgram runs testdata/addsup twice, plain and perturbed, and
// checks the waits that once did not add up, and those of perturbed
// runs, on a real program: the child that waits for a goroutine
// started after its parent's computation, the waiter released by
// time.AfterFunc's goroutine, and, perturbed, a mutex-heavy fork-join whose
// waiting is divergo's own delays, which no line of the program may carry.
//
// What it checks depends on how the machine ran the program's goroutines:
// under CI's load (the e2e tests beside it) a run can fall short of the
// figures (2 of 5 CI runs once, each time another check, all
// passing alone). So a run that falls short is recorded again, up to three
// times, and the test fails only when every run does.
func TestAddsUpProgram(t *testing.T) {
	var problems []string
	for attempt := 1; attempt <= 3; attempt++ {
		if problems = addsUpRun(t); len(problems) == 0 {
			return
		}
		t.Logf("run %d fell short:\n%s", attempt, strings.Join(problems, "\n"))
	}
	t.Errorf("three runs fell short; the last:\n%s", strings.Join(problems, "\n"))
}

// addsUpRun records testdata/addsup plain and perturbed once and returns
// what fell short, with both reports.
func addsUpRun(t *testing.T) (problems []string) {
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	_, traces := recordRuns(t, "addsup", nil, []string{"DIVERGO_PERTURB=5"})
	reps := make([]*Report, len(traces))
	for i, path := range traces {
		r, err := trace.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		reps[i], err = Analyze(r, Options{})
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	const pkg = "example.com/addsup."
	site := func(rep *Report, fn, op string) *Site {
		t.Helper()
		for _, s := range rep.Sites {
			if s.Func == pkg+fn && s.Op == op {
				return s
			}
		}
		t.Fatalf("no %s site in %s", op, fn)
		return nil
	}
	plain, perturbed := reps[0], reps[1]
	if plain.Perturbed || !perturbed.Perturbed || perturbed.PerturbSeed != 5 || perturbed.PerturbNs == 0 {
		fail("perturbed: plain %v, perturbed %v seed %d with %s of delays", plain.Perturbed, perturbed.Perturbed, perturbed.PerturbSeed, FormatNs(perturbed.PerturbNs))
	}
	for _, rep := range reps {
		var total, explained float64
		for _, s := range rep.Sites {
			for _, c := range s.Classes {
				if c.Explained < 0 || c.Explained > 1 {
					fail("%s %s: %g explained", s.Pos, s.Op, c.Explained)
				}
				own := float64(c.TotalNs)
				total += own
				explained += c.Explained * own
			}
		}
		if explained < DefaultTolerance*total {
			fail("the classes explain %.1f%% of their waiting time, want %.0f%% or more", 100*explained/total, 100*DefaultTolerance)
		}
	}

	// a waits for b, which main starts after 3M iterations of spin: main's
	// spin explains a's wait.
	s := site(plain, "spawnOrder$1", "recv")
	if c := s.Classes[0]; c.Explained < DefaultTolerance {
		fail("spawnOrder's child: %.0f%% explained", 100*c.Explained)
	}
	if f := spinShare(s, "main"); f < 0.8 {
		fail("main's spin explains %.2f of spawnOrder's child's wait, want most", f)
	}
	// main waits for the AfterFunc goroutine: 20 ms before it exists, then
	// its spin.
	s = site(plain, "afterFunc", "recv")
	var outside int64
	for _, st := range s.Classes[0].Steps {
		if st.State == Outside.String() {
			outside += st.Ns
		}
	}
	if c := s.Classes[0]; c.Explained < DefaultTolerance || outside < 15e6 {
		fail("afterFunc: %.0f%% explained, %s before the releaser started", 100*c.Explained, FormatNs(outside))
	}

	// Perturbed, the workers' lives are mostly divergo's delays: the
	// wg.Wait that waits for them has them as its classes' PerturbNs, in
	// no step, and the lines of the program keep only what they ran.
	s = site(perturbed, "mutexes", "wg.wait")
	var delays, lines int64
	for _, c := range s.Classes {
		delays += c.PerturbNs
		for _, st := range c.Steps {
			switch {
			case st.State == Perturb.String():
				fail("a step of the perturbed wg.wait is divergo's: %+v", st)
			case st.Pos != "" && st.State == Running.String():
				lines += abs(st.Ns)
			}
		}
	}
	// Lines are compared with the delays, not with the wait: under load
	// the workers' own lines run longer (a CI run with the e2e tests
	// beside it: delays 24.3 ms of 30.8, lines 15.1 with their negative
	// steps), while delays that leaked onto lines would leave the lines at
	// least as long as the delays.
	if float64(delays) < 0.4*float64(s.TotalNs+delays) || lines >= delays {
		fail("perturbed wg.wait of %s: %s on divergo's delays, %s on lines", FormatNs(s.TotalNs), FormatNs(delays), FormatNs(lines))
	}
	if len(problems) > 0 {
		for _, rep := range reps {
			var b strings.Builder
			rep.WriteText(&b, 6)
			problems = append(problems, b.String())
		}
	}
	return problems
}

// spinShare is the share of a site's waiting time on lines of spin run by
// goroutine g.
func spinShare(s *Site, g string) float64 {
	var ns int64
	for _, c := range s.Classes {
		for _, st := range c.Steps {
			if strings.HasSuffix(st.Func, ".spin") && st.Goroutine == g {
				ns += st.Ns
			}
		}
	}
	return float64(ns) / float64(s.TotalNs)
}
