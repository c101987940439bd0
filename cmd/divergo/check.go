package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/divergo/divergo/analyzer"
	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

func init() {
	register(&command{
		name:    "check",
		usage:   "divergo check [-n N] [-seed S] [-o DIR] [-v] [-disable KINDS] [package] [-- args]",
		summary: "run a program under perturbed schedules and report divergences the analyzer missed",
		help: `Check tests the analysis on a program: it instruments and builds the named
main package (default ".") as run does, runs it N times with the schedule
perturbed by a different seed each time (DIVERGO_PERTURB=S+K-1 in run K), and
compares every run with the first.

Two runs may only part at a trace change point (TCP) the analyzer marked. A
divergent section that starts at a block without a TCP is unflagged: a
change point the analyzer missed. Check lists each such place with its
source line and how many of the N-1 comparisons showed it, then summarises:
how many runs differed from the first, the flagged divergences by TCP kind,
lock-order differences, goroutines present in some runs only.

The program's own output is discarded unless -v is given. The exit status
is 1 when some divergence was unflagged, 0 when none was, and 2 when the
program could not be instrumented, built, run or read.

A run that shows nothing unflagged proves nothing about interleavings it
did not meet: raise -n, or try other seeds, for more.

Flags:
	-n N	number of runs (default 10, at least 2)
	-seed S	seed of the first run (default 1)
	-o DIR	keep the traces in DIR as run-K.dvt (default: a temporary directory, removed)
	-v	pass the program's standard output and error through
	-disable KINDS
		analyse as if the analyzer missed these TCP kinds (comma-separated,
		e.g. branch,loop): plants a hole on purpose, to see check find it

Example:

	divergo check -n 20 ./cmd/server -- -port 0
	divergo check -disable branch ./testdata/fig1a   # a planted hole: exit 1`,
		run: runCheck,
	})
}

func runCheck(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("check")
	n := fs.Int("n", 10, "number of runs")
	seed := fs.Int64("seed", 1, "seed of the first run")
	keep := fs.String("o", "", "directory to keep the traces in")
	verbose := fs.Bool("v", false, "pass the program's output through")
	disable := fs.String("disable", "", "TCP kinds the analyzer should miss")
	args, progArgs := splitProgramArgs(args)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2, err
	}
	if *n < 2 {
		return 2, usageError("-n must be at least 2 to compare runs, not %d", *n)
	}
	pkg, err := onePackage(pos)
	if err != nil {
		return 2, err
	}
	if *disable != "" {
		// The analyzer's flag is process-wide: set it for this
		// instrumentation only.
		if err := analyzer.Analyzer.Flags.Set("disable", *disable); err != nil {
			return 2, usageError("-disable: %v", err)
		}
		defer analyzer.Analyzer.Flags.Set("disable", "")
	}

	bin, cleanup, err := buildInstrumented(pkg, stderr)
	if err != nil {
		return 2, err
	}
	defer cleanup()
	dir := *keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "divergo-check-"); err != nil {
			return 2, fmt.Errorf("making a directory for the traces: %w", err)
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o777); err != nil {
		return 2, fmt.Errorf("making the trace directory: %w", err)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return 2, fmt.Errorf("making the trace directory: %w", err)
	}

	progOut, progErr := io.Discard, io.Discard
	if *verbose {
		progOut, progErr = stdout, stderr
	}
	paths := make([]string, *n)
	seeds := make([]int64, *n)
	codes := make([]int, *n)
	for k := range paths {
		seeds[k] = *seed + int64(k)
		paths[k] = filepath.Join(dir, fmt.Sprintf("run-%d.dvt", k+1))
		env := []string{"DIVERGO_TRACE=" + paths[k], "DIVERGO_PERTURB=" + strconv.FormatInt(seeds[k], 10)}
		if codes[k], err = runProgram(bin, progArgs, env, nil, progOut, progErr); err != nil {
			return 2, fmt.Errorf("running %s (run %d): %w", pkg, k+1, err)
		}
	}

	sum, err := checkTraces(paths, seeds)
	if err != nil {
		return 2, err
	}
	sum.codes = codes
	sum.write(stdout, sourceRoot(), pkg, *keep != "")
	if len(sum.unflagged) > 0 {
		return 1, nil
	}
	return 0, nil
}

