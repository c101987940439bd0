package waittime

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/google/pprof/profile"
)

// Time per statement. The trace times blocks: a block's running time is
// its share, by instructions, of the time between two timestamps of its
// goroutine, and a block is named by its first line. A call into code
// that is not instrumented is one instruction of its block however long
// it runs, so a block "defer wg.Done(); a := sha256.Sum256(buf); b :=
// sha256.Sum256(buf)" had all its time at the defer's line. Go's CPU
// samples of the same run (Options.CPUProfile, which the runtime records
// beside the trace) say which line of the block the goroutine was on: a
// block's time is split over its lines by its samples there, and a block
// with none keeps it at its first line (docs/ARCHITECTURE.md, "Time per
// statement").

// lineCount is one line of a block and the CPU time sampled there.
type lineCount struct {
	line int
	n    int64
}

// lineShares maps each block of more than one line that was sampled to its
// sampled lines, in order of line. A sample counts at its innermost frame
// in one of the program's files, for that frame's block (blockAt): a
// function literal's block, not the block of the statement that holds the
// literal, and a deferred call's time at the closing brace of its own
// function's last block.
func lineShares(g *tbb.Graph, p *profile.Profile) map[int32][]lineCount {
	if p == nil || len(p.Sample) == 0 {
		return nil
	}
	fs := newFileSet(g)
	found := map[gotrace.Frame]*tbb.Block{}
	counts := map[int32]map[int]int64{}
	v := cpuValue(p)
	for _, s := range p.Sample {
		f, ok := programFrame(s, fs)
		if !ok || v >= len(s.Value) {
			continue
		}
		line := f.Line
		b, ok := found[f]
		if !ok {
			b = g.Block(blockAt(g, fs, f))
			found[f] = b
		}
		if b == nil || b.End.Line <= b.Pos.Line {
			continue // one line: its time is at that line already
		}
		m := counts[int32(b.ID)]
		if m == nil {
			m = map[int]int64{}
			counts[int32(b.ID)] = m
		}
		m[line] += s.Value[v]
	}
	out := make(map[int32][]lineCount, len(counts))
	for id, m := range counts {
		var ls []lineCount
		for line, n := range m {
			if n > 0 {
				ls = append(ls, lineCount{line, n})
			}
		}
		slices.SortFunc(ls, func(x, y lineCount) int { return cmp.Compare(x.line, y.line) })
		if len(ls) > 0 {
			out[id] = ls
		}
	}
	return out
}

// cpuValue is the index of the sampled CPU time in p's values (Go's CPU
// profiles hold a count and the time), else the count.
func cpuValue(p *profile.Profile) int {
	for i, st := range p.SampleType {
		if st.Type == "cpu" {
			return i
		}
	}
	return 0
}

// programFrame is a sample's innermost frame in one of the program's files
// (a location's first line is the innermost of the calls inlined there);
// false when none is.
func programFrame(s *profile.Sample, fs fileSet) (gotrace.Frame, bool) {
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function == nil {
				continue
			}
			if fs.of(ln.Function.Filename) != "" {
				return gotrace.Frame{Func: ln.Function.Name, File: ln.Function.Filename, Line: int(ln.Line)}, true
			}
		}
	}
	return gotrace.Frame{}, false
}

// splitLines splits ns, a running step's time in block b at position pos,
// over the block's sampled lines in proportion to their samples: one part
// per line, adding up to ns exactly. A block with no samples keeps ns at
// pos.
func (a *analysis) splitLines(block int32, pos tbb.Pos, ns int64, out []linePart) []linePart {
	ls := a.lines[block]
	if len(ls) == 0 {
		return append(out, linePart{pos, ns})
	}
	var total int64
	for _, l := range ls {
		total += l.n
	}
	left := ns
	for i, l := range ls {
		part := left
		if i < len(ls)-1 {
			part = int64(float64(ns) * float64(l.n) / float64(total))
		}
		left -= part
		p := pos
		p.Line, p.Col = l.line, 0
		out = append(out, linePart{p, part})
	}
	return out
}

// linePart is a running step's time at one line.
type linePart struct {
	pos tbb.Pos
	ns  int64
}

// lineOf is the line of a step's "file:line" position, 0 when none.
func lineOf(pos string) int {
	line, err := strconv.Atoi(pos[strings.LastIndexByte(pos, ':')+1:])
	if err != nil {
		return 0
	}
	return line
}
