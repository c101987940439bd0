package waittime

import (
	"math"
	"strings"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/tbb"
)

// Waits inside code that is not instrumented, from Go's execution trace.
//
// A goroutine of the program blocked inside a library (errgroup's Wait and
// its SetLimit semaphore, http.Get, a library's mutex) records no sync
// event: divergo instruments the module's own packages only, so the time
// is a stretch of running time around the call. Go's execution trace,
// when the run recorded it (Options.GoTrace), has every block of the
// goroutine with its stack. A block that no sync event of the goroutine
// covers, whose innermost frame (past the Go runtime, package sync and
// divergo) lies outside the program and whose stack holds a frame of the
// program, is a wait at that frame's line: the user's call into the
// library. It is reported as a site of its own (Site.Library), its waits
// with no releaser in the divergo trace but with the waker the tracer
// names, by its own first frame in the program when it has one. A sleep in
// a library stays time asleep, not a wait on anyone; a block of the
// garbage collector in an allocation (gotrace.Wake.GC: wordcount's
// strings.Builder blocked in "sync" and "chan receive" inside gcStart) is
// no wait either, and stays running time.
//
// In the paths, the time of such a block is taken out of the blocks the
// divergo trace spread the stretch over and becomes a step at the call, in
// state Library (LibrarySleep for a sleep): a wait that the goroutine's
// path explains then says it was blocked in a library at that line rather
// than running there. The waits themselves are not explained by paths:
// the divergo trace has no releaser's path to compare.

// whyLibrary is why a library wait has no releaser in the divergo trace.
const whyLibrary = "blocked in code that is not instrumented"

// libKey is a call of the program into a library that blocked: where, in
// which function, the library function called, and how it blocked.
type libKey struct {
	pos, fn, callee, kind string
}

// libSite is the waits at one libKey.
type libSite struct {
	key   libKey
	block int // the graph's block holding the call, -1 when none does
	site
}

// libKind is the kind of a block the tracer names by reason, "" for one
// that is not a wait on another goroutine (a sleep, the garbage
// collector's assists, a preemption).
func libKind(reason string) string {
	switch {
	case strings.HasPrefix(reason, "chan"):
		return "chan"
	case strings.HasPrefix(reason, "select"):
		return "select"
	case strings.Contains(reason, "Cond"):
		return "cond"
	case strings.HasPrefix(reason, "sync"):
		return "sync"
	case reason == "network":
		return "network"
	}
	return ""
}

// libOpen starts g's walk over its blocks in Go's execution trace.
func (a *analysis) libOpen(g *gstate) {
	if a.opts.GoTrace != nil && g.info.GoID != 0 {
		g.gt = a.opts.GoTrace.Wakes(g.info.GoID)
	}
}

// libCall is a call of the program into a library, the place of the
// steps blocked there: the block holding it (-1 when none does) and its
// line.
type libCall struct {
	block int
	pos   tbb.Pos
}

// libRun is the time of one block inside a library in a stretch.
type libRun struct {
	call  int32 // in analysis.libCalls
	state State // Library or LibrarySleep
	begin int64 // when it blocked
	ns    int64
}

// stretchLib is what of a stretch's time the goroutine spent blocked
// inside libraries (lib), and the blocks' time (total), which keep the
// rest.
type stretchLib struct {
	total, lib  int64
	acc, scaled int64 // the blocks' time so far, and its share kept
	// at is how far into the stretch the blocks and library time added
	// so far reach, from its start; next is the first of a.libRuns not
	// yet added.
	at   int64
	next int
}

// scale is the share a block's time d of the stretch keeps once the
// library's time is taken out, in proportion, the shares summed exactly.
func (s *stretchLib) scale(d int64) int64 {
	if s.lib == 0 || s.total == 0 {
		return d
	}
	s.acc += d
	next := int64(float64(s.acc) * float64(s.total-s.lib) / float64(s.total))
	d, s.scaled = next-s.scaled, next
	return d
}