// checkSummary is what check found over all comparisons with run 1.
type checkSummary struct {
	paths     []string
	seeds     []int64
	codes     []int
	differ    []int          // runs (0-based) that are not the same as run 1
	reps      []int          // the first run of each distinct interleaving
	unflagged []*hole        // places the analyzer missed, most frequent first
	flagged   map[string]int // sections per TCP kind
	flaggedIn map[string]int // runs showing that kind
	lockRuns  int            // runs whose lock order differed from run 1
	lone      int            // goroutines present in one of the two runs only
	unresolv  int            // sections that never converged
	cutOff    int            // sections of goroutines still running when main returned
	anomalies int64
}

// hole is one block where runs parted without a TCP.
type hole struct {
	pos     string // the block's position, as the report gives it
	decided string // the position of the statement that decided, when the graph knows it
	fn      string
	spawn   string // the goroutine of its first occurrence
	cp      string
	runs    []int  // runs (0-based) showing it
	pair    [2]int // the first comparison that showed it
}

// checkTraces compares every trace with the first, and groups the runs
// into interleavings: a run that differs from run 1 is compared with the
// first run of each interleaving found so far until one is the same, or it
// starts a new one. Unflagged sections count from every comparison; the
// flagged ones, lock order and lone goroutines from those with run 1.
func checkTraces(paths []string, seeds []int64) (*checkSummary, error) {
	first, err := trace.Open(paths[0])
	if err != nil {
		return nil, fmt.Errorf("reading run 1: %w", err)
	}
	g := first.Graph()
	first.Close()
	s := &checkSummary{paths: paths, seeds: seeds, flagged: map[string]int{}, flaggedIn: map[string]int{}, reps: []int{0}}
	holes := map[string]*hole{}
	for k := 1; k < len(paths); k++ {
		same := false
		for i, r := range s.reps {
			rep, err := compareRuns(paths, r, k)
			if err != nil {
				return nil, err
			}
			s.noteHoles(holes, g, rep, r, k)
			if i == 0 {
				s.noteFirst(rep, k)
			}
			if rep.Summary.Same {
				same = true
				break
			}
		}
		if !same {
			s.reps = append(s.reps, k)
		}
	}
	for _, h := range holes {
		s.unflagged = append(s.unflagged, h)
	}
	sort.Slice(s.unflagged, func(i, j int) bool {
		a, b := s.unflagged[i], s.unflagged[j]
		if len(a.runs) != len(b.runs) {
			return len(a.runs) > len(b.runs)
		}
		return a.pos < b.pos
	})
	return s, nil
}

// compareRuns compares run a with run b (0-based).
func compareRuns(paths []string, a, b int) (*compare.Report, error) {
	ra, err := trace.Open(paths[a])
	if err != nil {
		return nil, fmt.Errorf("reading run %d: %w", a+1, err)
	}
	defer ra.Close()
	rb, err := trace.Open(paths[b])
	if err != nil {
		return nil, fmt.Errorf("reading run %d: %w", b+1, err)
	}
	defer rb.Close()
	rep, err := compare.Traces(compare.FromReader(ra), compare.FromReader(rb), compare.Options{})
	if err != nil {
		return nil, fmt.Errorf("comparing run %d with run %d: %w", b+1, a+1, err)
	}
	return rep, nil
}

// noteFirst adds the comparison of run k with run 1 to the summary.
func (s *checkSummary) noteFirst(rep *compare.Report, k int) {
	if !rep.Summary.Same {
		s.differ = append(s.differ, k)
	}
	if rep.Summary.LockOrder > 0 {
		s.lockRuns++
	}
	s.lone += rep.Summary.OnlyA + rep.Summary.OnlyB
	s.anomalies += rep.Summary.Anomalies
	kinds := map[string]bool{}
	for _, sec := range rep.Sections {
		if sec.Unresolved {
			s.unresolv++
		}
		if sec.CutOff {
			s.cutOff++
			continue
		}
		if !sec.Unflagged {
			s.flagged[sec.TCP.Kind]++
			kinds[sec.TCP.Kind] = true
		}
	}
	for kind := range kinds {
		s.flaggedIn[kind]++
	}
}

// noteHoles records the unflagged sections of the comparison of run a with
// run k, once per place and run.
func (s *checkSummary) noteHoles(holes map[string]*hole, g *tbb.Graph, rep *compare.Report, a, k int) {
	for _, sec := range rep.Sections {
		if !sec.Unflagged {
			continue
		}
		key := sec.TCP.Pos + "#" + strconv.Itoa(sec.TCP.Block)
		h := holes[key]
		if h == nil {
			h = &hole{pos: sec.TCP.Pos, decided: decidingPos(g, sec.TCP.Block), fn: sec.TCP.Func, spawn: sec.Spawn, cp: sec.CP.Pos, pair: [2]int{a, k}}
			if sec.Unresolved {
				h.cp = ""
			}
			holes[key] = h
		}
		if len(h.runs) == 0 || h.runs[len(h.runs)-1] != k {
			h.runs = append(h.runs, k)
		}
	}
}

