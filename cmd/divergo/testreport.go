package main

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/divergo/divergo/flaky"
	"github.com/divergo/divergo/waittime"
)

// writeTestReport prints the report for people.
func writeTestReport(w io.Writer, rep *testReport) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s: %d runs (%s; seeds %d..%d)\n", rep.Package, rep.Runs, schedules(rep.Strengths), rep.Seeds[0], rep.Seeds[len(rep.Seeds)-1])
	if len(rep.Flaky) == 0 {
		fmt.Fprintln(bw, "no flaky test: every test passed in all its runs or failed in all of them")
	}
	for _, f := range rep.Failed {
		fmt.Fprintf(bw, "%s failed in every run (%s)", f.Name, rates(f.Schedules))
		if slices.ContainsFunc(f.Schedules, func(r flaky.Rate) bool { return r.Strength == flaky.Unperturbed }) {
			fmt.Fprint(bw, ", unperturbed too: not flaky, see go test")
		}
		fmt.Fprintln(bw)
		writeMessages(bw, f.Messages)
	}
	for _, a := range rep.Alone {
		fmt.Fprintf(bw, "run %d failed beside other runs with %q, which only runs sharing a port or file give: it was made again alone, and counts as that\n", a.Run, a.Error)
	}
	for _, d := range rep.Died {
		fmt.Fprintf(bw, "run %d (seed %d, %s) ended early, the tests after it did not run: %s\n", d.Run, d.Seed, flaky.ScheduleName(d.Strength), d.Why)
	}
	for _, ft := range rep.Flaky {
		fmt.Fprintf(bw, "\n%s: %d of %d runs failed (%s)", ft.Name, ft.Failures, ft.Runs, rates(ft.Schedules))
		if len(ft.Modes) > 1 {
			fmt.Fprintf(bw, ", %d ways", len(ft.Modes))
		}
		fmt.Fprintln(bw)
		writeMessages(bw, ft.Messages)
		if len(ft.Modes) > 1 {
			for i, m := range ft.Modes {
				fmt.Fprintf(bw, "\nfailure %d of %d, %s: %s\n", i+1, len(ft.Modes), countRuns(m.Failures), whereText(m.Where))
				writeSeparators(bw, "these failing runs", m.Separators, m.Orderings, m.Compared)
				if i < len(ft.ModeReruns) {
					fmt.Fprintf(bw, "rerun one: %s\n", ft.ModeReruns[i])
				}
				if i < len(ft.ModeDiffs) {
					fmt.Fprintf(bw, "diff it against a passing run: %s\n", ft.ModeDiffs[i])
				}
			}
			fmt.Fprintln(bw)
			writeSeparators(bw, "all failing runs", ft.Separators, ft.Orderings, ft.Compared)
		} else {
			fmt.Fprintln(bw)
			writeSeparators(bw, "failing runs", ft.Separators, ft.Orderings, ft.Compared)
		}
		if len(ft.GroupWaits) > 0 {
			fmt.Fprintf(bw, "\nwaiting time by sync site, mean per run over %d failing and %d passing runs:\n", ft.GroupRuns[0], ft.GroupRuns[1])
			for i, gw := range ft.GroupWaits {
				if i == 5 {
					break
				}
				fmt.Fprintf(bw, "  %s %s: failing %s in %.1f waits, passing %s in %.1f waits\n", gw.Pos, gw.Op,
					waittime.FormatNs(gw.FailNs), gw.FailWaits, waittime.FormatNs(gw.PassNs), gw.PassWaits)
			}
		}
		if len(ft.Blocked) > 0 {
			fmt.Fprintf(bw, "\nunfinished at the end of failing runs: %s\n", strings.Join(ft.Blocked, ", "))
		}
		if ft.HangsError != "" {
			fmt.Fprintf(bw, "\nblocked at the end of failing runs: not read: %s\n", ft.HangsError)
		}
		if len(ft.Hangs) > 0 {
			fmt.Fprintf(bw, "\nblocked at the end of failing runs, and what ended that wait in passing runs:\n")
			for i, h := range ft.Hangs {
				fmt.Fprintf(bw, "%d. %s\n", i+1, h)
			}
		}
		var seeds []string
		for _, s := range ft.FailSeeds {
			seeds = append(seeds, strconv.FormatInt(s, 10))
		}
		fmt.Fprintf(bw, "\nfailing seeds: %s\n", strings.Join(seeds, " "))
		if ft.Kept != "" {
			fmt.Fprintf(bw, "a failing and a passing run are kept in %s\n", ft.Kept)
		}
		if ft.ReplayError != "" {
			fmt.Fprintf(bw, "the rerun replays no schedule: %s\n", ft.ReplayError)
		}
		fmt.Fprintf(bw, "rerun one: %s\n", ft.Rerun)
		if line := holdLine(ft); line != "" {
			fmt.Fprintln(bw, line)
		}
		if ft.Diff != "" {
			fmt.Fprintf(bw, "diff it against a passing run: %s\n", ft.Diff)
		}
	}
	return bw.Flush()
}

