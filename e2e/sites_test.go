package e2e

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSites runs testdata/sites, whose sync operations and go statements
// sit on later lines of their blocks, and checks with golden files that
// "divergo wait" and "divergo show -events" name each one by its own line
// (a sleep on line 22 of a block starting at line 21 is main.go:22), and
// that the goroutines started by wg.Go on three lines are named after
// their three lines. Times, addresses and the sub-millisecond steps a
// scheduler decides are left out of the golden text; lines, operations,
// goroutines and the order of the waits (fixed by the sleeps) stay.
func TestSites(t *testing.T) {
	t.Parallel()
	p := prepare(t, "sites", false)
	r := p.run(t)
	expect(t, "output", r.stdout, "received 7\ntotal 6\nother 2\n")
	r.checkTree(t)
	r.checkReleasers(t)
	tr := filepath.Join(t.TempDir(), "run.dvt")
	if st, _, stderr := divergo(t, p.dir, "run", "-n", "1", "-o", filepath.Dir(tr), "."); st != 0 {
		t.Fatalf("divergo run: status %d\n%s", st, stderr)
	}
	tr = filepath.Join(filepath.Dir(tr), "run-1.dvt")

	st, out, stderr := divergo(t, p.dir, "wait", tr)
	if st != 0 {
		t.Fatalf("divergo wait: status %d\n%s", st, stderr)
	}
	goldenFile(t, "sites-wait.golden", waitLines(out))

	st, out, stderr = divergo(t, p.dir, "show", "-events", tr)
	if st != 0 {
		t.Fatalf("divergo show -events: status %d\n%s", st, stderr)
	}
	goldenFile(t, "sites-events.golden", eventLines(out))
}

var (
	durRe    = regexp.MustCompile(`-?[0-9.]+ (ns|µs|ms|s)\b`)
	msRe     = regexp.MustCompile(`[0-9.]+ (ms|s)$`)
	pctRe    = regexp.MustCompile(`-?[0-9]+% explained`)
	headRe   = regexp.MustCompile(`^[0-9]+\. `)
	objRe    = regexp.MustCompile(`object 0x[0-9a-f]+ `)
	timeRe   = regexp.MustCompile(`, t=.*$`)
	goidRe   = regexp.MustCompile(`^goroutine [0-9]+ | \(go id [0-9]+\)`)
	childRe  = regexp.MustCompile(`spawn goroutine [0-9]+ `)
	keepOps  = regexp.MustCompile(`^\s+(spawn|lock|unlock|send|recv|sleep|wg\.|select|close)`)
	siteLine = regexp.MustCompile(`^[0-9]+\. (\S+)\s+(\S+) \((\w+)\) in (\S+)\s+(.*) in ([0-9]+) waits?$`)
)

// waitLines keeps the sites of "divergo wait" that waited a millisecond or
// more and, in their classes, the sleeps of a millisecond or more, without
// their times: each is a sleep of the program, at its own line. Other steps
// reach a millisecond only on a loaded machine (a goroutine runnable that
// long after its go statement, CI saw one), and are left out.
func waitLines(out string) string {
	// One section per site, sorted by line: the report orders them by
	// waiting time, and on a loaded machine a 30 ms sleep can outlast a
	// 45 ms one (the recv before the wg.Wait, once in a whole-suite run).
	var sites []string
	var b *strings.Builder
	keep := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case headRe.MatchString(line):
			m := siteLine.FindStringSubmatch(line)
			keep = m != nil && msRe.MatchString(m[5])
			if keep {
				if b != nil {
					sites = append(sites, b.String())
				}
				b = new(strings.Builder)
				b.WriteString(m[1] + " " + m[2] + " (" + m[3] + ") in " + m[4] + ", " + m[6] + " wait\n")
			}
		case keep && strings.HasPrefix(strings.TrimSpace(line), "class "):
			b.WriteString("   " + pctRe.ReplaceAllString(durRe.ReplaceAllString(strings.TrimSpace(line), "T"), "P") + "\n")
		case keep && msRe.MatchString(line) && strings.Contains(line, "(sleep)"):
			b.WriteString("     " + durRe.ReplaceAllString(strings.TrimSpace(line), "T") + "\n")
		}
	}
	if b != nil {
		sites = append(sites, b.String())
	}
	slices.Sort(sites)
	return strings.Join(sites, "")
}

// eventLines keeps the goroutine headers and the spawn and sync events of
// "divergo show -events", without times, addresses and ids.
func eventLines(out string) string {
	var b strings.Builder
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "goroutine "):
			b.WriteString("goroutine " + goidRe.ReplaceAllString(line, "") + "\n")
		case keepOps.MatchString(line):
			line = childRe.ReplaceAllString(objRe.ReplaceAllString(timeRe.ReplaceAllString(line, ""), ""), "spawn goroutine ")
			b.WriteString("\t" + strings.Join(strings.Fields(line), " ") + "\n")
		}
	}
	return b.String()
}
