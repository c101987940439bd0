package waittime

import (
	"bufio"
	"fmt"
	"io"
)

// WriteText writes the report for people: sites ranked by waiting time,
// their classes, and for each class at most maxSteps explaining steps
// (all when maxSteps <= 0), signed: + for time on the releasers' paths, -
// for time on the waiters'.
func (r *Report) WriteText(w io.Writer, maxSteps int) error {
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
	for i, s := range r.Sites {
		fmt.Fprintf(bw, "\n%d. %s  %s (%s) in %s  %s in %s\n", i+1, s.Pos, s.Op, s.Kind, s.Func, FormatNs(s.TotalNs), plural(s.Waits, "wait"))
		if s.Unmatched > 0 {
			fmt.Fprintf(bw, "   %d without a releaser\n", s.Unmatched)
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
			}
			fmt.Fprintln(bw)
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
