package compare

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// Check is what comparing several runs of one program under different
// schedules says about the analysis: two runs may only part at a change
// point the analyzer marked, so a section at an unmarked block is a hole.
// [CheckRuns] makes it; "divergo check" prints it.
type Check struct {
	Paths []string `json:"paths"`
	Seeds []int64  `json:"seeds"` // DIVERGO_PERTURB of each run
	Codes []int    `json:"codes"` // exit status of each run, when the caller sets them
	// Differ lists the runs (0-based) that took other paths than run 1.
	Differ []int `json:"differ"`
	// Interleavings lists, per distinct interleaving, the runs (0-based)
	// that took it, the first run of each in order.
	Interleavings [][]int `json:"interleavings"`
	// Holes are the places where runs parted at a block the analyzer did
	// not mark, most frequent first.
	Holes []*Hole `json:"holes"`
	// Flagged counts sections per change-point kind, FlaggedIn the runs
	// that showed that kind (comparisons with run 1).
	Flagged   map[string]int `json:"flagged"`
	FlaggedIn map[string]int `json:"flagged_in"`
	LockRuns  int            `json:"lock_runs"` // runs whose lock order differed from run 1
	Lone      int            `json:"lone"`      // goroutines present in one run of a pair only
	Unresolv  int            `json:"unresolved"`
	CutOff    int            `json:"cut_off"` // sections of goroutines still running or blocked at exit
	Anomalies int64          `json:"anomalies"`
}

// Hole is one block where runs parted without a change point.
type Hole struct {
	Pos     string `json:"pos"`     // the block's position, as the report gives it
	Decided string `json:"decided"` // the statement that chose the successor, when the graph knows it
	Func    string `json:"func"`
	Spawn   string `json:"spawn"` // the goroutine of its first occurrence
	CP      string `json:"cp"`    // where the paths met again, "" when a run ended first
	Runs    []int  `json:"runs"`  // runs (0-based) showing it
	Pair    [2]int `json:"pair"`  // the first comparison that showed it
	Pkg     string `json:"pkg"`   // the package of Func
	// Cause is why the analyzer did not mark the statement, when the
	// caller could tell (divergo check analyses the package again); nil
	// when it did not try.
	Cause *HoleCause `json:"cause,omitempty"`
}

// HoleCause is why the analyzer left a statement where runs parted
// unmarked: the data it decides on went through rules that assume
// something of the program or the runs (docs/SOUNDNESS.md), and the runs
// broke one of those assumptions; or the analyzer was told to miss the
// statement's kind (-disable); or no rule explains it, and the analyzer
// missed it.
type HoleCause struct {
	// Breaks are the rules that, switched off, make the statement a change
	// point: the runs broke the assumption of one of them.
	Breaks []BrokenRule `json:"breaks,omitempty"`
	// Planted names the TCP kinds -disable told the analyzer to miss, when
	// analysing without -disable marks the statement.
	Planted string `json:"planted,omitempty"`
	// Miss: neither, an analyzer miss (docs/SOUNDNESS.md, "Known
	// unsoundness", lists the known ones).
	Miss bool `json:"miss,omitempty"`
	// Panic is the first line of Go's report ("panic: sync: negative
	// WaitGroup counter") of run PanicRun (from 1), one of the hole's runs,
	// which panicked under the statement: a panic on shared data, a
	// branch the analysis does not mark ("Known unsoundness", "Panics").
	Panic    string `json:"panic,omitempty"`
	PanicRun int    `json:"panic_run,omitempty"`
}

// BrokenRule is one rule of the analysis a hole relied on.
type BrokenRule struct {
	Rule       string `json:"rule"`       // analyzer.Rule
	Assumption string `json:"assumption"` // what it assumes, in plain words
	// Why is what the analyzer says of the statement without the rule:
	// the data it then finds shared.
	Why string `json:"why"`
}

// At is where the hole is named: the deciding statement, else the block.
func (h *Hole) At() string {
	if h.Decided != "" {
		return h.Decided
	}
	return h.Pos
}

// CheckRuns compares every trace with the first, and groups the runs into
// interleavings: a run that differs from run 1 is compared with the first
// run of each interleaving found so far until one is the same, or it starts
// a new one. Holes count from every comparison; the flagged sections, lock
// order and lone goroutines from those with run 1. Not all N²/2 pairs: when
// runs j and k part at a block, at least one of them parts from run 1 there.
func CheckRuns(paths []string, seeds []int64) (*Check, error) {
	if len(paths) < 2 || len(seeds) != len(paths) {
		return nil, fmt.Errorf("check needs two runs or more, each with its seed")
	}
	first, err := trace.Open(paths[0])
	if err != nil {
		return nil, fmt.Errorf("reading run 1: %w", err)
	}
	g := first.Graph()
	first.Close()
	c := &Check{Paths: paths, Seeds: seeds, Differ: []int{}, Holes: []*Hole{}, Flagged: map[string]int{}, FlaggedIn: map[string]int{}, Interleavings: [][]int{{0}}}
	holes := map[string]*Hole{}
	for k := 1; k < len(paths); k++ {
		same := false
		for i, il := range c.Interleavings {
			rep, err := compareFiles(paths, il[0], k)
			if err != nil {
				return nil, err
			}
			c.noteHoles(holes, g, rep, il[0], k)
			if i == 0 {
				c.noteFirst(rep, k)
			}
			if rep.Summary.Same {
				c.Interleavings[i] = append(c.Interleavings[i], k)
				same = true
				break
			}
		}
		if !same {
			c.Interleavings = append(c.Interleavings, []int{k})
		}
	}
	for _, h := range holes {
		c.Holes = append(c.Holes, h)
	}
	sort.Slice(c.Holes, func(i, j int) bool {
		a, b := c.Holes[i], c.Holes[j]
		if len(a.Runs) != len(b.Runs) {
			return len(a.Runs) > len(b.Runs)
		}
		return a.Pos < b.Pos
	})
	return c, nil
}

