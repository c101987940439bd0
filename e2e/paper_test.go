package e2e

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The papers' figures, end to end: the Go ports in testdata/ are
// instrumented, built and run under perturbed schedules (DIVERGO_PERTURB)
// until the interleavings the paper discusses have appeared — the program
// and its input never change, only the schedule — and the traces of real
// runs are corresponded.

// runSeed runs the program once with schedule perturbation and returns the
// trace's path and the program's output.
func (p *program) runSeed(t *testing.T, seed int) (string, string) {
	t.Helper()
	tr := filepath.Join(t.TempDir(), fmt.Sprintf("seed-%d.dvt", seed))
	cmd := exec.Command(p.bin)
	cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+tr, fmt.Sprintf("DIVERGO_PERTURB=%d", seed))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("running with seed %d: %v\n%s", seed, err, stderr.Bytes())
	}
	return tr, stdout.String()
}

// paperLabels names the blocks of the figures' functions as the paper does,
// by the order of their kinds in each function.
var paperLabels = map[string][]string{
	"main":  {"A0-A1", "A1'", "A1''", "A2-A3"}, // entry, a split after each spawn
	"task0": {"B0", "B1-B4", "B5", "B6-B7", "A2(task0)"},
	"task1": {"C0", "C1-C3", "C4", "C5", "C4(i++)", "A2(task1)"},
}

func labels(g *tbb.Graph, names map[string][]string) map[int]string {
	out := map[int]string{}
	for _, f := range g.Funcs {
		name := f.Name[strings.LastIndexByte(f.Name, '.')+1:]
		for i, b := range f.Blocks {
			if i < len(names[name]) {
				out[b] = names[name][i]
			} else {
				out[b] = fmt.Sprintf("%s:%s", name, g.Blocks[b].Kind)
			}
		}
	}
	return out
}

// correspondence corresponds two trace files and renders it as Figure 1c
// does: per goroutine, the equal stretches (=) and the divergent sections
// (≠) with what each run did in them, then the report.
func correspondence(t *testing.T, pathA, pathB string, names map[string][]string) (string, *compare.Report) {
	t.Helper()
	ra, err := trace.Open(pathA)
	if err != nil {
		t.Fatal(err)
	}
	defer ra.Close()
	rb, err := trace.Open(pathB)
	if err != nil {
		t.Fatal(err)
	}
	defer rb.Close()
	lab := labels(ra.Graph(), names)
	var mu sync.Mutex
	steps := map[uint64][]compare.Step{}
	rep, err := compare.Traces(compare.FromReader(ra), compare.FromReader(rb), compare.Options{Parallel: 1, Observe: func(s compare.Step) {
		mu.Lock()
		defer mu.Unlock()
		if s.Section != nil {
			c := *s.Section
			s.Section = &c
		}
		steps[s.Goroutine] = append(steps[s.Goroutine], s)
	}})
	if err != nil {
		t.Fatal(err)
	}
	name := func(s compare.Step) string {
		l := lab[s.Block]
		switch s.Token {
		case "block", "call":
			return l
		case "exit":
			return "ret(" + l + ")"
		}
		return s.Token
	}
	var buf bytes.Buffer
	for _, pr := range rep.Goroutines.Matched {
		fmt.Fprintf(&buf, "%s\n", pr.Spawn)
		var same, sa, sb []string
		flush := func() {
			if len(same) > 0 {
				fmt.Fprintf(&buf, "  = %s\n", strings.Join(same, " "))
				same = nil
			}
		}
		for _, s := range steps[pr.A] {
			switch s.Kind {
			case compare.StepSame:
				same = append(same, name(s))
			case compare.StepLockOrder:
				same = append(same, "outcome(lock order differs)")
			case compare.StepA:
				flush()
				sa = append(sa, name(s))
			case compare.StepB:
				flush()
				sb = append(sb, name(s))
			case compare.StepSection:
				flush()
				sec := s.Section
				kind := sec.TCP.Kind
				if sec.Unflagged {
					kind = "unflagged"
				}
				fmt.Fprintf(&buf, "  ≠ %s at %s (%s) → %s: a [%s] b [%s] fanout %d tcp %d d %g\n",
					kind, lab[sec.TCP.Block], sec.TCP.Pos, sec.CP.Pos, strings.Join(sa, " "), strings.Join(sb, " "),
					sec.Fanout, sec.TCPDistance, sec.Distance)
				sa, sb = nil, nil
			}
		}
		flush()
	}
	fmt.Fprintf(&buf, "distance %g, %d sections, %d unflagged, %d lock-order notes\n",
		rep.Distance, len(rep.Sections), rep.Summary.Unflagged, rep.Summary.LockOrder)
	return buf.String(), rep
}

