package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
)

// TestPerturbFlowExplainsProgram follows the README's flow, divergo run
// -perturb then divergo wait, on a program whose goroutines contend for a
// mutex and an RWMutex at every step, so that divergo's delays fall on
// every path. Run 1 is the program as it runs, unperturbed; the waits of
// the perturbed run 2 have divergo's delays taken out before they are
// explained: no step is divergo's, and the header says once how long it
// delayed the goroutines, in all and in the waits (not "+ (divergo's
// perturbation) ... 5.73 s" as the top step of a class).
func TestPerturbFlowExplainsProgram(t *testing.T) {
	t.Parallel()
	for _, prog := range []string{"contention", "rwhammer"} {
		t.Run(prog, func(t *testing.T) {
			dir := setup(t, prog, false)
			status, _, errs := divergo(t, dir, "run", "-n", "2", "-perturb", "-o", "traces", ".")
			if status != 0 {
				t.Fatalf("divergo run: status %d\n%s", status, errs)
			}
			if strings.Contains(errs, "run 1: exit status 0; trace "+filepath.Join(dir, "traces", "run-1.dvt")+";") {
				t.Errorf("run 1 was perturbed:\n%s", errs)
			}
			for k, tr := range []string{"run-1.dvt", "run-2.dvt"} {
				path := filepath.Join(dir, "traces", tr)
				r, err := trace.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				_, perturbed := r.Perturbed()
				r.Close()
				if perturbed != (k == 1) {
					t.Fatalf("%s perturbed: %v", tr, perturbed)
				}
				status, text, errs := divergo(t, dir, "wait", "-steps", "0", path)
				if status != 0 {
					t.Fatalf("divergo wait %s: status %d\n%s", tr, status, errs)
				}
				if strings.Contains(text, "(divergo") || strings.Contains(text, "perturbation") {
					t.Errorf("a step of %s is divergo's:\n%s", tr, text)
				}
				header := "divergo delayed goroutines"
				if n := strings.Count(text, header); n != k {
					t.Errorf("%s says %q %d times, want %d:\n%s", tr, header, n, k, text)
				}
				status, js, errs := divergo(t, dir, "wait", "-json", path)
				if status != 0 {
					t.Fatalf("divergo wait -json %s: status %d\n%s", tr, status, errs)
				}
				var rep waittime.Report
				if err := json.Unmarshal([]byte(js), &rep); err != nil {
					t.Fatalf("%s: %v", tr, err)
				}
				checkNoPerturbStep(t, tr, &rep, k == 1)
			}
		})
	}
}

// checkNoPerturbStep checks that no step of rep is divergo's, that each
// class's steps and unexplained time add up to its waiting time, the
// program's (divergo's share is out of it), and that a perturbed run's report has delays, in all and in its
// waits, and an unperturbed one none.
func checkNoPerturbStep(t *testing.T, name string, rep *waittime.Report, perturbed bool) {
	t.Helper()
	var share int64
	for _, s := range rep.Sites {
		for i, c := range s.Classes {
			share += c.PerturbNs
			sum := c.UnexplainedNs
			for _, st := range c.Steps {
				sum += st.Ns
				if st.State == waittime.Perturb.String() {
					t.Errorf("%s: %s %s class %d has a perturbation step of %s", name, s.Pos, s.Op, i+1, waittime.FormatNs(st.Ns))
				}
			}
			if sum != c.TotalNs {
				t.Errorf("%s: %s %s class %d adds up to %d, waiting time %d", name, s.Pos, s.Op, i+1, sum, c.TotalNs)
			}
		}
	}
	if share != rep.WaitPerturbNs {
		t.Errorf("%s: classes hold %d ns of divergo's delays, the header %d", name, share, rep.WaitPerturbNs)
	}
	if perturbed != rep.Perturbed || perturbed != (rep.PerturbNs > 0) || !perturbed && share != 0 {
		t.Errorf("%s: perturbed %v, report says perturbed %v with %s of delays, %s in waits", name, perturbed, rep.Perturbed,
			waittime.FormatNs(rep.PerturbNs), waittime.FormatNs(share))
	}
}
