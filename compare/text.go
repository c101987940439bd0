package compare

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/divergo/divergo/internal/htmlpage"
)

// TextOptions configure [Report.WriteText].
type TextOptions struct {
	// NameA and NameB name the traces in the summary line.
	NameA, NameB string
	// Root is the module root: source lines are read from Root/<file> when
	// that file exists under it (htmlpage.ReadSource: never a file out of the root,
	// whatever the graph names). Empty means positions only.
	Root string
	// Groups bounds the groups printed: 0 means 10, a negative number all.
	Groups int
	// Sections also lists every divergent section, ranked by its term of
	// the distance, with the paper's measures.
	Sections bool
}

// Ranked returns the sections ordered by impact: their term of the
// distance, then their size, then their order in the report.
func (r *Report) Ranked() []Section {
	out := append([]Section(nil), r.Sections...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Distance != out[j].Distance {
			return out[i].Distance > out[j].Distance
		}
		return out[i].A.Blocks+out[i].B.Blocks > out[j].A.Blocks+out[j].B.Blocks
	})
	return out
}

// WriteText writes the report for people. The first screen answers the
// question: a summary (same or not, goroutines, where the runs first parted,
// how much of their work lies where they went different ways), then the
// statements where they parted, grouped and ranked by the work inside, each
// with what each run did there; the paper's distance comes last, in words.
func (r *Report) WriteText(w io.Writer, o TextOptions) error {
	bw := bufio.NewWriter(w)
	na, nb := o.NameA, o.NameB
	if na == "" {
		na = "a"
	}
	if nb == "" {
		nb = "b"
	}
	s := r.Summary
	src := sourceCache{root: o.Root}
	groups := r.Groups
	if groups == nil {
		groups = GroupSections(r.Sections)
	}
	if r.Inputs != nil {
		// First: the analysis assumes the same inputs, so what follows
		// may come from them.
		fmt.Fprintf(bw, "%s\n", r.Inputs.Line(na, nb))
		if s.Unflagged > 0 {
			fmt.Fprintf(bw, "  the analysis takes inputs to be the same in both runs: where they parted at statements it did not mark (%s) may be the inputs' doing\n", plural(int64(s.Unflagged), "time"))
		}
		fmt.Fprintln(bw)
	}
	if e := r.Endings; e != nil && !e.ordinary() {
		// How a run ended explains much of what follows: a goroutine
		// cut off by an exit, a run killed half way.
		fmt.Fprintf(bw, "%s\n\n", e.Line(na, nb))
	}
	if s.Same {
		fmt.Fprintf(bw, "%s and %s took the same paths: %d goroutines matched, none only in one run.\n", na, nb, s.Matched)
	} else {
		fmt.Fprintf(bw, "%s and %s took different paths.\n\n", na, nb)
		r.summaryText(bw, o, na, nb, &src)
	}
	limit := o.Groups
	if limit == 0 {
		limit = 10
	}
	if len(groups) > 0 {
		fmt.Fprintf(bw, "\nWhere they parted, most work first:\n")
	}
	for i, g := range groups {
		if limit > 0 && i == limit {
			break
		}
		groupText(bw, i+1, &g, na, nb, &src)
	}
	if len(r.LockOrder) > 0 {
		lockText(bw, r.LockOrder)
	}
	for _, g := range []struct {
		name string
		l    []Lone
	}{{na, r.Goroutines.OnlyA}, {nb, r.Goroutines.OnlyB}} {
		for _, l := range g.l {
			fmt.Fprintf(bw, "\nonly in %s: goroutine %d (%s): %d block executions, %d change points\n", g.name, l.ID, l.Spawn, l.Blocks, l.TCPs)
		}
	}
	if s.Anomalies > 0 {
		fmt.Fprintf(bw, "\nwarning: %d events did not fit the program graph; both runs were read alike\n", s.Anomalies)
	}
	if o.Sections {
		sectionsText(bw, r, na, nb, &src)
	}
	if !s.Same {
		wt := fmt.Sprintf("wd=%s wnd=%s wtr=%s", num(s.Weights.D), num(s.Weights.ND), num(s.Weights.TR))
		fmt.Fprintf(bw, "\ndistance %s (%s): the paper's measure of how far apart the runs are, the sum over the\n", num(r.Distance), wt)
		fmt.Fprintf(bw, "%d divergent sections of wd + wnd x fanout (how deeply the runs' nondeterministic decisions\n", s.Sections)
		fmt.Fprintf(bw, "nested) + wtr x TCP distance (how many more trace change points, TCPs, one run executed),\n")
		fmt.Fprintf(bw, "plus wd + wtr x TCPs for each goroutine found in one run only.\n")
		var more []string
		if limit > 0 && len(groups) > limit {
			more = append(more, fmt.Sprintf("%d more statements: -all", len(groups)-limit))
		}
		if !o.Sections {
			more = append(more, "every section with its measures: -sections")
		}
		more = append(more, "everything: -json")
		fmt.Fprintf(bw, "%s\n", strings.Join(more, "; "))
	}
	return bw.Flush()
}

