package flaky

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// assertionReach is how many lines above its failure message a statement
// may be and still be the check that reports it: the `if` of
// `if got != want { t.Fatalf(...) }`, or of a condition spread over a few
// lines.
const assertionReach = 3

// markAssertions marks the separators that are the checks reporting a
// failure at one of wheres (Failure.Where, "file.go:line"): a statement in
// that file at most assertionReach lines above the message, or on it. Such
// a check parts failing from passing runs perfectly and names only the
// symptom; the race that decided it came earlier. Marked separators go
// after the others, keeping their order: the report names the cause
// first and the assertion after it.
func markAssertions(seps []Separator, wheres []string) {
	for i := range seps {
		seps[i].Assertion = slices.ContainsFunc(wheres, func(w string) bool { return reports(seps[i].Pos, w) })
	}
	slices.SortStableFunc(seps, func(a, b Separator) int {
		switch {
		case a.Assertion == b.Assertion:
			return 0
		case b.Assertion:
			return -1
		}
		return 1
	})
}

// reports says whether the statement at pos (a path ending in file:line)
// is the check of the failure message at where (file.go:line).
func reports(pos, where string) bool {
	pf, pl, ok1 := splitLine(pos)
	wf, wl, ok2 := splitLine(where)
	if !ok1 || !ok2 || filepath.Base(pf) != filepath.Base(wf) {
		return false
	}
	return pl <= wl && wl-pl <= assertionReach
}

// splitLine splits "dir/file.go:12" into its file and line.
func splitLine(s string) (string, int, bool) {
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	return s[:i], n, err == nil
}
