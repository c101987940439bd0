package waittime

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/divergo/divergo/internal/trace"
)

// WriteText writes the report for people: sites ranked by waiting time,
// their classes, and for each class at most maxSteps explaining steps
// (all when maxSteps <= 0), signed: + for time on the releasers' paths, -
// for time on the waiters'.
func (r *Report) WriteText(w io.Writer, maxSteps int) error {
	return r.writeText(w, textLimits{steps: maxSteps})
}

// First screen: the sites and classes WriteTop shows.
const (
	topSites   = 5
	topClasses = 3
)

// WriteTop writes the first screen of the report: WriteText's, with the
// topSites sites that waited longest and the topClasses largest classes
// of each, then one line saying how much is left out. It answers "where
// did the program wait, and for what" without the tail of small sites
// and classes that made a 120-line program's report 170 lines long.
func (r *Report) WriteTop(w io.Writer, maxSteps int) error {
	return r.writeText(w, textLimits{sites: topSites, classes: topClasses, steps: maxSteps})
}

// textLimits bounds what the text shows; 0 is no bound.
type textLimits struct{ sites, classes, steps int }

func (r *Report) writeText(w io.Writer, lim textLimits) error {
	maxSteps := lim.steps
	bw := bufio.NewWriter(w)
	if r.Blocked != nil {
		// First: a deadlock or a leak is what a reader must see at once.
		r.Blocked.WriteText(bw, 5)
		fmt.Fprintln(bw)
	}
	fmt.Fprintf(bw, "%s waiting in %s at %s", FormatNs(r.TotalNs), plural(r.Waits, "wait"), plural(len(r.Sites), "sync site"))
	if r.Unmatched > 0 {
		fmt.Fprintf(bw, " (%d without a releaser in the trace)", r.Unmatched)
	}
	fmt.Fprintln(bw)
	if r.GoTrace && r.Unmatched > 0 {
		fmt.Fprintf(bw, "Go's execution trace of the run names who woke %d of the %d waits without a releaser.\n", r.Woken, r.Unmatched)
	}
	if r.Perturbed || r.PerturbNs > 0 {
		fmt.Fprintf(bw, "%s; divergo delayed goroutines %s in all, %s\n", perturbedRun(r), FormatNs(r.PerturbNs), perturbShare(r.WaitPerturbNs))
	}
	var moreSites, moreClasses int
	var moreNs int64
	for i, s := range r.Sites {
		if lim.sites > 0 && i >= lim.sites {
			moreSites++
			moreNs += s.TotalNs
			continue
		}
		fmt.Fprintf(bw, "\n%d. %s  %s (%s) in %s  %s in %s\n", i+1, s.Pos, s.Op, s.Kind, s.Func, FormatNs(s.TotalNs), plural(s.Waits, "wait"))
		if s.Unmatched > 0 {
			fmt.Fprintf(bw, "   %d without a releaser, %s", s.Unmatched, FormatNs(s.UnmatchedNs))
			// The reasons, most frequent first.
			whys := slices.SortedFunc(maps.Keys(s.Why), func(x, y string) int {
				return cmp.Or(cmp.Compare(s.Why[y], s.Why[x]), cmp.Compare(x, y))
			})
			for i, w := range whys {
				sep := "; "
				if i == 0 {
					sep = ": "
				}
				fmt.Fprintf(bw, "%s%d %s", sep, s.Why[w], w)
			}
			fmt.Fprintln(bw)
			writeWakers(bw, s.WokenBy)
		}
		for j, c := range s.Classes {
			if lim.classes > 0 && j >= lim.classes {
				moreClasses++
				continue
			}
			fmt.Fprintf(bw, "   %s\n", classSummary(j, c))
			writeSteps(bw, c, maxSteps, r.blocks)
		}
		if lim.classes > 0 && len(s.Classes) > lim.classes {
			var ns int64
			for _, c := range s.Classes[lim.classes:] {
				ns += c.TotalNs
			}
			n := len(s.Classes) - lim.classes
			what := "classes"
			if n == 1 {
				what = "class"
			}
			fmt.Fprintf(bw, "   ... %d more %s, %s\n", n, what, FormatNs(ns))
		}
		for _, in := range s.Instances {
			fmt.Fprintf(bw, "   wait %s %s..%s", shortPath(in.Goroutine, in.GID), FormatNs(in.Begin), FormatNs(in.End))
			if in.ReleaserName != "" {
				fmt.Fprintf(bw, " released by %s %s at %s (%s)", in.ReleaserName, in.ReleaseOp, in.ReleasePos, FormatNs(in.ReleaseTime))
				if in.Why != "" {
					fmt.Fprintf(bw, ", not explained: %s", in.Why)
				}
			} else if in.Why != "" {
				fmt.Fprintf(bw, " no releaser: %s", in.Why)
				if in.WokenBy != "" {
					fmt.Fprintf(bw, "; woken by %s, says Go's execution trace", in.WokenBy)
				}
			}
			fmt.Fprintln(bw)
		}
	}
	if moreSites > 0 || moreClasses > 0 {
		fmt.Fprintf(bw, "\n")
		if moreSites > 0 {
			fmt.Fprintf(bw, "%s more, %s of waiting; ", plural(moreSites, "sync site"), FormatNs(moreNs))
		}
		fmt.Fprintf(bw, "every site and class: divergo wait -all\n")
	}
	return bw.Flush()
}

