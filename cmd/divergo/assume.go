package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/divergo/divergo/analyzer"
	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/load"
	"github.com/divergo/divergo/internal/progress"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// explainHoles tells, for each hole of c, which assumption of the analysis
// the runs broke there. The analyzer left the statement unmarked because
// the data it decides on went through rules that take data to be the same
// in two runs (analyzer.Rules), or because it saw no shared data there at
// all. It analyses the holes' packages again: without -disable when that
// was given (a planted hole), then without every rule (a hole still
// unmarked is an analyzer miss), then, for the holes that this marks,
// without each rule in turn: those whose absence marks the statement are
// the ones it relied on. What the trace's graph marks is the baseline. An
// analysis takes seconds (the packages' dependencies are analysed too), so
// a miss costs one (two with -disable) and a hole that relied on a rule
// seven.
func explainHoles(c *compare.Check, tests bool, disable string, stderr io.Writer) error {
	var pkgs []string
	for _, h := range c.Holes {
		// An external test package comes with its package's tests.
		p := strings.TrimSuffix(h.Pkg, "_test")
		if p != "" && !slices.Contains(pkgs, p) {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) == 0 {
		return nil
	}
	defer progress.Start(stderr, "divergo check: analysing the holes' packages again, to tell which assumption each broke", nil)()
	r, err := trace.Open(c.Paths[0])
	if err != nil {
		return err
	}
	base := graphLines(r.Graph())
	r.Close()
	l, err := load.Packages(load.Config{Patterns: pkgs, Tests: tests})
	if err != nil {
		return err
	}
	open := c.Holes
	for _, h := range open {
		h.Cause = &compare.HoleCause{}
	}
	if disable != "" {
		marked, err := markedWith(l, "disable", "", disable)
		if err != nil {
			return err
		}
		open = slices.DeleteFunc(slices.Clone(open), func(h *compare.Hole) bool {
			if len(newAt(h, base, marked)) > 0 {
				h.Cause.Planted = disable
				return true
			}
			return false
		})
	}
	if len(open) == 0 {
		return nil
	}
	all := make([]string, len(analyzer.Rules))
	for i, r := range analyzer.Rules {
		all[i] = string(r)
	}
	marked, err := markedWith(l, "without", strings.Join(all, ","), "")
	if err != nil {
		return err
	}
	var relied []*compare.Hole
	for _, h := range open {
		if whys := newAt(h, base, marked); len(whys) > 0 {
			relied = append(relied, h)
			h.Cause.Breaks = []compare.BrokenRule{{Rule: strings.Join(all, ","), Assumption: severalRules, Why: whys[0]}}
		} else {
			h.Cause.Miss = true
		}
	}
	for _, r := range analyzer.Rules {
		if len(relied) == 0 {
			break
		}
		marked, err := markedWith(l, "without", string(r), "")
		if err != nil {
			return err
		}
		for _, h := range relied {
			whys := newAt(h, base, marked)
			if len(whys) == 0 {
				continue
			}
			if h.Cause.Breaks[0].Assumption == severalRules {
				h.Cause.Breaks = nil
			}
			h.Cause.Breaks = append(h.Cause.Breaks, compare.BrokenRule{Rule: string(r), Assumption: r.Assumption(), Why: whys[0]})
		}
	}
	return nil
}

// severalRules is what a hole broke that only switching several rules off
// at once marks.
const severalRules = "one of the analysis's assumptions (docs/SOUNDNESS.md, \"Which assumption a hole breaks\"): only switching several of its rules off together marks this statement"

// graphLines is what the graph marks, by file:line, as markedLines says it.
func graphLines(g *tbb.Graph) map[string][]string {
	out := map[string][]string{}
	for _, b := range g.Blocks {
		for _, t := range append([]*tbb.TCP{b.TCP}, b.Also...) {
			if t != nil {
				key := t.Pos.FileLine()
				out[key] = append(out[key], string(t.Kind)+": "+t.Why)
			}
		}
	}
	return out
}

// markedWith is markedLines with the analyzer's flag set to value, and set
// back to restore after.
func markedWith(l *load.Loaded, flag, value, restore string) (map[string][]string, error) {
	if err := analyzer.Analyzer.Flags.Set(flag, value); err != nil {
		return nil, err
	}
	defer analyzer.Analyzer.Flags.Set(flag, restore)
	return markedLines(l)
}

// markedLines analyses the loaded packages and returns the change points
// by file:line (the file relative to the module root, as the graph names
// it), each as what the analyzer says of it: "KIND: WHY".
func markedLines(l *load.Loaded) (map[string][]string, error) {
	res, err := l.Analyze(analyzer.Analyzer)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, p := range res.Roots {
		for _, d := range p.Diagnostics {
			pos := res.Fset.Position(d.Pos)
			key := res.Rel(pos.Filename) + ":" + strconv.Itoa(pos.Line)
			msg := strings.TrimPrefix(d.Message, "trace change point (")
			msg = strings.Replace(msg, "): ", ": ", 1)
			if i := strings.LastIndex(msg, "; converges at "); i >= 0 {
				msg = msg[:i]
			}
			if !slices.Contains(out[key], msg) {
				out[key] = append(out[key], msg)
			}
		}
	}
	return out, nil
}

// newAt returns what marked says of the hole's lines (the statement that
// decided, and the block's first) that base does not.
func newAt(h *compare.Hole, base, marked map[string][]string) []string {
	var out []string
	for _, pos := range []string{h.At(), h.Pos} {
		key := fileLine(pos)
		for _, m := range marked[key] {
			if !slices.Contains(base[key], m) && !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// fileLine is a position's file:line, without a column.
func fileLine(pos string) string {
	i := strings.LastIndexByte(pos, ':')
	if j := strings.LastIndexByte(pos[:max(i, 0)], ':'); i > 0 && j > 0 {
		if _, err := strconv.Atoi(pos[j+1 : i]); err == nil {
			return pos[:i] // file:line:col
		}
	}
	return pos
}

// explainNote says on stderr that the holes could not be explained, and
// why; check goes on without.
func explainNote(stderr io.Writer, err error) {
	fmt.Fprintf(stderr, "divergo check: could not tell which assumption the holes broke: %v\n", err)
}