// instant is when an item the timeline put at at happened, once the
// library's time is out of the blocks' spread: how far the blocks and
// the library's time before it reach (the go statement's instant, from
// which the child's start is scheduler latency, must agree with the
// parent's path at its snapshot).
func (s *stretchLib) instant(at int64) int64 {
	if s.lib == 0 {
		return at
	}
	return s.at
}

// libStretch takes g's blocks in Go's execution trace that lie in its
// stretch of items, which ends at t1. A stretch runs between two
// timestamps of the goroutine, and every sync event is one, so a block
// inside a stretch is covered by none; one that crosses its edges is the
// sync event's there (the wait that ends the stretch or began it), or
// came before the goroutine's start. The blocks that are waits or sleeps
// at the program's calls into a library are counted (libWait) and their
// time kept in a.libRuns, to be taken out of the stretch's blocks.
func (a *analysis) libStretch(g *gstate, items []replay.Item, t1 int64) *stretchLib {
	s := &a.stretch
	*s = stretchLib{}
	a.libRuns = a.libRuns[:0]
	if g.gtNext >= len(g.gt) || len(items) == 0 {
		return s
	}
	t0 := items[0].At
	for g.gtNext < len(g.gt) {
		w := g.gt[g.gtNext]
		if w.Blocked > t1+gotrace.JoinEps {
			break
		}
		g.gtNext++
		if w.Blocked < t0-gotrace.JoinEps || w.At > t1+gotrace.JoinEps {
			continue
		}
		if call, state, ok := a.libWait(g, w); ok {
			a.libRuns = append(a.libRuns, libRun{call, state, w.Blocked, w.At - w.Blocked})
			s.lib += w.At - w.Blocked
		}
	}
	if s.lib == 0 {
		return s
	}
	s.at = t0
	for _, it := range items {
		if it.Step.Kind == replay.Block || it.Step.Kind == replay.Call {
			s.total += it.Dur
		}
	}
	if s.lib > s.total {
		// The joined clocks put a little more into the stretch than it
		// has: the library's blocks take all of it, in proportion.
		var acc, done int64
		for i := range a.libRuns {
			acc += a.libRuns[i].ns
			next := int64(float64(acc) * float64(s.total) / float64(s.lib))
			a.libRuns[i].ns, done = next-done, next
		}
		s.lib = s.total
	}
	return s
}

// libFlush adds the stretch's time inside libraries to g's path, at the
// calls: all of it at the stretch's end (until the largest time), else (at
// a go statement, before its snapshot of the path) the blocks that began
// by until: the time the stretch has reached, or the child's start if
// that came first. Both are estimates; program order is not: a block in a
// call whose block has not run yet in the stretch came after the go
// statement, whatever its time (errgroupfan under load: g.Go's waits,
// 8.9 ms, put before the go statement that precedes them, explained a
// 4.6 µs wait 8.8 ms twice). That time is the blocks' time so far with the library's
// added before it, so that a wait in g.Go after a go statement is after it
// in the path too, and one before it before: spread over the stretch in
// proportion, a goroutine started before the waits had its path compared
// with the parent's wrong by the waits' share of the blocks before its go
// statement (errgroupfan: 218 µs of a 3.9 µs wait).
func (a *analysis) libFlush(g *gstate, s *stretchLib, until int64) {
	for s.lib != 0 && s.next < len(a.libRuns) {
		r := a.libRuns[s.next]
		if r.begin > until || until != math.MaxInt64 && !a.callRan(r.call) {
			return
		}
		a.own(g, stepKey{g.key, r.call, r.state}, r.ns)
		s.at += r.ns
		s.next++
	}
}

// callRan reports whether the block of library call c has run in the
// stretch so far (true when no block holds the call).
func (a *analysis) callRan(c int32) bool {
	b := a.libCalls[c].block
	if b < 0 {
		return true
	}
	_, ok := a.seen[int32(b)]
	return ok
}