// FormatNs formats a duration in ns with three significant digits and a
// unit: "180 ms", "1.25 s", "-3.40 µs".
func FormatNs(ns int64) string {
	v, unit := float64(ns), "ns"
	switch a := abs(ns); {
	case a >= 1e9:
		v, unit = v/1e9, "s"
	case a >= 1e6:
		v, unit = v/1e6, "ms"
	case a >= 1e3:
		v, unit = v/1e3, "µs"
	default:
		return fmt.Sprintf("%d ns", ns)
	}
	switch a := max(v, -v); {
	case a >= 99.95:
		return fmt.Sprintf("%.0f %s", v, unit)
	case a >= 9.995:
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	return fmt.Sprintf("%.2f %s", v, unit)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// writeSteps writes a class's steps, at most maxSteps of them (all when
// maxSteps <= 0), and what they leave unexplained when that is 1% of the
// class's waiting time or more.
//
// A step can be larger than the wait: the releasers' path since the last
// common synchronization ran 4.29 ms where the waiter's ran 4.06 ms, and
// the wait was the 235 µs between. Then the two sides' sums come first,
// so the reader sees the steps cancel rather than a step that explains
// more than the wait.
func writeSteps(w io.Writer, c *Class, maxSteps int, blocks bool) {
	var plus, minus, largest int64
	for _, st := range c.Steps {
		if st.Ns > 0 {
			plus += st.Ns
		} else {
			minus += st.Ns
		}
		largest = max(largest, abs(st.Ns))
	}
	if largest > c.TotalNs && plus != 0 && minus != 0 {
		fmt.Fprintf(w, "     (steps larger than the wait cancel out: +%s, -%s)\n", FormatNs(plus), FormatNs(-minus))
	}
	for k, st := range c.Steps {
		if maxSteps > 0 && k == maxSteps {
			fmt.Fprintf(w, "     ... %d more\n", len(c.Steps)-k)
			break
		}
		fmt.Fprintf(w, "     %s\n", stepLine(st, blocks))
	}
	if u := c.UnexplainedNs; u != 0 && 100*abs(u) >= c.TotalNs {
		what := "not explained"
		if u < 0 {
			what = "explained twice"
		}
		fmt.Fprintf(w, "     (%s: %s)\n", what, FormatNs(abs(u)))
	}
}

// stepLine formats a step: "+ pool.go:42 in main/worker@pool.go:23#2  180 ms".
// Steps that name no line say what their time was instead.
func stepLine(st Step, blocks bool) string {
	sign := "+"
	if st.Ns < 0 {
		sign = "-"
	}
	where := st.Pos
	switch st.State {
	case Outside.String():
		where = "(not aligned: started outside instrumented code)"
	case Running.String():
	default:
		where += " (" + st.State + ")"
	}
	if blocks && st.Pos != "" {
		where += fmt.Sprintf(" [block %d]", st.Block)
	}
	return fmt.Sprintf("%s %s in %s  %s", sign, where, trace.ElidePath(st.Goroutine, trace.MaxPathText), FormatNs(abs(st.Ns)))
}

// perturbedRun says how a run was perturbed.
func perturbedRun(r *Report) string {
	if r.Perturbed {
		return fmt.Sprintf("perturbed run (DIVERGO_PERTURB=%d)", r.PerturbSeed)
	}
	return "perturbed run"
}

// perturbShare says what divergo's delays did to the waits: a releaser
// delayed made a wait longer, a waiter delayed before it waited made it
// shorter, and the net is taken out of the explanations.
func perturbShare(ns int64) string {
	how := "longer"
	if ns < 0 {
		how = "shorter"
	}
	return fmt.Sprintf("which made the waits %s %s; taken out of every figure", FormatNs(abs(ns)), how)
}

// classSummary is the j-th class's line: its waits, the program's time in
// them (divergo's delays are out of it, said once in the header) and how
// much of it the steps explain.
func classSummary(j int, c *Class) string {
	return fmt.Sprintf("class %d: %s, %s, %.0f%% explained", j+1, plural(c.Waits, "wait"), FormatNs(c.TotalNs), 100*c.Explained)
}
