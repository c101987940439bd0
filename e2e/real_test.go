package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/trace"
)

// realProg is a concurrent program nobody on the project wrote, copied
// into testdata/real/NAME/main.go (docs/REALPROGRAMS.md says where from
// and what each exercises).
type realProg struct {
	name string
	args []string // program arguments, for the plain run, the recorded run and check
}

// realProgs are run in this order, one at a time: each builds three times
// (plain, instrumented, and check's own build), and the machine is small.
var realProgs = []realProg{
	{name: "sieve1"},
	{name: "sieve2"},
	// An argument makes the power series programs print their results,
	// which gives the output comparison something to compare.
	{name: "powser1", args: []string{"print"}},
	{name: "powser2", args: []string{"print"}},
	{name: "fifo"},
	// 10000 goroutines by default: 1000 keep the comparisons short.
	{name: "goroutines", args: []string{"1000"}},
	{name: "nonblock"},
	{name: "select"},
	{name: "select3"},
	{name: "select4"},
	{name: "select6"},
	{name: "select7"},
	{name: "select8"},
	{name: "sendstmt"},
	// 100000 iterations by default: under perturbation each wrapper may
	// sleep, and timer granularity makes that half a minute.
	{name: "doubleselect", args: []string{"-n", "500"}},
	{name: "chancap"},
	{name: "closedchan"},
	{name: "semaphore"},
	{name: "errgroup_parallel"},
	{name: "singleflight"},
	{name: "typeparam_chans"},
	{name: "typeparam_orderedmap"},
	{name: "typeparam_metrics"},
	{name: "typeparam_lockable"},
	{name: "ken_chan"},
	{name: "fixedbugs_bug512"},
	{name: "fixedbugs_issue9321"},
}

// checkRuns is the number of perturbed runs check makes of each program.
const checkRuns = 4

// TestRealPrograms takes each program through the whole workflow: go
// generate (divergo instrument), the overlay build, one recorded run whose
// output must be the plain build's, divergo check under checkRuns
// perturbed schedules with no unflagged divergence, divergo diff of two of
// its runs and divergo wait of one.
func TestRealPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs twenty-seven programs")
	}
	for _, rp := range realProgs {
		t.Run(rp.name, func(t *testing.T) { rp.test(t) })
	}
}

func (rp realProg) test(t *testing.T) {
	dir := setupReal(t, rp.name)
	bins := t.TempDir()

	// The plain program, built before anything was generated.
	plainBin := filepath.Join(bins, "plain")
	goCmd(t, dir, "build", "-o", plainBin, ".")
	plain := execProg(t, dir, plainBin, rp.args)

	before := snapshot(t, dir)
	goCmd(t, dir, "generate", "./...")
	overlay := filepath.Join(dir, ".divergo", "overlay.json")
	bin := filepath.Join(bins, "prog")
	goCmd(t, dir, "build", "-overlay="+overlay, "-o", bin, ".")
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("module files: %d before, %d after go generate and build", len(before), len(after))
	}
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s changed", p)
		}
	}

	// The recorded run behaves as the plain one, and its trace is whole.
	tr := filepath.Join(bins, "one.dvt")
	inst := execProg(t, dir, bin, rp.args, "DIVERGO_TRACE="+tr)
	if inst != plain {
		t.Errorf("instrumentation changed what the program does:\nplain:\n%s\ninstrumented:\n%s", plain, inst)
	}
	// Goroutines started by library code (errgroup's) have no recorded
	// go statement, so the spawn tree is not checked here.
	readRun(t, tr, "")

	// check: a status of 1 is only acceptable when every unflagged
	// section it can have seen is the end of a goroutine the program
	// left running (see truncated).
	traces := filepath.Join(bins, "traces")
	args := []string{"check", "-n", fmt.Sprint(checkRuns), "-o", traces, "."}
	if len(rp.args) > 0 {
		args = append(append(args, "--"), rp.args...)
	}
	status, stdout, stderr := divergo(t, dir, args...)
	if status != 0 && status != 1 {
		t.Fatalf("divergo check: status %d\n%s%s", status, stdout, stderr)
	}
	if !strings.Contains(stdout, fmt.Sprintf("divergo check: %d runs of .", checkRuns)) {
		t.Errorf("divergo check did not summarise its runs:\n%s", stdout)
	}
	paths := make([]string, checkRuns)
	for k := range paths {
		paths[k] = filepath.Join(traces, fmt.Sprintf("run-%d.dvt", k+1))
	}
	holes, truncs := unflaggedSections(t, paths)
	for _, h := range holes {
		t.Errorf("unflagged divergence: %s", h)
	}
	for _, s := range truncs {
		t.Logf("not a hole: %s", s)
	}
	if status == 1 && len(truncs) == 0 {
		t.Errorf("divergo check found unflagged divergences that comparing the runs again does not:\n%s", stdout)
	}

	// diff and wait on check's traces: the reports, and nothing on stderr.
	status, stdout, stderr = divergo(t, dir, "diff", paths[0], paths[1])
	if (status != 0 && status != 1) || stderr != "" || stdout == "" {
		t.Errorf("divergo diff: status %d, stderr:\n%s\nstdout:\n%.400s", status, stderr, stdout)
	}
	status, stdout, stderr = divergo(t, dir, "wait", paths[0])
	if status != 0 || stderr != "" || stdout == "" {
		t.Errorf("divergo wait: status %d, stderr:\n%s\nstdout:\n%.400s", status, stderr, stdout)
	}
}