// decidingPos is where the statement that ends block id begins, "" when
// the graph does not say. A block without a TCP ends at the statement that
// chose its successor (an if whose condition the analyzer thought
// deterministic, say), which is the line a person wants to see; the block's
// own position is its first statement.
func decidingPos(g *tbb.Graph, id int) string {
	b := g.Block(id)
	if b == nil || len(b.Succs) < 2 || b.End.Line == 0 {
		return ""
	}
	return b.End.FileLine()
}

func (s *checkSummary) write(w io.Writer, root, pkg string, kept bool) {
	n := len(s.paths)
	fmt.Fprintf(w, "divergo check: %d runs of %s, seeds %d to %d; %d of %d differ from run 1; %d distinct interleavings\n",
		n, pkg, s.seeds[0], s.seeds[n-1], len(s.differ), n-1, len(s.reps))
	var failed []string
	for k, c := range s.codes {
		if c != 0 {
			failed = append(failed, fmt.Sprintf("run %d: %d", k+1, c))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(w, "non-zero exit statuses: %s\n", strings.Join(failed, ", "))
	}

	if len(s.flagged) > 0 {
		fmt.Fprintf(w, "\nflagged divergences (at change points the analyzer marked):\n")
		for _, k := range tbb.Kinds {
			if c := s.flagged[string(k)]; c > 0 {
				fmt.Fprintf(w, "    %-9s %d sections in %d runs\n", k, c, s.flaggedIn[string(k)])
			}
		}
	}
	if s.lockRuns > 0 {
		fmt.Fprintf(w, "lock order differed from run 1 in %d runs (annotations, not divergence)\n", s.lockRuns)
	}
	if s.lone > 0 {
		fmt.Fprintf(w, "%d goroutines were present in one run of a pair only\n", s.lone)
	}
	if s.unresolv > 0 {
		fmt.Fprintf(w, "%d sections never converged (a run ended first)\n", s.unresolv)
	}
	if s.cutOff > 0 {
		fmt.Fprintf(w, "%d sections were cut off at exit (a goroutine still running when main returned; not a hole)\n", s.cutOff)
	}
	if s.anomalies > 0 {
		fmt.Fprintf(w, "warning: %d events did not fit the program graph\n", s.anomalies)
	}

	if len(s.unflagged) == 0 {
		fmt.Fprintf(w, "\nno unflagged divergence: every place the runs parted was a change point the analyzer marked\n")
		return
	}
	fmt.Fprintf(w, "\n%d unflagged divergences (change points the analyzer missed):\n", len(s.unflagged))
	for _, h := range s.unflagged {
		at := h.pos
		if h.decided != "" {
			at = h.decided
		}
		fmt.Fprintf(w, "\n  %s: runs parted at a block without a TCP", at)
		if h.fn != "" {
			fmt.Fprintf(w, " in %s", h.fn)
		}
		fmt.Fprintf(w, "\n    seen in %d of %d runs (runs %s); goroutine %s\n", len(h.runs), n-1, runList(h.runs), h.spawn)
		if line, ok := sourceLine(root, at); ok {
			fmt.Fprintf(w, "    %s\n", line)
		}
		where := "block from " + h.pos
		if h.cp != "" {
			where += ", post-dominated by " + h.cp
		} else {
			where += "; a run ended before the paths met again"
		}
		fmt.Fprintf(w, "    %s\n", where)
		if kept {
			fmt.Fprintf(w, "    divergo diff %s %s\n", s.paths[h.pair[0]], s.paths[h.pair[1]])
		}
	}
}

func runList(runs []int) string {
	var out []string
	for _, k := range runs {
		out = append(out, strconv.Itoa(k+1))
	}
	return strings.Join(out, ",")
}

// sourceLine reads line LINE of FILE for a position "FILE:LINE" relative to
// the module root.
func sourceLine(root, pos string) (string, bool) {
	i := strings.LastIndexByte(pos, ':')
	if root == "" || i < 0 {
		return "", false
	}
	n, err := strconv.Atoi(pos[i+1:])
	if err != nil || n < 1 {
		return "", false
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(pos[:i])))
	if err != nil {
		return "", false
	}
	lines := strings.Split(string(data), "\n")
	if n > len(lines) {
		return "", false
	}
	return fmt.Sprintf("%d | %s", n, strings.TrimSpace(lines[n-1])), true
}