// summaryText is the first lines of a report of runs that differ.
func (r *Report) summaryText(w io.Writer, o TextOptions, na, nb string, src *sourceCache) {
	s := r.Summary
	only := "none only in one run"
	if s.OnlyA+s.OnlyB > 0 {
		only = fmt.Sprintf("%d only in %s, %d only in %s", s.OnlyA, na, s.OnlyB, nb)
	}
	fmt.Fprintf(w, "  goroutines     %d matched, %s\n", s.Matched, only)
	if len(r.Sections) > 0 {
		first := firstParted(r.Sections)
		fmt.Fprintf(w, "  first parted   %s (%s) in %s%s\n", first.TCP.Pos, plainKind(first), first.Spawn, whenText(first.A, na))
		if line, ok := src.line(first.TCP.Pos); ok {
			fmt.Fprintf(w, "                   %s\n", line)
		}
		var da, db int64
		for _, sec := range r.Sections {
			da += sec.A.Blocks
			db += sec.B.Blocks
		}
		fmt.Fprintf(w, "  how far apart  %s of the work lies where they went different ways: %d of %d block executions\n",
			percent(da+db, s.BlocksA+s.BlocksB), da, s.BlocksA)
		fmt.Fprintf(w, "                 in %s, %d of %d in %s\n", na, db, s.BlocksB, nb)
		holes := ""
		if s.Unflagged > 0 {
			holes = fmt.Sprintf("; %d at statements the analysis did not mark (holes: see divergo check)", s.Unflagged)
		}
		cut := ""
		if s.CutOff > 0 {
			cut = fmt.Sprintf("; %d cut off at exit (a goroutine still running or blocked when the program ended)", s.CutOff)
		}
		fmt.Fprintf(w, "  where          they parted %s, at %s%s%s\n", plural(int64(s.Sections), "time"), plural(int64(len(r.Groups)), "statement"), cut, holes)
	}
}

// percent formats part/whole as a percentage that is never rounded to 0 or
// 100 when it is not exactly that.
func percent(part, whole int64) string {
	if whole <= 0 {
		return "-"
	}
	p := 100 * float64(part) / float64(whole)
	switch {
	case part == 0:
		return "0%"
	case p < 1:
		return "<1%"
	case part >= whole:
		return "100%"
	case p > 99:
		return ">99%"
	}
	return fmt.Sprintf("%.0f%%", p)
}

// plainKind names what kind of statement a section parted at.
func plainKind(s Section) string {
	switch {
	case s.CutOff:
		return "cut off at exit: a goroutine still running or blocked"
	case s.Unflagged:
		return "no change point: a hole in the analysis"
	}
	switch s.TCP.Kind {
	case "maprange":
		return "range over a map"
	case "index":
		return "index on shared data"
	case "input":
		return "input: time or random numbers"
	case "none":
		return "no change point"
	}
	return s.TCP.Kind
}

func groupText(w io.Writer, n int, g *Group, na, nb string, src *sourceCache) {
	sec := Section{TCP: g.Where, CutOff: g.CutOff, Unflagged: g.Unflagged}
	fmt.Fprintf(w, "\n%d. %s  %s, %s\n", n, g.Where.Pos, plainKind(sec), plural(int64(len(g.Sections)), "time"))
	if line, ok := src.line(g.Where.Pos); ok {
		fmt.Fprintf(w, "     %s\n", line)
	}
	var gs []string
	for _, c := range g.Goroutines {
		if c.N > 1 {
			gs = append(gs, fmt.Sprintf("%s (%d)", c.What, c.N))
		} else {
			gs = append(gs, c.What)
		}
	}
	fmt.Fprintf(w, "   %s%s\n", label("goroutines"), listed(gs, 3))
	fmt.Fprintf(w, "   %s\n", label("what they did"))
	for i, t := range g.Took {
		if i == 3 {
			fmt.Fprintf(w, "     and %d other combinations\n", len(g.Took)-3)
			break
		}
		fmt.Fprintf(w, "     %s: %s; %s: %s (%s)\n", na, t.A, nb, t.B, plural(int64(t.N), "time"))
	}
	fmt.Fprintf(w, "   %s%s: %s; %s: %s\n", label("inside"), na, workText(g.A), nb, workText(g.B))
	fmt.Fprintf(w, "   %s%s\n", label("meet again"), g.CP)
}