// libWait counts g's block w as a wait at the program's call into a
// library, when it is one, and returns the call and the state of its
// time: Library, or LibrarySleep for a sleep, which is no wait.
func (a *analysis) libWait(g *gstate, w gotrace.Wake) (int32, State, bool) {
	kind, sleep := libKind(w.Reason), w.Reason == "sleep"
	if kind == "" && !sleep || w.GC || w.Blocked < g.info.Start-gotrace.JoinEps || w.By == int64(g.info.GoID) {
		return 0, 0, false
	}
	i := a.firstOwn(w.WaitStack)
	if i <= 0 { // in the program itself (its sync events), or no frame of it
		return 0, 0, false
	}
	f := w.WaitStack[i]
	pos := a.atDefer(tbb.Pos{File: a.files.of(f.File), Line: f.Line}, w.WaitStack[i-1].Func)
	f.Line = pos.Line // a defer statement's block, not the closing brace's
	c := libCall{block: a.blockAt(f), pos: pos}
	idx, ok := a.libIdx[c]
	if !ok {
		if a.libIdx == nil {
			a.libIdx = make(map[libCall]int32)
		}
		idx = int32(len(a.libCalls))
		a.libIdx[c] = idx
		a.libCalls = append(a.libCalls, c)
	}
	if sleep {
		return idx, LibrarySleep, true
	}
	k := libKey{pos: pos.FileLine(), fn: f.Func, callee: w.WaitStack[i-1].Func, kind: kind}
	if a.libSites == nil {
		a.libSites = make(map[libKey]*libSite)
	}
	s := a.libSites[k]
	if s == nil {
		s = &libSite{key: k, block: c.block}
		a.libSites[k] = s
	}
	d := w.At - w.Blocked
	s.waits++
	s.total += d
	s.unmatched++
	s.unmatchedNs += d
	woken := a.countWaker(&s.site, w, d)
	if a.opts.KeepWaits {
		s.instances = append(s.instances, Wait{GID: g.info.ID, Block: s.block, Site: -1, Op: shortCallee(k.callee),
			Begin: w.Blocked, End: w.At, Class: -1, Why: whyLibrary, waker: woken})
	}
	return idx, Library, true
}

// firstOwn is the index of the first frame of stack (innermost first) in
// the program's own files, -1 when none is.
func (a *analysis) firstOwn(stack []gotrace.Frame) int { return a.files.first(stack) }

// first is the index of the first frame of stack (innermost first) in one
// of the program's files, -1 when none is.
func (fs fileSet) first(stack []gotrace.Frame) int {
	for i, f := range stack {
		if fs.has(f.File) {
			return i
		}
	}
	return -1
}

// blockAt is the block of the graph that holds the line of stack frame f,
// -1 when none does; found once per frame (a server's library waits come
// back to a few calls thousands of times, and each look scans the graph).
func (a *analysis) blockAt(f gotrace.Frame) int {
	if b, ok := a.frameBlock[f]; ok {
		return b
	}
	if a.frameBlock == nil {
		a.frameBlock = make(map[gotrace.Frame]int)
	}
	b := blockAt(a.graph, a.files, f)
	a.frameBlock[f] = b
	return b
}