// compareFiles compares run a with run b (0-based).
func compareFiles(paths []string, a, b int) (*Report, error) {
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
	rep, err := Traces(FromReader(ra), FromReader(rb), Options{})
	if err != nil {
		return nil, fmt.Errorf("comparing run %d with run %d: %w", b+1, a+1, err)
	}
	return rep, nil
}

// noteFirst adds the comparison of run k with run 1.
func (c *Check) noteFirst(rep *Report, k int) {
	if !rep.Summary.Same {
		c.Differ = append(c.Differ, k)
	}
	if rep.Summary.LockOrder > 0 {
		c.LockRuns++
	}
	c.Lone += rep.Summary.OnlyA + rep.Summary.OnlyB
	c.Anomalies += rep.Summary.Anomalies
	kinds := map[string]bool{}
	for _, sec := range rep.Sections {
		if sec.Unresolved {
			c.Unresolv++
		}
		if sec.CutOff {
			c.CutOff++
			continue
		}
		if !sec.Unflagged {
			c.Flagged[sec.TCP.Kind]++
			kinds[sec.TCP.Kind] = true
		}
	}
	for kind := range kinds {
		c.FlaggedIn[kind]++
	}
}

// noteHoles records the unflagged sections of the comparison of run a with
// run k, once per place and run.
func (c *Check) noteHoles(holes map[string]*Hole, g *tbb.Graph, rep *Report, a, k int) {
	for _, sec := range rep.Sections {
		if !sec.Unflagged {
			continue
		}
		key := sec.TCP.Pos + "#" + strconv.Itoa(sec.TCP.Block)
		h := holes[key]
		if h == nil {
			h = &Hole{Pos: sec.TCP.Pos, Decided: decidingPos(g, sec.TCP.Block), Func: sec.TCP.Func, Spawn: sec.Spawn, CP: sec.CP.Pos, Pair: [2]int{a, k}, Pkg: blockPkg(g, sec.TCP.Block)}
			if sec.Unresolved {
				h.CP = ""
			}
			holes[key] = h
		}
		if len(h.Runs) == 0 || h.Runs[len(h.Runs)-1] != k {
			h.Runs = append(h.Runs, k)
		}
	}
}

