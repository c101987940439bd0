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

// lineCount is one line of a block, or of a function it called that
// records nothing, and the CPU time sampled there.
type lineCount struct {
	file string
	line int
	fn   int // the function holding the line when it is not the block's, plus 1
	n    int64
}

// lineShares maps each block that was sampled to its sampled lines, in
// order of position. A sample counts at its innermost frame in one of the
// program's files, for the block of the innermost frame whose function is
// recorded (blockAt): a function literal's block, not the block of the
// statement that holds the literal, and a deferred call's time at the
// closing brace of its own function's last block. A function with no
// probe records nothing, so the trace gives its time to the block that
// called it; its samples go there too, at their own lines: a slow loop in
// a helper with no change point is a step at the loop's line, not at the
// call.
func lineShares(g *tbb.Graph, p *profile.Profile, defers *deferLines) map[int32][]lineCount {
	if p == nil || len(p.Sample) == 0 {
		return nil
	}
	fs := newFileSet(g)
	found := map[gotrace.Frame]*tbb.Block{}
	recorded := recordedFuncs(g)
	type at struct {
		file string
		line int
		fn   int
	}
	counts := map[int32]map[at]int64{}
	v := cpuValue(p)
	var frames []gotrace.Frame
	for _, s := range p.Sample {
		if v >= len(s.Value) {
			continue
		}
		var callee string
		frames, callee = programFrames(s, fs, frames[:0])
		if len(frames) == 0 {
			continue
		}
		var b, inner *tbb.Block
		for i, f := range frames {
			fb, ok := found[f]
			if !ok {
				fb = g.Block(blockAt(g, fs, f))
				found[f] = fb
			}
			if i == 0 {
				inner = fb
			}
			if fb != nil && recorded[fb.Func] {
				b = fb
				break
			}
		}
		if b == nil {
			continue
		}
		m := counts[int32(b.ID)]
		if m == nil {
			m = map[at]int64{}
			counts[int32(b.ID)] = m
		}
		k := at{file: fs.of(frames[0].File), line: frames[0].Line}
		if callee != "" {
			k.line = cmp.Or(defers.line(k.file, k.line, callee), k.line)
		}
		if inner != nil && inner.Func != b.Func {
			k.fn = inner.Func + 1
		}
		m[k] += s.Value[v]
	}
	out := make(map[int32][]lineCount, len(counts))
	for id, m := range counts {
		var ls []lineCount
		for pos, n := range m {
			if n > 0 {
				ls = append(ls, lineCount{pos.file, pos.line, pos.fn, n})
			}
		}
		slices.SortFunc(ls, func(x, y lineCount) int { return cmp.Or(cmp.Compare(x.file, y.file), cmp.Compare(x.line, y.line)) })
		if len(ls) > 0 {
			out[id] = ls
		}
	}
	return out
}

// recordedFuncs are the functions with a probe: those that record their
// blocks. The others' time is the calling block's.
func recordedFuncs(g *tbb.Graph) map[int]bool {
	out := map[int]bool{}
	for _, b := range g.Blocks {
		if b != nil && b.Probe {
			out[b.Func] = true
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

// programFrames appends to out a sample's frames in the program's files,
// innermost first (a location's first line is the innermost of the calls
// inlined there), and returns the function the first of them called, ""
// when it is the innermost frame.
func programFrames(s *profile.Sample, fs fileSet, out []gotrace.Frame) ([]gotrace.Frame, string) {
	var callee, last string
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function == nil {
				continue
			}
			if fs.of(ln.Function.Filename) != "" {
				if len(out) == 0 {
					callee = last
				}
				out = append(out, gotrace.Frame{Func: ln.Function.Name, File: ln.Function.Filename, Line: int(ln.Line)})
			}
			last = ln.Function.Name
		}
	}
	return out, callee
}

// splitLines splits ns, a running step's time in block b at position pos,
// over the block's sampled lines in proportion to their samples: one part
// per line, adding up to ns exactly. A block with no samples keeps ns at
// pos.
func (a *analysis) splitLines(block int32, pos tbb.Pos, ns int64, out []linePart) []linePart {
	ls := a.lines[block]
	if len(ls) == 0 {
		return append(out, linePart{pos: pos, ns: ns})
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
		p.File, p.Line, p.Col = l.file, l.line, 0
		out = append(out, linePart{pos: p, ns: part, fn: l.fn})
	}
	return out
}

// linePart is a running step's time at one line.
type linePart struct {
	pos tbb.Pos
	ns  int64
	fn  int // the function holding the line when it is not the block's, plus 1
}

// lineOf is the line of a step's "file:line" position, 0 when none.
func lineOf(pos string) int {
	line, err := strconv.Atoi(pos[strings.LastIndexByte(pos, ':')+1:])
	if err != nil {
		return 0
	}
	return line
}