// setupReal copies testdata/real/name/main.go into a new module that
// requires divergo through a replace of the repository (and x/sync, which
// some programs import), with the go:generate directive appended.
func setupReal(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "real", name, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	src = append(src, "\n//go:generate divergo instrument ./...\n"...)
	write(t, filepath.Join(dir, "main.go"), src)
	gomod := "module example.com/" + name + "\n\ngo 1.26.8\n\nrequire (\n\tgithub.com/divergo/divergo v0.0.0\n\tgolang.org/x/sync v0.24.0\n)\n\nreplace github.com/divergo/divergo => " + repoRoot + "\n"
	write(t, filepath.Join(dir, "go.mod"), []byte(gomod))
	sum, err := os.ReadFile(filepath.Join(repoRoot, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.sum"), sum)
	return dir
}

// execProg runs bin in dir and returns what it did: exit status, standard
// output and standard error.
func execProg(t *testing.T, dir, bin string, args []string, extra ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env(extra...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return fmt.Sprintf("exit %d\nstdout:\n%sstderr:\n%s", code, stdout.Bytes(), stderr.Bytes())
}

// unflaggedSections compares every pair of the traces (a superset of the
// comparisons check makes) and splits their unflagged sections into holes,
// where two runs took different successors of a block without a TCP, and
// truncations (see truncated).
func unflaggedSections(t *testing.T, paths []string) (holes, truncs []string) {
	t.Helper()
	seen := map[string]bool{}
	for i := range paths {
		for j := i + 1; j < len(paths); j++ {
			ra, rb := openTrace(t, paths[i]), openTrace(t, paths[j])
			endedA, endedB := endedSet(ra), endedSet(rb)
			rep, err := compare.Traces(compare.FromReader(ra), compare.FromReader(rb), compare.Options{})
			ra.Close()
			rb.Close()
			if err != nil {
				t.Fatalf("comparing run %d with run %d: %v", j+1, i+1, err)
			}
			for _, s := range rep.Sections {
				if !s.Unflagged {
					continue
				}
				desc := fmt.Sprintf("%s in %s, goroutine %s", s.TCP.Pos, s.TCP.Func, s.Spawn)
				trunc := truncated(s, endedA[s.Goroutine], endedB[s.GoroutineB])
				key := fmt.Sprint(trunc, desc)
				if seen[key] {
					continue
				}
				seen[key] = true
				if trunc {
					truncs = append(truncs, desc+fmt.Sprintf(" (runs %d and %d: one goroutine stopped there unfinished)", i+1, j+1))
				} else {
					holes = append(holes, desc+fmt.Sprintf(" (runs %d and %d)", i+1, j+1))
				}
			}
		}
	}
	return holes, truncs
}

// truncated tells whether an unflagged section is the end of a goroutine
// that never finished rather than a choice between successors: one side
// recorded nothing after the common block, the goroutine of that side did
// not end (it was blocked, or still running, when main returned), and the
// section never converged, or is the whole goroutine (it was cut off
// before its first block). Go's test programs leave such goroutines behind
// on purpose (the sieves' filters, select6's blocked receiver); how far
// each got before the process exited is the schedule's doing, and no
// branch in the program decided it.
func truncated(s compare.Section, endedA, endedB bool) bool {
	if !s.Unresolved && s.TCP.Block != -1 {
		return false
	}
	return (s.A.Blocks == 0 && !endedA) || (s.B.Blocks == 0 && !endedB)
}

func openTrace(t *testing.T, path string) *trace.Reader {
	t.Helper()
	r, err := trace.Open(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return r
}

// endedSet is the recorder ids of the goroutines that finished.
func endedSet(r *trace.Reader) map[uint64]bool {
	out := map[uint64]bool{}
	for _, g := range r.Sorted() {
		if g.Ended {
			out[g.ID] = true
		}
	}
	return out
}

// TestTruncated: only a side that recorded nothing, of a goroutine that
// never ended, in a section that never converged (or is the whole
// goroutine), makes an unflagged section a truncation.
func TestTruncated(t *testing.T) {
	at := compare.Point{Pos: "main.go:27", Block: 7}
	whole := compare.Point{Pos: "-", Block: -1}
	none, some := compare.Side{}, compare.Side{Blocks: 2}
	for _, tc := range []struct {
		name           string
		s              compare.Section
		endedA, endedB bool
		want           bool
	}{
		{"b stopped unfinished", compare.Section{TCP: at, Unresolved: true, A: some, B: none}, true, false, true},
		{"a stopped unfinished", compare.Section{TCP: at, Unresolved: true, A: none, B: some}, false, true, true},
		{"b returned", compare.Section{TCP: at, Unresolved: true, A: some, B: none}, false, true, false},
		{"both went on", compare.Section{TCP: at, Unresolved: true, A: some, B: some}, false, false, false},
		{"converged", compare.Section{TCP: at, A: some, B: none}, false, false, false},
		{"b never started", compare.Section{TCP: whole, A: some, B: none}, false, false, true},
		{"b started elsewhere", compare.Section{TCP: whole, A: some, B: some}, false, false, false},
	} {
		if got := truncated(tc.s, tc.endedA, tc.endedB); got != tc.want {
			t.Errorf("%s: truncated = %v, want %v", tc.name, got, tc.want)
		}
	}
}
