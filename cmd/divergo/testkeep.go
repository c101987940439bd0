package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/divergo/divergo/flaky"
	"github.com/divergo/divergo/internal/trace"
)

// keepDir is where divergo test keeps a flaky test's failing and passing
// runs, below the directory it was run in: the rerun and diff commands it
// prints work from there. Not below -o DIR: -explain, which has no -o,
// gives a directory's report as the invocation that made it did, kept
// runs included, and the directories it reads may be many.
//
// Each invocation's runs are kept in a directory of their own,
// keepDir/ID, so that the commands an earlier report printed still find
// their files after the next invocation: a report is often read, or
// pasted into an issue, after the next run. ID is a hash of the runs'
// records (runsID): -explain of an invocation's runs keeps them where the
// invocation did and gives its very report, while another invocation's
// runs, whose outputs, timings and traces differ, go elsewhere.
// keepDir/latest links to the newest.
const keepDir = "divergo-test"

// keepLatest is the link in keepDir to the newest invocation's directory.
const keepLatest = "latest"

// keepPlace is the directory below keepDir of the runs of one
// invocation, made when their first flaky test is kept: an invocation
// that finds none leaves nothing behind.
type keepPlace struct {
	id  string // runsID of the runs
	dir string // absolute; "" until made
}

// newKeepPlace is the place of the runs recs, of every package.
func newKeepPlace(recs []*runRecord) *keepPlace { return &keepPlace{id: runsID(recs)} }

// runsID is a short hash of the records of the runs recs, in the order
// of their package and index, and of the size of each one's trace: the
// records hold each run's seed, outcomes and everything it printed,
// timings included, so two invocations' runs share an ID only when they
// printed the same, byte for byte, and left traces of one size.
func runsID(recs []*runRecord) string {
	sorted := slices.Clone(recs)
	slices.SortFunc(sorted, func(a, b *runRecord) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Run, b.Run))
	})
	h := sha256.New()
	for _, rec := range sorted {
		b, _ := json.Marshal(rec) // a record always encodes
		h.Write(b)
		var size int64 = -1
		if fi, err := os.Stat(rec.tracePath()); err == nil {
			size = fi.Size()
		}
		fmt.Fprintf(h, "\n%d\n", size)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// claim returns the directory, made the first time.
func (pl *keepPlace) claim() (string, error) {
	if pl.dir != "" {
		return pl.dir, nil
	}
	root, err := filepath.Abs(keepDir)
	if err != nil {
		return "", fmt.Errorf("the directory to keep runs in: %w", err)
	}
	dir := filepath.Join(root, pl.id)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", fmt.Errorf("making %s: %w", displayPath(dir), err)
	}
	pl.dir = dir
	linkLatest(root, pl.id)
	return dir, nil
}

// linkLatest points root/latest at name, replacing it in one rename. It
// is a convenience: the report prints the directory itself, so a link
// that cannot be made (a file system without links) is no error.
func linkLatest(root, name string) {
	tmp := filepath.Join(root, fmt.Sprintf(".latest-%d", os.Getpid()))
	os.Remove(tmp)
	if os.Symlink(name, tmp) != nil {
		return
	}
	if os.Rename(tmp, filepath.Join(root, keepLatest)) != nil {
		os.Remove(tmp)
	}
}

// keeper keeps, for each flaky test, a failing run's trace and its
// schedule (trace.Schedule) and a passing run's trace, in a directory of
// the test's below keepDir, and makes the commands that rerun the failing
// run (replaying its schedule, DIVERGO_REPLAY) and diff it against the
// passing one.
type keeper struct {
	root  string // absolute
	paths []string
	rep   *testReport
}

// newKeeper keeps the runs of rep, whose traces are paths, in the
// invocation's directory pl.
func newKeeper(rep *testReport, pl *keepPlace, paths []string) (*keeper, error) {
	dir, err := pl.claim()
	if err != nil {
		return nil, err
	}
	return &keeper{root: filepath.Join(dir, rep.keepSub), paths: paths, rep: rep}, nil
}

// keep keeps ft's runs (indexes fails and passes) in its directory, made
// afresh, and sets its commands: the overall rerun of fails' chosen run,
// and when it failed several ways, each way's own.
func (kp *keeper) keep(ft *flakyTest, fails, passes []int) error {
	dir := filepath.Join(kp.root, fileName(ft.Name))
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("clearing %s: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("making %s: %w", dir, err)
	}
	ft.Kept = displayPath(dir)
	p := passes[0]
	pass := filepath.Join(dir, fmt.Sprintf("pass-%d.dvt", p+1))
	if err := copyFile(kp.paths[p], pass); err != nil {
		return err
	}
	var err error
	if ft.Rerun, ft.Diff, err = kp.keepFailing(ft, dir, fails, pass); err != nil {
		return err
	}
	if len(ft.Modes) > 1 {
		for _, m := range ft.Modes {
			rerun, diff, err := kp.keepFailing(ft, dir, runIndexes(m.Runs), pass)
			if err != nil {
				return err
			}
			ft.ModeReruns = append(ft.ModeReruns, rerun)
			ft.ModeDiffs = append(ft.ModeDiffs, diff)
		}
	}
	return nil
}

