package compare

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// TextOptions configure [Report.WriteText].
type TextOptions struct {
	// NameA and NameB name the traces in the summary line.
	NameA, NameB string
	// Root is the module root: source lines are read from Root/<file> when
	// that file exists. Empty means positions only.
	Root string
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

// WriteText writes the report for people: a summary line, then the sections
// ranked by impact with their source lines, then lock-order notes and the
// goroutines present in one run only.
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
	wt := fmt.Sprintf("wd=%s wnd=%s wtr=%s", num(s.Weights.D), num(s.Weights.ND), num(s.Weights.TR))
	if s.Same {
		fmt.Fprintf(bw, "%s and %s are the same: %d goroutines matched, distance %s (%s)\n", na, nb, s.Matched, num(r.Distance), wt)
	} else {
		cut := ""
		if s.CutOff > 0 {
			cut = fmt.Sprintf(", %d cut off at exit", s.CutOff)
		}
		fmt.Fprintf(bw, "%s and %s differ: distance %s (%s), %d divergent sections (%d unflagged%s) in %d matched goroutines, %d only in %s, %d only in %s\n",
			na, nb, num(r.Distance), wt, s.Sections, s.Unflagged, cut, s.Matched, s.OnlyA, na, s.OnlyB, nb)
	}
	src := sourceCache{root: o.Root}
	for i, sec := range r.Ranked() {
		fmt.Fprintf(bw, "\n#%d  d=%s  goroutine %d ~ %d (%s)\n", i+1, num(sec.Distance), sec.Goroutine, sec.GoroutineB, sec.Spawn)
		what := sec.TCP.Kind + " at " + sec.TCP.Pos
		switch {
		case sec.CutOff:
			what = "block " + sec.TCP.Pos + " (cut off at exit: a goroutine was still running or blocked when the program ended)"
		case sec.Unflagged:
			what = "block " + sec.TCP.Pos + " (no TCP: unflagged, a hole in the analysis)"
		}
		conv := "converges at " + sec.CP.Pos
		switch {
		case sec.Unresolved:
			conv = "never converges: a stream ended first"
		case sec.CP.Pos == "return":
			conv = "converges at return of " + sec.CP.Func
		}
		fmt.Fprintf(bw, "    %s diverged; %s\n", what, conv)
		if line, ok := src.line(sec.TCP.Pos); ok {
			fmt.Fprintf(bw, "      %s\n", line)
		}
		fmt.Fprintf(bw, "    %s: %s\n", na, sideText(sec.A))
		fmt.Fprintf(bw, "    %s: %s\n", nb, sideText(sec.B))
		fmt.Fprintf(bw, "    fanout %d, tcp distance %d, tcp frequency distance %.3f\n", sec.Fanout, sec.TCPDistance, sec.TCPFreqDistance)
	}
	if len(r.LockOrder) > 0 {
		fmt.Fprintf(bw, "\nlock order (annotations, not divergence):\n")
		for _, l := range r.LockOrder {
			fmt.Fprintf(bw, "    %s in goroutine %d: %d acquisitions in another order\n", l.TCP.Pos, l.Goroutine, l.Count)
		}
	}
	for _, g := range []struct {
		name string
		l    []Lone
	}{{na, r.Goroutines.OnlyA}, {nb, r.Goroutines.OnlyB}} {
		for _, l := range g.l {
			fmt.Fprintf(bw, "\nonly in %s: goroutine %d (%s): %d blocks, %d TCPs\n", g.name, l.ID, l.Spawn, l.Blocks, l.TCPs)
		}
	}
	if s.Anomalies > 0 {
		fmt.Fprintf(bw, "\nwarning: %d events did not fit the program graph; both runs were read alike\n", s.Anomalies)
	}
	return bw.Flush()
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
		data, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(file)))
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
