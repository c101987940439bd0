package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
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
	// output, when set, is what of a run's output must not change under
	// instrumentation (see execProg); nil means all of it.
	output func(string) string
}

// realProgs are run in this order, one at a time, from the corpus module
// (sharedCorpus): the machine is small.
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
	// It prints the MD5 of every file under its working directory: the
	// files go generate added are not the program's doing, and the order
	// is a map's.
	{name: "errgroup_pipeline", output: withoutGenerated},
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
// generate (divergo instrument), the overlay build, one recorded run and
// one with recording off whose outputs must be the plain build's, divergo check under checkRuns
// perturbed schedules with no unflagged divergence, divergo diff of two of
// its runs and divergo wait of one.
func TestRealPrograms(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs twenty-eight programs")
	}
	for _, rp := range realProgs {
		t.Run(rp.name, func(t *testing.T) { rp.test(t) })
	}
}

func (rp realProg) test(t *testing.T) {
	b := builtReal(t, rp.name)
	dir, bin, bins := b.dir, b.bin, t.TempDir()
	plain := execProg(t, dir, b.plain, rp.args)

	// The recorded run behaves as the plain one, and its trace is whole.
	tr := filepath.Join(bins, "one.dvt")
	inst := execProg(t, dir, bin, rp.args, "DIVERGO_TRACE="+tr)
	if rp.output != nil {
		plain, inst = rp.output(plain), rp.output(inst)
	}
	if inst != plain {
		t.Errorf("instrumentation changed what the program does:\nplain:\n%s\ninstrumented:\n%s", plain, inst)
	}
	// Goroutines started by library code (errgroup's) have no recorded
	// go statement, so the spawn tree is not checked here.
	readRun(t, tr, "")
	// With recording off every function runs its copy of the original
	// body (INSTRUMENT.md, "Recording off"): the program still does what
	// it did, and writes no trace.
	// (Any file: a recorder that took "off" for a path would write one
	// named off.)
	files := func() []string {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		return names
	}
	filesBefore := files()
	off := execProg(t, dir, bin, rp.args, "DIVERGO_TRACE=off")
	if rp.output != nil {
		off = rp.output(off)
	}
	if off != plain {
		t.Errorf("with DIVERGO_TRACE=off the program does something else:\nplain:\n%s\noff:\n%s", plain, off)
	}
	if filesAfter := files(); !slices.Equal(filesAfter, filesBefore) {
		t.Errorf("DIVERGO_TRACE=off wrote files: %v before, %v after", filesBefore, filesAfter)
	}

	// check: no unflagged divergence, so status 0. Goroutines the programs
	// leave running at exit (the sieves' filters, select6's blocked
	// receiver) are cut off, which compare does not count as unflagged.
	traces := filepath.Join(bins, "traces")
	args := []string{"check", "-n", fmt.Sprint(checkRuns), "-o", traces, "."}
	if len(rp.args) > 0 {
		args = append(append(args, "--"), rp.args...)
	}
	status, stdout, stderr := divergo(t, dir, args...)
	if status != 0 {
		t.Errorf("divergo check: status %d, want 0\n%s%s", status, stdout, stderr)
	}
	if !strings.Contains(stdout, fmt.Sprintf("divergo check: %d runs of .", checkRuns)) {
		t.Errorf("divergo check did not summarise its runs:\n%s", stdout)
	}
	paths := make([]string, checkRuns)
	for k := range paths {
		paths[k] = filepath.Join(traces, fmt.Sprintf("run-%d.dvt", k+1))
	}
	for _, h := range unflaggedSections(t, paths) {
		t.Errorf("unflagged divergence: %s", h)
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

// setupRealIn copies testdata/real/name/main.go into a new module in dir
// that requires x/sync, which some programs import (and not divergo: its
// recorder comes with the overlay), with the go:generate directive
// appended.
func setupRealIn(t *testing.T, dir, name string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "real", name, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	src = append(src, "\n//go:generate divergo instrument ./...\n"...)
	write(t, filepath.Join(dir, "main.go"), src)
	gomod := "module example.com/" + name + "\n\ngo 1.26.8\n\nrequire golang.org/x/sync v0.24.0\n"
	write(t, filepath.Join(dir, "go.mod"), []byte(gomod))
	writeSum(t, dir)
}

// realBuilt is a program of the corpus (diffAllProgs) as the tests take
// it: where it runs, its instrumented build and its plain one.
type realBuilt struct {
	dir, bin string // the program's directory in the corpus module, and its instrumented build
	plain    string // its plain build
}

// corpus is the module of every program of diffAllProgs, built once per
// run of the tests (sharedCorpus).
type corpus struct {
	dir          string // the module
	bins, plains string // the instrumented and the plain build of every command, named by its program
	failed       bool
}

var (
	corpusMu    sync.Mutex
	theCorpus   *corpus
	corpusProgs map[string]bool
)

// sharedCorpus sets up the corpus module, builds every command plain,
// instruments the module (divergo instrument ./..., as go generate would)
// and builds every command with the overlay, once per run of the tests:
// TestRealPrograms, the agreement test and the pairwise diffs take the
// same programs, and instrumenting and building them one module each was
// most of the suite's time (an analysis of the standard library for every
// program). The first caller checks that instrumenting and building
// touched no file of the module. Callers record into directories of their
// own; divergo check in a program's directory takes the module's .divergo
// as it is, since the copies hold everything the program links.
func sharedCorpus(t *testing.T) *corpus {
	t.Helper()
	skipBuilds(t)
	corpusMu.Lock()
	defer corpusMu.Unlock()
	if c := theCorpus; c != nil {
		if c.failed {
			t.Fatal("the corpus module did not build (the first test to build it says why)")
		}
		return c
	}
	c := &corpus{failed: true}
	theCorpus = c
	progs := diffAllProgs()
	corpusProgs = map[string]bool{}
	for _, p := range progs {
		corpusProgs[p.name] = true
	}
	c.dir = filepath.Join(sharedDir, "corpus")
	c.bins, c.plains = filepath.Join(sharedDir, "bin"), filepath.Join(sharedDir, "plain")
	setupCorpus(t, c.dir, progs)
	// The plain programs, built before anything was generated.
	goCmd(t, c.dir, "build", "-o", c.plains+string(filepath.Separator), "./...")
	before := snapshot(t, c.dir)
	if status, _, stderr := divergo(t, c.dir, "instrument", "./..."); status != 0 {
		t.Fatalf("divergo instrument: status %d\n%s", status, stderr)
	}
	goCmd(t, c.dir, "build", "-overlay="+filepath.Join(c.dir, ".divergo", "overlay.json"), "-o", c.bins+string(filepath.Separator), "./...")
	after := snapshot(t, c.dir)
	if len(after) != len(before) {
		t.Errorf("module files: %d before, %d after divergo instrument and the build", len(before), len(after))
	}
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s changed", p)
		}
	}
	c.failed = t.Failed()
	return c
}