// blockPkg is the package of the function holding block id, "" when the
// graph does not say.
func blockPkg(g *tbb.Graph, id int) string {
	if b := g.Block(id); b != nil {
		if f := g.Func(b.Func); f != nil {
			return f.Pkg
		}
	}
	return ""
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

// CheckTextOptions configure [Check.WriteText].
type CheckTextOptions struct {
	Program string // what was run, for the first line
	Root    string // module root, to quote source lines ("" for none)
	Kept    bool   // the traces stay where Paths say: print diff commands
	// Rerun is how a user runs the instrumented program again, for the
	// reproduction lines: "DIVERGO_PERTURB=SEED " is put before it.
	Rerun string
}

// WriteText writes the check for people: the runs and their interleavings
// with the seeds that reproduce them, the holes first when there are any,
// each with its file, line and statement, then the divergences that were
// change points.
func (c *Check) WriteText(w io.Writer, o CheckTextOptions) error {
	n := len(c.Paths)
	fmt.Fprintf(w, "divergo check: %d runs of %s, seeds %d to %d\n", n, o.Program, c.Seeds[0], c.Seeds[n-1])
	var failed []string
	for k, code := range c.Codes {
		if code != 0 {
			failed = append(failed, fmt.Sprintf("run %d: %d", k+1, code))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(w, "non-zero exit statuses: %s\n", strings.Join(failed, ", "))
	}
	if len(c.Differ) == 0 {
		fmt.Fprintf(w, "\nthe runs never parted: all %d took the same paths, so nothing was learnt about holes;\nraise -n or try other seeds (-seed) for other schedules\n", n)
		return nil
	}
	src := sourceCache{root: o.Root}
	if len(c.Holes) == 0 {
		fmt.Fprintf(w, "\nno hole: %d of %d runs took other paths than run 1, and every place they parted was a change point the analyzer marked\n", len(c.Differ), n-1)
	} else {
		fmt.Fprintf(w, "\n%s: runs parted where the analyzer saw no change point:\n", plural(int64(len(c.Holes)), "hole"))
		for _, h := range c.Holes {
			fmt.Fprintf(w, "\n  %s", h.At())
			if h.Func != "" {
				fmt.Fprintf(w, " in %s", h.Func)
			}
			fmt.Fprintln(w)
			if line, ok := src.line(h.At()); ok {
				fmt.Fprintf(w, "    %s\n", line)
			}
			fmt.Fprintf(w, "    seen in %d of %d runs (runs %s); goroutine %s\n", len(h.Runs), n-1, runList(h.Runs), h.Spawn)
			where := "block from " + h.Pos
			if h.CP != "" {
				where += ", post-dominated by " + h.CP
			} else {
				where += "; a run ended before the paths met again"
			}
			fmt.Fprintf(w, "    %s\n", where)
			if h.Cause != nil {
				h.Cause.writeText(w)
			}
			fmt.Fprintf(w, "    reproduce: seeds %d and %d", c.Seeds[h.Pair[0]], c.Seeds[h.Pair[1]])
			if o.Kept {
				fmt.Fprintf(w, "; divergo diff %s %s", c.Paths[h.Pair[0]], c.Paths[h.Pair[1]])
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "\n%d distinct interleavings (runs that took the same paths; rerun one with its seed):\n", len(c.Interleavings))
	for i, il := range c.Interleavings {
		if i == 8 {
			fmt.Fprintf(w, "    and %d more\n", len(c.Interleavings)-8)
			break
		}
		runs := "runs"
		if len(il) == 1 {
			runs = "run"
		}
		fmt.Fprintf(w, "    %d. %s %s", i+1, runs, runList(il))
		if o.Rerun != "" {
			fmt.Fprintf(w, ": DIVERGO_PERTURB=%d %s", c.Seeds[il[0]], o.Rerun)
		} else {
			fmt.Fprintf(w, ": seed %d", c.Seeds[il[0]])
		}
		fmt.Fprintln(w)
	}
	if len(c.Flagged) > 0 {
		fmt.Fprintf(w, "\nwhere runs parted at change points the analyzer marked (comparisons with run 1):\n")
		for _, k := range tbb.Kinds {
			if s := c.Flagged[string(k)]; s > 0 {
				fmt.Fprintf(w, "    %-9s %d sections in %d runs\n", k, s, c.FlaggedIn[string(k)])
			}
		}
	}
	if c.LockRuns > 0 {
		fmt.Fprintf(w, "lock order differed from run 1 in %d runs (annotations, not divergence)\n", c.LockRuns)
	}
	if c.Lone > 0 {
		fmt.Fprintf(w, "%d goroutines were present in one run of a pair only\n", c.Lone)
	}
	if c.Unresolv > 0 {
		fmt.Fprintf(w, "%d sections never converged (a run ended first)\n", c.Unresolv)
	}
	if c.CutOff > 0 {
		fmt.Fprintf(w, "%d sections were cut off at exit (a goroutine still running or blocked when the program ended; not a hole)\n", c.CutOff)
	}
	if c.Anomalies > 0 {
		fmt.Fprintf(w, "warning: %d events did not fit the program graph\n", c.Anomalies)
	}
	return nil
}

func runList(runs []int) string {
	var out []string
	for _, k := range runs {
		out = append(out, strconv.Itoa(k+1))
	}
	return strings.Join(out, ",")
}

// writeText says in plain words which assumption the hole broke.
func (c *HoleCause) writeText(w io.Writer) {
	if c.Panic != "" {
		fmt.Fprintf(w, "    run %d panicked under this statement (%s): a panic on shared data\n      is a branch the analysis does not mark (docs/SOUNDNESS.md, \"Known unsoundness\", \"Panics\")\n", c.PanicRun, c.Panic)
		if c.Miss {
			return
		}
	}
	switch {
	case c.Planted != "":
		fmt.Fprintf(w, "    planted: the analyzer was told to miss %s change points (-disable); without that it marks this statement\n", c.Planted)
	case len(c.Breaks) == 1:
		b := c.Breaks[0]
		fmt.Fprintf(w, "    breaks an assumption: %s\n", b.Assumption)
		fmt.Fprintf(w, "      (rule %s; without it the analyzer marks this statement: %s)\n", b.Rule, b.Why)
	case len(c.Breaks) > 1:
		fmt.Fprintf(w, "    breaks one of %d assumptions the analysis made here:\n", len(c.Breaks))
		for _, b := range c.Breaks {
			fmt.Fprintf(w, "      - %s\n        (rule %s; without it: %s)\n", b.Assumption, b.Rule, b.Why)
		}
	case c.Miss:
		fmt.Fprintf(w, "    an analyzer miss: no rule that assumes something of the program or the runs made this statement unmarked,\n      the analysis saw no shared data in it (docs/SOUNDNESS.md, \"Known unsoundness\", lists the known misses)\n")
	}
}