// keepFailing keeps the failing run chosen among fails (its trace and
// schedule, once), and returns the commands that rerun it and diff it
// against the passing run's trace pass. A schedule that cannot be made
// leaves the rerun perturbed by the run's seed alone, and says why.
func (kp *keeper) keepFailing(ft *flakyTest, dir string, fails []int, pass string) (rerun, diff string, err error) {
	k := kp.rep.failingRun(fails)
	fail := filepath.Join(dir, fmt.Sprintf("fail-%d.dvt", k+1))
	sched := filepath.Join(dir, fmt.Sprintf("fail-%d.sched", k+1))
	if _, err := os.Stat(fail); err != nil {
		if err := copyFile(kp.paths[k], fail); err != nil {
			return "", "", err
		}
		if err := writeSchedule(fail, ft.Name, sched); err != nil {
			ft.ReplayError = err.Error()
		}
	}
	if _, err := os.Stat(sched); err != nil {
		sched = ""
	}
	rerunTrace := filepath.Join(dir, fmt.Sprintf("rerun-%d.dvt", k+1))
	// The test's own goroutines: the runs record every test of the
	// package, and another test's partings came first.
	diff = fmt.Sprintf("divergo diff -test %s %s %s", shellQuote(ft.Name), shellQuote(displayPath(fail)), shellQuote(displayPath(pass)))
	if ft.rerunEnv == nil { // the overall rerun's, which hold checks
		ft.rerunEnv = kp.rep.rerunEnv(k, sched)
	}
	return kp.rep.rerun(ft.Name, k, sched, rerunTrace), diff, nil
}

// writeSchedule writes the schedule of test's goroutines in the trace at
// path to out.
func writeSchedule(path, test, out string) error {
	r, err := trace.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	s, err := r.Schedule(test)
	if err != nil {
		return fmt.Errorf("the schedule of %s: %w", filepath.Base(path), err)
	}
	f, err := trace.CreateFile(out)
	if err != nil {
		return fmt.Errorf("writing the schedule: %w", err)
	}
	if _, err := s.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("writing the schedule: %w", err)
	}
	return f.Close()
}

// failingRun chooses the run to rerun among the failing runs fails: a
// perturbed one if there is one.
func (rep *testReport) failingRun(fails []int) int {
	for _, f := range fails {
		if rep.Strengths[f] != flaky.Unperturbed {
			return f
		}
	}
	return fails[0]
}

// rerun is the command that runs test name again as run k did: under its
// seed's perturbation (which decides the goroutines' identities, and is
// what is left when sched is "") and, with sched, replaying its schedule,
// its trace written to out; with the build flags of GOFLAGS, which go test
// would otherwise read from the environment the command is run in. The
// paths are absolute: the test binary runs in the package's directory.
func (rep *testReport) rerun(name string, k int, sched, out string) string {
	var env []string
	if v := os.Getenv("GOFLAGS"); v != "" {
		env = append(env, "GOFLAGS="+shellQuote(v))
	}
	for _, e := range rep.rerunEnv(k, sched) {
		name, v, _ := strings.Cut(e, "=")
		env = append(env, name+"="+shellQuote(v))
	}
	env = append(env, "DIVERGO_TRACE="+shellQuote(out))
	line := fmt.Sprintf("%s go test -count=1 -overlay=%s -run '^%s$' %s", strings.Join(env, " "), shellQuote(overlayPath()), regexp.QuoteMeta(name), shellQuote(rep.Package))
	if len(rep.testArgs) > 0 {
		args := make([]string, len(rep.testArgs))
		for i, a := range rep.testArgs {
			args[i] = shellQuote(a)
		}
		line += " -args " + strings.Join(args, " ")
	}
	return line
}

// rerunEnv is the environment, unquoted, that makes run k again: its
// seed's schedule family and, with sched, the replay of its schedule.
func (rep *testReport) rerunEnv(k int, sched string) []string {
	sweep := 0
	if k < len(rep.Sweeps) {
		sweep = rep.Sweeps[k]
	}
	env := perturbEnv(rep.Seeds[k], rep.Strengths[k], sweep)
	if sched != "" {
		env = append(env, "DIVERGO_REPLAY="+sched)
	}
	return env
}

// userTestArgs are the flags of a run's test binary that the user gave
// after --: not those divergo test adds (-test.run of -run, the default
// -test.timeout, -test.v), which the rerun's go test gives its own way.
func userTestArgs(binArgs []string) []string {
	var out []string
	for _, a := range binArgs {
		if strings.HasPrefix(a, "-test.run=") || a == "-test.v=true" || a == defaultTestTimeout {
			continue
		}
		out = append(out, a)
	}
	return out
}

// fileName makes a test's name (subtests hold slashes, and anything
// else) a directory name.
func fileName(name string) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
	if strings.Trim(s, ".") == "" {
		s = "_" + s
	}
	return s
}

// displayPath is p relative to the working directory when it is below
// it, else p.
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	rel, err := filepath.Rel(wd, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return rel
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// copyFile copies the file from to to.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("keeping a run: %w", err)
	}
	defer in.Close()
	out, err := trace.CreateFile(to)
	if err != nil {
		return fmt.Errorf("keeping a run: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("keeping a run: %w", err)
	}
	return out.Close()
}
