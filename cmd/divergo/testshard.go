package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/divergo/divergo/internal/trace"
)

// A shard is the share of the runs of divergo test that one machine makes:
// shard K of N makes the K-th of N consecutive blocks of the run indexes
// (0 to n-1, the blocks as equal as n allows), each run under the seed and
// the schedule the run of that index would have in one invocation making
// all n, so that the shards together make the same runs as one invocation.
// Blocks rather than every N-th run: the plan gives one run in four no
// perturbation, so with every 4th run shard 1 of 4 would run unperturbed
// only and the others never, and neither could adapt its strengths (a
// plan adapts once it has seen three runs of each schedule). Each run
// leaves, beside its trace, a record (run-K.json) that -explain reads back.
type shard struct {
	K, N int // 1 ≤ K ≤ N
}

// parseShard reads "K/N".
func parseShard(s string) (shard, error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, errK := strconv.Atoi(ks)
	n, errN := strconv.Atoi(ns)
	if !ok || errK != nil || errN != nil || n < 1 || k < 1 || k > n {
		return shard{}, fmt.Errorf("-shard %q: want K/N with 1 ≤ K ≤ N, as 2/3", s)
	}
	return shard{K: k, N: n}, nil
}

// has says whether run index k (from 0) of n is the shard's.
func (s shard) has(k, n int) bool { return (s.K-1)*n/s.N <= k && k < s.K*n/s.N }

func (s shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// runRecord is what one run of the test binary left in the trace
// directory, besides its trace: enough to explain the runs of several
// directories as one invocation would have, without running anything.
type runRecord struct {
	Package string `json:"package"`
	// Graph is the short hash of the program graph the run recorded:
	// runs of two builds are not runs of one program.
	Graph string `json:"graph"`
	// Args are the test binary's flags (-test.run=...), which decide what
	// ran.
	Args      []string `json:"args"`
	Runs      int      `json:"runs"` // of the whole invocation, every shard's
	Shard     string   `json:"shard,omitempty"`
	Run       int      `json:"run"` // from 1
	Seed      int64    `json:"seed"`
	Perturbed bool     `json:"perturbed"`
	Strength  int      `json:"strength"`
	// Sweep is the run's index among the controlled sweep's runs, plus
	// one; 0 for a run of another schedule.
	Sweep int `json:"sweep,omitempty"`
	// Tests are the tests that ran and how each ended: pass, fail, skip,
	// panic, timeout, or unfinished when the run ended while it ran.
	Tests map[string]string `json:"tests"`
	// Died says why the binary ended early, "" when it did not.
	Died string `json:"died,omitempty"`
	// Alone is the error only overlapping runs give (a fixed port in use)
	// that the run's first try failed with: it was made again alone.
	Alone string `json:"alone,omitempty"`
	// Output is everything the binary printed: the failure messages, and
	// the t.Log lines of passing tests that tell log lines from failures.
	Output string `json:"output"`
	Trace  string `json:"trace"` // relative to the record's directory

	dir string // where the record was read from
}

const unfinished = "unfinished"

// recordName is the file of run k's record (k from 0).
func recordName(k int) string { return fmt.Sprintf("run-%d.json", k+1) }

// tracePath is the record's trace, absolute.
func (rec *runRecord) tracePath() string { return filepath.Join(rec.dir, rec.Trace) }

// failed is whether each test that ran failed (skipped tests left out).
func (rec *runRecord) failed() map[string]bool {
	out := map[string]bool{}
	for name, res := range rec.Tests {
		if res != trace.TestSkip.String() {
			out[name] = res != trace.TestPass.String()
		}
	}
	return out
}

// readTrace fills rec.Tests and rec.Graph from its trace.
func (rec *runRecord) readTrace() error {
	r, err := trace.Open(rec.tracePath())
	if err != nil {
		return err
	}
	defer r.Close()
	if g := r.Graph(); g != nil {
		rec.Graph = g.ShortHash()
	}
	rec.Tests = map[string]string{}
	for _, g := range r.Goroutines() {
		if g.Test == "" {
			continue
		}
		if g.Result == 0 {
			rec.Tests[g.Test] = unfinished
		} else {
			rec.Tests[g.Test] = g.Result.String()
		}
	}
	return nil
}

func (rec *runRecord) write() error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(rec.dir, recordName(rec.Run-1)), append(b, '\n'), 0o666)
}

// readRecordTree reads the run records below dirs, which -shard
// invocations (or one -o invocation) wrote: a directory's own, or in a
// suite's, those of each package's directory below it.
func readRecordTree(dirs []string) ([]*runRecord, error) {
	var recs []*runRecord
	for _, d := range dirs {
		before := len(recs)
		err := filepath.WalkDir(d, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() {
				return nil
			}
			in, err := readRecords(path)
			recs = append(recs, in...)
			return err
		})
		if err != nil {
			return nil, err
		}
		if len(recs) == before {
			return nil, fmt.Errorf("%s: no run records (run-K.json): not a directory of divergo test -o", d)
		}
	}
	return recs, nil
}

// readRecords reads the run records directly in dir.
func readRecords(d string) ([]*runRecord, error) {
	paths, err := filepath.Glob(filepath.Join(d, "run-*.json"))
	if err != nil {
		return nil, err
	}
	var recs []*runRecord
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("reading a run record: %w", err)
		}
		rec := &runRecord{dir: d}
		if err := json.Unmarshal(b, rec); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if rec.Runs < 1 || rec.Run < 1 || rec.Run > rec.Runs || rec.Trace == "" || filepath.IsAbs(rec.Trace) || rec.Package == "" {
			return nil, fmt.Errorf("%s: not a run record of divergo test", p)
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// checkRecords returns recs, the runs of one package, by run index. It
// refuses, in one line, records of other packages, builds, flags or run
// counts, two records of one run, and runs no directory has a record of.
func checkRecords(recs []*runRecord) ([]*runRecord, error) {
	first := recs[0]
	byRun := make([]*runRecord, first.Runs)
	for _, rec := range recs {
		where := filepath.Join(rec.dir, recordName(rec.Run-1))
		switch {
		case rec.Package != first.Package:
			return nil, fmt.Errorf("%s is a run of %s, not %s: explain one package's runs at a time", where, rec.Package, first.Package)
		case rec.Graph != first.Graph && rec.Graph != "" && first.Graph != "": // "": a run stopped at the trace cap
			return nil, fmt.Errorf("%s and %s are runs of different builds (graphs %s and %s)", where, filepath.Join(first.dir, recordName(first.Run-1)), rec.Graph, first.Graph)
		case rec.Runs != first.Runs || rec.Perturbed != first.Perturbed || !slices.Equal(rec.Args, first.Args) ||
			rec.Seed-int64(rec.Run) != first.Seed-int64(first.Run):
			return nil, fmt.Errorf("%s is a run of another invocation (-n, -seed, -perturb or test flags differ): explain the shards of one at a time", where)
		case byRun[rec.Run-1] != nil:
			return nil, fmt.Errorf("run %d is in both %s and %s: a shard was given twice, or two invocations' shards", rec.Run, byRun[rec.Run-1].dir, rec.dir)
		}
		byRun[rec.Run-1] = rec
	}
	var missing []string
	for k, rec := range byRun {
		if rec == nil {
			missing = append(missing, strconv.Itoa(k+1))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no record of run %s of %d: a shard's directory is missing", strings.Join(missing, ", "), first.Runs)
	}
	return byRun, nil
}
