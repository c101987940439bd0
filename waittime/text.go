package waittime

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
)

// WriteText writes the report for people: sites ranked by waiting time,
// their classes, and for each class at most maxSteps explaining steps
// (all when maxSteps <= 0), signed: + for time on the releasers' paths, -
// for time on the waiters'.
func (r *Report) WriteText(w io.Writer, maxSteps int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s waiting in %s at %s", FormatNs(r.TotalNs), plural(r.Waits, "wait"), plural(len(r.Sites), "sync site"))
	if r.Unmatched > 0 {
		fmt.Fprintf(bw, " (%d without a releaser in the trace)", r.Unmatched)
	}
	fmt.Fprintln(bw)
	for i, s := range r.Sites {
		fmt.Fprintf(bw, "\n%d. %s  %s (%s) in %s  %s in %s\n", i+1, s.Pos, s.Op, s.Kind, s.Func, FormatNs(s.TotalNs), plural(s.Waits, "wait"))
		if s.Unmatched > 0 {
			fmt.Fprintf(bw, "   %d without a releaser", s.Unmatched)
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
		}
		for j, c := range s.Classes {
			fmt.Fprintf(bw, "   class %d: %s, %s, %.0f%% explained\n", j+1, plural(c.Waits, "wait"), FormatNs(c.TotalNs), 100*c.Explained)
			for k, st := range c.Steps {
				if maxSteps > 0 && k == maxSteps {
					fmt.Fprintf(bw, "     ... %d more\n", len(c.Steps)-k)
					break
				}
				fmt.Fprintf(bw, "     %s\n", stepLine(st))
			}
		}
		for _, in := range s.Instances {
			fmt.Fprintf(bw, "   wait %s %s..%s", in.Goroutine, FormatNs(in.Begin), FormatNs(in.End))
			if in.ReleaserName != "" {
				fmt.Fprintf(bw, " released by %s %s at %s (%s)", in.ReleaserName, in.ReleaseOp, in.ReleasePos, FormatNs(in.ReleaseTime))
			} else if in.Why != "" {
				fmt.Fprintf(bw, " no releaser: %s", in.Why)
			}
			fmt.Fprintln(bw)
		}
	}
	if len(r.Unfinished) > 0 {
		fmt.Fprintf(bw, "\n%s still blocked when the trace ended (deadlock or circular wait?):\n", plural(len(r.Unfinished), "wait"))
		for _, u := range r.Unfinished {
			fmt.Fprintf(bw, "   %s %s at block %d since %s\n", u.Goroutine, u.Op, u.Block, FormatNs(u.Begin))
		}
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

// stepLine formats a step: "+ pool.go:42 in main/worker@pool.go:23#2  180 ms".
func stepLine(st Step) string {
	sign := "+"
	if st.Ns < 0 {
		sign = "-"
	}
	state := ""
	if st.State != Running.String() {
		state = " (" + st.State + ")"
	}
	return fmt.Sprintf("%s %s%s in %s  %s", sign, st.Pos, state, st.Goroutine, FormatNs(abs(st.Ns)))
}