// builtReal is the program name of the corpus.
func builtReal(t *testing.T, name string) *realBuilt {
	t.Helper()
	c := sharedCorpus(t)
	if !corpusProgs[name] {
		t.Fatalf("%s is not a program of the corpus (diffAllProgs)", name)
	}
	dir := filepath.Join(c.dir, name)
	if name == realProgs[0].name {
		dir = c.dir
	}
	return &realBuilt{dir: dir, bin: filepath.Join(c.bins, name), plain: filepath.Join(c.plains, name)}
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

// withoutGenerated is a run's output without the lines that name files
// under .divergo/, the rest sorted.
func withoutGenerated(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, ".divergo/") {
			keep = append(keep, l)
		}
	}
	sort.Strings(keep)
	return strings.Join(keep, "\n")
}

// unflaggedSections compares every pair of the traces (a superset of the
// comparisons check makes) and describes their unflagged sections: places
// where two runs took different successors of a block without a TCP.
func unflaggedSections(t *testing.T, paths []string) []string {
	t.Helper()
	var holes []string
	seen := map[string]bool{}
	for i := range paths {
		for j := i + 1; j < len(paths); j++ {
			ra, rb := openTrace(t, paths[i]), openTrace(t, paths[j])
			rep, err := compare.Traces(compare.FromReader(ra), compare.FromReader(rb), compare.Options{})
			ra.Close()
			rb.Close()
			if err != nil {
				t.Fatalf("comparing run %d with run %d: %v", j+1, i+1, err)
			}
			if n := rep.Summary.CutOff; n > 0 {
				t.Logf("runs %d and %d: %d sections cut off at exit", i+1, j+1, n)
			}
			for _, s := range rep.Sections {
				if !s.Unflagged {
					continue
				}
				desc := fmt.Sprintf("%s in %s, goroutine %s", s.TCP.Pos, s.TCP.Func, s.Spawn)
				if seen[desc] {
					continue
				}
				seen[desc] = true
				holes = append(holes, desc+fmt.Sprintf(" (runs %d and %d)", i+1, j+1))
			}
		}
	}
	return holes
}

func openTrace(t *testing.T, path string) *trace.Reader {
	t.Helper()
	r, err := trace.Open(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return r
}
