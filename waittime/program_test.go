package waittime

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestProgram runs testdata/wtprog, the scenarios of this package's tests as
// a real Go program with controlled durations, instrumented by divergo, and
// checks the waiting-time analysis of its trace: the paper's expansion
// example, the barrier, the fork-join, the pipeline and the lock.
func TestProgram(t *testing.T) {
	rep := runProgram(t)
	const pkg = "example.com/wtprog."
	site := func(fn, op string) *Site {
		t.Helper()
		if !strings.HasPrefix(fn, "(") {
			fn = pkg + fn
		}
		for _, s := range rep.Sites {
			if s.Func == fn && s.Op == op {
				return s
			}
		}
		t.Fatalf("no %s site in %s", op, fn)
		return nil
	}
	// byFunc sums a site's explaining steps by the function of their block.
	byFunc := func(s *Site) map[string]int64 {
		m := map[string]int64{}
		for _, c := range s.Classes {
			for _, st := range c.Steps {
				m[strings.TrimPrefix(st.Func, pkg)] += st.Ns
			}
		}
		return m
	}
	// explains checks that the steps of at least 5 ms are exactly want
	// (signed ms). A sleep never ends early but may end late on a busy
	// machine: each may be up to half again as long, plus 5 ms.
	explains := func(s *Site, want map[string]float64) {
		t.Helper()
		got := byFunc(s)
		for fn, ns := range got {
			if _, ok := want[fn]; !ok && math.Abs(float64(ns)) >= 5e6 {
				t.Errorf("%s %s: %s explains %s, want nothing", s.Pos, s.Op, fn, FormatNs(ns))
			}
		}
		for fn, ms := range want {
			g := float64(got[fn]) / 1e6
			if g*ms < 0 || math.Abs(g) < 0.95*math.Abs(ms) || math.Abs(g) > 1.5*math.Abs(ms)+5 {
				t.Errorf("%s %s: %s explains %.1f ms, want %.0f ms", s.Pos, s.Op, fn, g, ms)
			}
		}
	}
	share := func(s *Site, fn string) float64 { return float64(byFunc(s)[fn]) / float64(s.TotalNs) }

	// Figure 4: B2 = A1 - B1, C2 = A1 + B3 - C1, A3 = B3 + C3 - A2.
	explains(site("fig4$2", "recv"), map[string]float64{"a1": 100, "b1": -40})
	explains(site("fig4$3", "recv"), map[string]float64{"a1": 100, "b3": 50, "c1": -30})
	explains(site("fig4$1", "recv"), map[string]float64{"b3": 50, "c3": 50, "a2": -30})

	// The barrier: one class, the long loop. A real run has outliers (a
	// sleep that overran), which form small classes of their own.
	b := site("(*example.com/wtprog.barrier).wait", "cond.wait")
	if top := b.Classes[0]; float64(top.TotalNs) < 0.8*float64(b.TotalNs) {
		t.Errorf("barrier: the largest of %d classes holds %s of %s", len(b.Classes), FormatNs(top.TotalNs), FormatNs(b.TotalNs))
	}
	if got := share(b, "loop10"); got < 0.9 {
		t.Errorf("barrier: %.2f of the waiting time attributed to the long loop, want >= 0.9", got)
	}
	for _, c := range []struct {
		s    *Site
		slow string
	}{
		{site("forkJoin", "wg.wait"), "slow"},
		{site("pipeline$1", "send"), "square"},
		{site("pipeline$3", "recv"), "square"},
		{site("lockContention$1", "lock"), "longSection"},
	} {
		if got := share(c.s, c.slow); got < 0.85 {
			t.Errorf("%s %s in %s: %.2f attributed to %s, want >= 0.85", c.s.Pos, c.s.Op, c.s.Func, got, c.slow)
		}
	}
	if t.Failed() {
		var buf strings.Builder
		rep.WriteText(&buf, 6)
		t.Log(buf.String())
	}
}

// runProgram instruments, builds and runs testdata/wtprog in a module of
// its own that requires divergo through a replace of this repository, and
// analyses its trace.
func runProgram(t *testing.T) *Report {
	t.Helper()
	_, tr := recordProgram(t, "wtprog")
	r, err := trace.Open(tr)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep, err := Analyze(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// recordProgram builds divergo, instruments, builds and runs
// testdata/name in a module of its own that requires divergo through a
// replace of this repository, with extra in the environment of divergo
// run. It returns the divergo binary and the trace.
func recordProgram(t *testing.T, name string, extra ...string) (bin, tracePath string) {
	t.Helper()
	bin, traces := recordRuns(t, name, extra)
	return bin, traces[0]
}

// recordRuns is recordProgram with one run per environment given.
func recordRuns(t *testing.T, name string, envs ...[]string) (bin string, traces []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds divergo, instruments, builds and runs a program")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin = filepath.Join(dir, "divergo")
	env := append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-mod=mod", "DIVERGO_TRACE=")
	build := exec.Command("go", "build", "-o", bin, "./cmd/divergo")
	build.Dir, build.Env = root, env
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building divergo: %v\n%s", err, out)
	}
	mod := filepath.Join(dir, name)
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", name, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/" + name + "\n\ngo 1.26.8\n"
	for name, data := range map[string][]byte{"main.go": src, "go.sum": sum, "go.mod": []byte(gomod)} {
		if err := os.WriteFile(filepath.Join(mod, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, extra := range envs {
		out := filepath.Join(dir, fmt.Sprintf("traces-%d", i))
		run := exec.Command(bin, "run", "-n", "1", "-o", out, ".")
		run.Dir, run.Env = mod, append(env, extra...)
		if out, err := run.CombinedOutput(); err != nil {
			t.Fatalf("divergo run: %v\n%s", err, out)
		}
		traces = append(traces, filepath.Join(out, "run-1.dvt"))
	}
	return bin, traces
}