func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update to accept):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// TestFigure1Correspondence: run under the two interleavings of Figure 1b
// (task 1 takes the lock first, so task 0 reads x == 2 and task 1 loops
// once; or task 0 first, so task 0 takes the else branch and task 1 loops
// twice), the two runs correspond exactly as in Figure 1c: equal sections
// (1)(2)(3)(4)(6)(8), the if at B4 diverging with B5 against B6–B7 (5), and
// the extra loop iteration (7) on one side only.
func TestFigure1Correspondence(t *testing.T) {
	t.Parallel()
	p := prepare(t, "fig1a", false)
	runs := map[bool]string{} // task 1 locked first (execution 1 of Figure 1b) → trace
	for seed := 1; seed <= 60 && len(runs) < 2; seed++ {
		tr, out := p.runSeed(t, seed)
		var j, k, sum int
		if _, err := fmt.Sscanf(out, "j %d k %d sum %d", &j, &k, &sum); err != nil {
			t.Fatalf("output %q: %v", out, err)
		}
		if _, seen := runs[k == 0]; !seen {
			runs[k == 0] = tr
		}
	}
	if len(runs) < 2 {
		t.Fatal("60 perturbed runs showed one interleaving only")
	}
	got, rep := correspondence(t, runs[true], runs[false], paperLabels)
	goldenFile(t, "figure1.golden", got)
	if rep.Distance != 7 || len(rep.Sections) != 2 || rep.Summary.Unflagged != 0 {
		t.Errorf("distance %g with %d sections (%d unflagged); want 7 with 2 (0)", rep.Distance, len(rep.Sections), rep.Summary.Unflagged)
	}
	// Each run against itself, and against another run of the same
	// interleaving, is at distance 0.
	self, _ := correspondence(t, runs[true], runs[true], paperLabels)
	if !strings.HasPrefix(self[strings.LastIndex(self[:len(self)-1], "\n")+1:], "distance 0, 0 sections") {
		t.Errorf("a run against itself:\n%s", self)
	}
}

// TestFigure2Correspondence: task 0 loops i times, i being the x it read
// (1 to 4, by the order of the three tasks at the lock), and each iteration
// branches on the parity of i-j. As §8 of the paper says, corresponding
// iterations in order is a bad choice when i is even in one run and odd in
// the other — every corresponded iteration's if diverges — and a good one
// when both are even or both odd: only the extra iterations differ.
func TestFigure2Correspondence(t *testing.T) {
	t.Parallel()
	p := prepare(t, "fig2", false)
	byI := map[int]string{} // i → a trace where task 0 read it
	for seed := 1; seed <= 60 && len(byI) < 4; seed++ {
		tr, out := p.runSeed(t, seed)
		var evens, odds, k int
		if _, err := fmt.Sscanf(out, "evens %d odds %d k %d", &evens, &odds, &k); err != nil {
			t.Fatalf("output %q: %v", out, err)
		}
		if i := evens + odds; byI[i] == "" {
			byI[i] = tr
		}
	}
	mixed, sameParity := 0, 0
	for ia, a := range byI {
		for ib, b := range byI {
			if ia >= ib {
				continue
			}
			_, rep := correspondence(t, a, b, nil)
			branches, loops := 0, 0
			for _, s := range rep.Sections {
				switch s.TCP.Kind {
				case "branch":
					branches++
				case "loop":
					loops++
				default:
					t.Errorf("i=%d against i=%d: a section at a %s TCP", ia, ib, s.TCP.Kind)
				}
			}
			wantBranches := 0
			if ia%2 != ib%2 {
				wantBranches = min(ia, ib) // every corresponded iteration diverges
				mixed++
			} else {
				sameParity++
			}
			if branches != wantBranches || loops != 1 || rep.Summary.Unflagged != 0 {
				t.Errorf("i=%d against i=%d: %d branch and %d loop sections (%d unflagged); want %d and 1 (0)",
					ia, ib, branches, loops, rep.Summary.Unflagged, wantBranches)
			}
		}
	}
	if mixed == 0 || sameParity == 0 {
		t.Fatalf("60 perturbed runs gave task 0 only i in %v: no pair of each parity kind", keys(byI))
	}
}

func keys(m map[int]string) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	return out
}
