//go:build ignore

// Flakycorpus judges one divergo test -json report against a corpus
// entry (scripts/flaky-corpus.sh): whether the test came out flaky, and at
// which rank the report names a statement of the mechanism the test's fix
// changed, counting statements and orderings as the text report lists them
// (by score, a statement before an ordering of the same score, the
// assertion after both), in the
// report's own list and in each failure mode's.
//
// Usage: go run scripts/flakycorpus.go REPORT.json TEST RANGES
//
// RANGES is the manifest's mechanism column: file:from-to[,file:from-to],
// files relative to the module's root. It prints one tab-separated line:
// the test's runs, its failures, the mechanism's best rank (0: not named),
// and the rerun command ("-" when the test was not flaky).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
)

type statement struct {
	Pos       string  `json:"pos"`
	Score     float64 `json:"score"`
	Assertion bool    `json:"assertion"`
}

type ordering struct {
	First  struct{ Pos string } `json:"first"`
	Second struct{ Pos string } `json:"second"`
	Score  float64              `json:"score"`
}

type list struct {
	Separators []statement `json:"separators"`
	Orderings  []ordering  `json:"orderings"`
}

type hang struct {
	Pos      string `json:"pos"`
	Released *struct {
		Pos string `json:"pos"`
	} `json:"released"`
}

type report struct {
	Flaky []struct {
		Name     string `json:"name"`
		Runs     int    `json:"runs"`
		Failures int    `json:"failures"`
		Rerun    string `json:"rerun"`
		list
		Modes []list `json:"modes"`
		Hangs []hang `json:"hangs"`
	} `json:"flaky"`
}

// span is one file:from-to of the mechanism.
type span struct {
	file     string
	from, to int
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/flakycorpus.go REPORT.json TEST RANGES")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "flakycorpus:", err)
		os.Exit(1)
	}
}

func run(path, test, ranges string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var rep report
	if err := json.Unmarshal(data, &rep); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	spans, err := parseSpans(ranges)
	if err != nil {
		return err
	}
	for _, ft := range rep.Flaky {
		if ft.Name != test {
			continue
		}
		best := rank(ft.list, spans)
		for _, m := range ft.Modes {
			if r := rank(m, spans); r > 0 && (best == 0 || r < best) {
				best = r
			}
		}
		hung := "-"
		if len(ft.Hangs) > 0 {
			hung = "0"
			for i, h := range ft.Hangs {
				if in(h.Pos, spans) || h.Released != nil && in(h.Released.Pos, spans) {
					hung = strconv.Itoa(i + 1)
					break
				}
			}
		}
		fmt.Printf("%d\t%d\t%d\t%s\t%s\n", ft.Runs, ft.Failures, best, ft.Rerun, hung)
		return nil
	}
	fmt.Printf("0\t0\t0\t-\t-\n")
	return nil
}

func parseSpans(s string) ([]span, error) {
	var out []span
	for _, part := range strings.Split(s, ",") {
		i := strings.LastIndex(part, ":")
		if i < 0 {
			return nil, fmt.Errorf("mechanism %q: no line range", part)
		}
		from, to, ok := strings.Cut(part[i+1:], "-")
		if !ok {
			to = from
		}
		f, err1 := strconv.Atoi(from)
		t, err2 := strconv.Atoi(to)
		if err1 != nil || err2 != nil || f > t {
			return nil, fmt.Errorf("mechanism %q: bad line range", part)
		}
		out = append(out, span{part[:i], f, t})
	}
	return out, nil
}

// rank is the place (from 1) of the first statement or ordering of l in
// the mechanism, as the text report orders them, or 0.
func rank(l list, spans []span) int {
	n, si, oi := 0, 0, 0
	for si < len(l.Separators) || oi < len(l.Orderings) {
		n++
		if oi == len(l.Orderings) || si < len(l.Separators) && !l.Separators[si].Assertion && l.Separators[si].Score >= l.Orderings[oi].Score {
			if in(l.Separators[si].Pos, spans) {
				return n
			}
			si++
			continue
		}
		o := l.Orderings[oi]
		if in(o.First.Pos, spans) || in(o.Second.Pos, spans) {
			return n
		}
		oi++
	}
	return 0
}

// in says whether pos (a path ending in file:line, maybe :col) is in one
// of the spans.
func in(pos string, spans []span) bool {
	for _, s := range spans {
		rest, ok := strings.CutPrefix(suffixFrom(pos, s.file), s.file+":")
		if !ok {
			continue
		}
		line, _, _ := strings.Cut(rest, ":")
		if n, err := strconv.Atoi(line); err == nil && n >= s.from && n <= s.to {
			return true
		}
	}
	return false
}

// suffixFrom is pos from where file starts in it at a path boundary, or "".
func suffixFrom(pos, file string) string {
	for i := strings.LastIndex(pos, file); i >= 0; i = strings.LastIndex(pos[:i], file) {
		if i == 0 || pos[i-1] == '/' {
			return pos[i:]
		}
	}
	return ""
}