// writeSeparators prints what separates failing runs (what says which)
// from the passing runs, best first: the statements whose outcome parted
// them (separators) and the orders of two sync operations (orderings),
// ranked together by their scores, a statement before an order of the
// same score, and the check that reports the failure after both. The race
// that decides a test is then where its score puts it, not after every
// statement, nor after the assertion.
func writeSeparators(bw io.Writer, what string, seps []flaky.Separator, ords []flaky.Ordering, compared [3]int) {
	fmt.Fprintf(bw, "what separates %s from passing runs (%d fail-pass, %d pass-pass, %d fail-fail pairs compared):\n",
		what, compared[flaky.PairFP], compared[flaky.PairPP], compared[flaky.PairFF])
	if len(seps)+len(ords) == 0 {
		fmt.Fprintln(bw, "  nothing: failing runs parted from passing ones only where like runs part too")
	}
	n, si, oi := 0, 0, 0
	for si < len(seps) || oi < len(ords) {
		if n == 5 {
			fmt.Fprintf(bw, "  ... and %d more (-json lists them)\n", len(seps)-si+len(ords)-oi)
			return
		}
		n++
		if oi == len(ords) || si < len(seps) && !seps[si].Assertion && seps[si].Score >= ords[oi].Score {
			writeSeparator(bw, n, seps[si], compared)
			si++
			continue
		}
		fmt.Fprintf(bw, "%d. the order of two sync operations: %s\n", n, ords[oi])
		oi++
	}
}

// writeSeparator prints separator s as the n-th item.
func writeSeparator(bw io.Writer, n int, s flaky.Separator, compared [3]int) {
	fmt.Fprintf(bw, "%d. %s  %s", n, s.Pos, s.Kind)
	if s.Func != "" {
		fmt.Fprintf(bw, " in %s", s.Func)
	}
	fmt.Fprintf(bw, "  parted %d of %d fail-pass pairs, %d of %d pass-pass, %d of %d fail-fail\n",
		s.Pairs[flaky.PairFP], compared[flaky.PairFP], s.Pairs[flaky.PairPP], compared[flaky.PairPP], s.Pairs[flaky.PairFF], compared[flaky.PairFF])
	if len(s.Failing) > 0 || len(s.Passing) > 0 {
		fmt.Fprintf(bw, "   failing runs: %s; passing runs: %s\n", first(s.Failing), first(s.Passing))
	}
	var gs []string
	for _, g := range s.Goroutines {
		gs = append(gs, fmt.Sprintf("%s (%d)", g.What, g.N))
	}
	fmt.Fprintf(bw, "   goroutines: %s\n", strings.Join(gs, ", "))
}

// maxMessageLines bounds the lines of one message printed: a test that
// failed in every run prints all it logged.
const maxMessageLines = 12

// writeMessages prints failure messages, a multi-line one indented.
func writeMessages(bw io.Writer, ms []flaky.MessageCount) {
	for _, m := range ms {
		lines := strings.Split(m.Message, "\n")
		if n := len(lines); n > maxMessageLines {
			lines = append(lines[:maxMessageLines], fmt.Sprintf("... and %d more lines (-json has them)", n-maxMessageLines))
		}
		fmt.Fprintf(bw, "  %dx %s\n", m.N, strings.Join(lines, "\n      "))
	}
}

// schedules says how many runs were unperturbed and perturbed, and at
// which strengths.
func schedules(strengths []int) string {
	n := map[int]int{}
	for _, s := range strengths {
		n[s]++
	}
	var parts []string
	for _, s := range slices.Sorted(maps.Keys(n)) {
		parts = append(parts, fmt.Sprintf("%d %s", n[s], flaky.ScheduleName(s)))
	}
	return strings.Join(parts, ", ")
}

// rates are a test's failure rates by schedule.
func rates(rs []flaky.Rate) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, r.String())
	}
	return strings.Join(parts, ", ")
}

// runIndexes are the indexes of runs numbered from 1.
func runIndexes(runs []int) []int {
	out := make([]int, len(runs))
	for i, r := range runs {
		out[i] = r - 1
	}
	return out
}

// countRuns is "1 run", "2 runs".
func countRuns(n int) string {
	if n == 1 {
		return "1 run"
	}
	return strconv.Itoa(n) + " runs"
}

// whereText names a failure mode.
func whereText(where string) string {
	if where == "" {
		return "no failure message"
	}
	return where
}

func first(xs []string) string {
	if len(xs) == 0 {
		return "-"
	}
	return xs[0]
}