// label pads the name of a line of a group.
func label(s string) string { return fmt.Sprintf("%-13s", s) }

// listed joins at most k items and says how many it left out.
func listed(items []string, k int) string {
	if len(items) <= k {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:k], ", ") + fmt.Sprintf(" and %d more", len(items)-k)
}

func workText(s Side) string {
	t := plural(s.Blocks, "block") + ", " + plural(s.Instrs, "instruction")
	if s.TimeNS > 0 {
		t += ", " + time.Duration(s.TimeNS).String()
	}
	return t
}

// lockText sums the lock-order annotations by statement.
func lockText(w io.Writer, ls []LockOrder) {
	by := map[string]int{}
	total := 0
	for _, l := range ls {
		by[l.TCP.Pos] += int(l.Count)
		total += int(l.Count)
	}
	var parts []string
	for _, c := range counts(by) {
		parts = append(parts, fmt.Sprintf("%s (%d)", c.What, c.N))
	}
	fmt.Fprintf(w, "\nlock order: %d acquisitions took a lock in another order, at %s;\n", total, listed(parts, 3))
	fmt.Fprintf(w, "  not divergences: the runs did the same work under the lock, in another order\n")
}

// sectionsText lists every section with the paper's measures (-sections).
func sectionsText(bw io.Writer, r *Report, na, nb string, src *sourceCache) {
	fmt.Fprintf(bw, "\nEvery divergent section, by its term of the distance:\n")
	for i, sec := range r.Ranked() {
		fmt.Fprintf(bw, "\n#%d  d=%s  goroutine %d ~ %d (%s)\n", i+1, num(sec.Distance), sec.Goroutine, sec.GoroutineB, sec.Spawn)
		what := sec.TCP.Kind + " at " + sec.TCP.Pos
		switch {
		case sec.CutOff:
			what = "block " + sec.TCP.Pos + " (cut off at exit: a goroutine was still running or blocked when the program ended)"
		case sec.Unflagged:
			what = "block " + sec.TCP.Pos + " (no TCP: unflagged, a hole in the analysis)"
		}
		fmt.Fprintf(bw, "    %s diverged; converges at %s\n", what, cpText(&sec))
		if line, ok := src.line(sec.TCP.Pos); ok {
			fmt.Fprintf(bw, "      %s\n", line)
		}
		fmt.Fprintf(bw, "    %s: %s: %s\n", na, sec.A.Took, sideText(sec.A))
		fmt.Fprintf(bw, "    %s: %s: %s\n", nb, sec.B.Took, sideText(sec.B))
		fmt.Fprintf(bw, "    fanout %d, tcp distance %d, tcp frequency distance %.3f\n", sec.Fanout, sec.TCPDistance, sec.TCPFreqDistance)
	}
	if len(r.LockOrder) > 0 {
		fmt.Fprintf(bw, "\nlock order (annotations, not divergence):\n")
		for _, l := range r.LockOrder {
			fmt.Fprintf(bw, "    %s in goroutine %d: %d acquisitions in another order\n", l.TCP.Pos, l.Goroutine, l.Count)
		}
	}
}

func sideText(s Side) string {
	t := fmt.Sprintf("%d blocks, %d TCPs, depth %d", s.Blocks, s.TCPs, s.Depth)
	if s.TimeNS > 0 {
		t += ", " + time.Duration(s.TimeNS).String()
	}
	return t
}

// num formats a distance without trailing zeros.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// sourceCache reads source lines for positions "file:line".
type sourceCache struct {
	root  string
	files map[string][]string
}

func (c *sourceCache) line(pos string) (string, bool) {
	if c.root == "" {
		return "", false
	}
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return "", false
	}
	n, err := strconv.Atoi(pos[i+1:])
	if err != nil || n < 1 {
		return "", false
	}
	file := pos[:i]
	if c.files == nil {
		c.files = map[string][]string{}
	}
	lines, ok := c.files[file]
	if !ok {
		data, err := htmlpage.ReadSource(c.root, file)
		if err == nil {
			lines = strings.Split(string(data), "\n")
		}
		c.files[file] = lines
	}
	if n > len(lines) {
		return "", false
	}
	return fmt.Sprintf("%d\t%s", n, strings.TrimSpace(lines[n-1])), true
}