// blockAt finds the function of frame f first: the innermost of the
// graph's functions around its line that is a function literal when the
// frame's is one and a declared function when not. Lines alone mislead at
// a closing brace, where a deferred call runs: `go func() { defer
// sem.Release(1); ... }(i)` blocks in Release at the line of `}(i)`, which
// the enclosing loop's block holds and no block of the literal does. The
// literal's line and its caller's, `g.Go(func() error {`, are told apart by
// the frame's name. In that function, the innermost block holding the
// line, else the last block before it (the body's end, before the brace).
// Graphs without functions' ends fall back to the innermost block of any
// function.
func blockAt(g *tbb.Graph, files fileSet, f gotrace.Frame) int {
	file := files.of(f.File)
	if fn := funcAround(g, file, f.Line, isLiteralFrame(f.Func)); fn != nil {
		best, span, last := -1, 0, -1
		for _, id := range fn.Blocks {
			b := g.Block(id)
			if b == nil || b.Pos.File != file {
				continue
			}
			if b.Pos.Line <= f.Line && b.End.Line >= f.Line {
				if s := b.End.Line - b.Pos.Line; best < 0 || s < span {
					best, span = b.ID, s
				}
			}
			if b.End.Line <= f.Line && (last < 0 || b.End.Line > g.Block(last).End.Line) {
				last = b.ID
			}
		}
		if best >= 0 {
			return best
		}
		if last >= 0 {
			return last
		}
		return fn.Entry
	}
	best, span := -1, 0
	for _, b := range g.Blocks {
		if b.Pos.File != file || b.Pos.Line > f.Line || b.End.Line < f.Line {
			continue
		}
		if s := b.End.Line - b.Pos.Line; best < 0 || s < span {
			best, span = b.ID, s
		}
	}
	return best
}

// funcAround is the innermost function of file whose text holds line and
// that is a literal when literal is (nil when none is, or the graph has no
// functions' ends).
func funcAround(g *tbb.Graph, file string, line int, literal bool) *tbb.Func {
	var best *tbb.Func
	for _, fn := range g.Funcs {
		if fn.Pos.File != file || !fn.End.IsValid() || fn.Pos.Line > line || fn.End.Line < line ||
			strings.Contains(fn.Name, "$") != literal {
			continue
		}
		if best == nil || fn.End.Line-fn.Pos.Line < best.End.Line-best.Pos.Line {
			best = fn
		}
	}
	return best
}

// isLiteralFrame reports whether the Go runtime's function name fn is a
// function literal's: "main.main.func2", "pkg.(*T).M.func1.3", the compiler's
// wrappers of go and defer statements ("main.f.gowrap1") named by the
// function they are in.
func isLiteralFrame(fn string) bool {
	if i := strings.LastIndexByte(fn, ']'); i >= 0 {
		fn = fn[i+1:] // type arguments may hold dots
	}
	for {
		i := strings.LastIndexByte(fn, '.')
		if i < 0 {
			return false
		}
		seg := fn[i+1:]
		switch {
		case numbered(seg, ""), numbered(seg, "func"):
			return true
		case numbered(seg, "gowrap"), numbered(seg, "deferwrap"):
			fn = fn[:i]
		default:
			return false
		}
	}
}

// numbered reports whether s is prefix followed by a decimal number.
func numbered(s, prefix string) bool {
	n, ok := strings.CutPrefix(s, prefix)
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// shortCallee names a library function by its package's last element:
// "golang.org/x/sync/errgroup.(*Group).Wait" → "errgroup.(*Group).Wait".
func shortCallee(fn string) string {
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		return fn[i+1:]
	}
	return fn
}

// libSiteReport is a library site in the report's words.
func (a *analysis) libSiteReport(s *libSite) *Site {
	fn := s.key.fn
	if b := a.graph.Block(s.block); b != nil {
		fn = a.funcName(b)
	}
	out := &Site{
		Block: s.block, Site: -1, Pos: s.key.pos, Func: fn, Op: shortCallee(s.key.callee), Kind: s.key.kind, Library: true,
		Waits: s.waits, Unmatched: s.unmatched, UnmatchedNs: s.unmatchedNs, TotalNs: s.total,
		Why: map[string]int{whyLibrary: s.unmatched}, WokenBy: a.wakersOf(s.wakers),
	}
	for _, w := range s.instances {
		w = a.waitReport(w)
		w.Pos = s.key.pos
		out.Instances = append(out.Instances, w)
	}
	return out
}
