package waittime

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/trace"
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
// a library stays time asleep, not a wait on anyone.
//
// These waits are not explained by paths: their time stays in the running
// steps of the blocks around the call, as the divergo trace measured it.

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

// libBefore takes g's blocks up to its sync event ev: those that ended
// before ev began are waits of their own (when in a library), those that
// overlap ev are ev's.
func (a *analysis) libBefore(g *gstate, ev trace.Event) {
	begin := ev.Begin
	if !ev.Waited || begin > ev.End {
		begin = ev.End // an operation that did not wait is stamped once
	}
	for g.gtNext < len(g.gt) {
		w := g.gt[g.gtNext]
		if w.Blocked > ev.End+gotrace.JoinEps {
			break
		}
		g.gtNext++
		if w.At < begin-gotrace.JoinEps {
			a.libWait(g, w)
		}
	}
	g.lastT = max(g.lastT, ev.End)
}

// libRest takes g's blocks after its last sync event, up to its end (the
// tracer runs on after the divergo trace ends, and a goroutine started by
// a library goes on in it after its first instrumented frame returned).
func (a *analysis) libRest(g *gstate) {
	end := g.lastT
	if g.info.Ended {
		end = g.info.End
	}
	for _, w := range g.gt[g.gtNext:] {
		if w.At > end {
			break
		}
		a.libWait(g, w)
	}
	g.gt, g.gtNext = nil, 0
}

// libWait counts g's block w as a wait at the program's call into a
// library, when it is one.
func (a *analysis) libWait(g *gstate, w gotrace.Wake) {
	kind := libKind(w.Reason)
	if kind == "" || w.Blocked < g.info.Start-gotrace.JoinEps || w.By == int64(g.info.GoID) {
		return
	}
	i := a.firstOwn(w.WaitStack)
	if i <= 0 { // in the program itself (its sync events), or no frame of it
		return
	}
	call := w.WaitStack[i]
	k := libKey{
		pos:    fmt.Sprintf("%s:%d", filepath.Base(call.File), call.Line),
		fn:     call.Func,
		callee: w.WaitStack[i-1].Func,
		kind:   kind,
	}
	if a.libSites == nil {
		a.libSites = make(map[libKey]*libSite)
	}
	s := a.libSites[k]
	if s == nil {
		s = &libSite{key: k, block: a.blockAt(call.File, call.Line)}
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
			Begin: w.Blocked, End: w.At, Class: -1, Why: whyLibrary, WokenBy: woken})
	}
}

// firstOwn is the index of the first frame of stack (innermost first) in
// the program's own files, -1 when none is.
func (a *analysis) firstOwn(stack []gotrace.Frame) int {
	for i, f := range stack {
		if a.files.has(f.File) {
			return i
		}
	}
	return -1
}

// blockAt is the innermost block of the graph that holds line of file (a
// path on a stack), -1 when none does.
func (a *analysis) blockAt(file string, line int) int {
	f := a.files.of(file)
	best, span := -1, 0
	for _, b := range a.graph.Blocks {
		if b.Pos.File != f || b.Pos.Line > line || b.End.Line < line {
			continue
		}
		if s := b.End.Line - b.Pos.Line; best < 0 || s < span {
			best, span = b.ID, s
		}
	}
	return best
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
		Why: map[string]int{whyLibrary: s.unmatched}, WokenBy: wakersOf(s.wakers),
	}
	for _, w := range s.instances {
		w = a.waitReport(w)
		w.Pos = s.key.pos
		out.Instances = append(out.Instances, w)
	}
	return out
}
