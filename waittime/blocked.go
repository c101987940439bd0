package waittime

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// BlockedReport is what a trace says about the goroutines that were still blocked
// in a sync operation when it ended: a deadlock, a leak, or waits cut short
// by the end of the run. The runtime ends such a goroutine's stream with the
// wait it is in, marked blocked (docs/FORMAT.md, "Goroutines still
// blocked"), however the run ended.
type BlockedReport struct {
	// Verdict is "deadlock" (every goroutine still running was blocked, none
	// sleeping), "leak" (main had returned) or "blocked" (others were still
	// running, or sleeping).
	Verdict    string             `json:"verdict"`
	Summary    string             `json:"summary"` // the verdict in one sentence
	Goroutines []BlockedGoroutine `json:"goroutines"`
}

// BlockedGoroutine is one goroutine blocked when the trace ended.
type BlockedGoroutine struct {
	GID       uint64 `json:"gid"`
	Goroutine string `json:"goroutine"` // spawn path
	Block     int    `json:"block"`
	Pos       string `json:"pos"` // file:line of the statement it is blocked at
	Func      string `json:"func"`
	Op        string `json:"op"`
	Kind      string `json:"kind"`             // mutex, chan, select, wg, cond, once, sleep
	Object    uint64 `json:"object,omitempty"` // 0 for a sleep, and for a select (its case is not chosen yet)
	SinceNs   int64  `json:"since_ns"`         // when it began to wait
	SeenNs    int64  `json:"seen_ns"`          // when the trace last saw it blocked
	// Library says it is blocked inside code that is not instrumented, as
	// Go's execution trace saw it (FindBlockedWith): Pos is the program's
	// call, Op the library function, Kind the tracer's reason, SeenNs the
	// divergo trace's end.
	Library bool `json:"library,omitempty"`
	// LastOps are the last operation of each goroutine that operated on
	// Object before (itself included), latest first: among them, the ones
	// that could have released it.
	LastOps []ObjectOp `json:"last_ops,omitempty"`
}

// ObjectOp is a goroutine's last operation on an object.
type ObjectOp struct {
	GID       uint64 `json:"gid"`
	Goroutine string `json:"goroutine"`
	Op        string `json:"op"` // a select names the case's: "select (send)"
	Block     int    `json:"block"`
	Pos       string `json:"pos"`
	TimeNs    int64  `json:"time_ns"`
	// BlockedAt is where that goroutine was itself blocked when the trace
	// ended, if it was: the cycle of a circular wait.
	BlockedAt string `json:"blocked_at,omitempty"`
}

// maxLastOps bounds the goroutines listed per object.
const maxLastOps = 20

// FindBlocked reads t for goroutines still blocked at its end; nil when
// there are none. It reads only the streams of goroutines that had not
// ended, and then, when some were blocked, every stream once more for the
// operations on their objects.
func FindBlocked(t Trace) (*BlockedReport, error) { return FindBlockedWith(t, nil) }

// FindBlockedWith is FindBlocked with Go's execution trace of the run, nil
// for none: a goroutine that the divergo trace leaves running but that the
// tracer saw blocked inside code that is not instrumented from its last
// event on, and still when it stopped (a goroutine leaked in http.Get, a
// g.Wait that never returns), is blocked too, at the program's call into
// the library (Op the library function, Object 0: its object is the
// library's), as libwaits.go names waits there.
func FindBlockedWith(t Trace, gt *gotrace.Trace) (*BlockedReport, error) {
	g := t.Graph()
	if g == nil {
		return nil, fmt.Errorf("trace has no graph")
	}
	infos := t.Goroutines()
	byID := make(map[uint64]trace.GoroutineInfo, len(infos))
	for _, gi := range infos {
		byID[gi.ID] = gi
	}
	var out BlockedReport
	running := 0
	mainEnded := false
	var files fileSet
	if gt != nil {
		files = newFileSet(g)
	}
	end := int64(0) // the latest time of the trace, for the library's blocks
	for _, gi := range infos {
		if gi.Ended {
			mainEnded = mainEnded || gi.ID == 1
			end = max(end, gi.End)
			continue
		}
		running++
		last, ok, err := lastEvent(t, gi.ID)
		if err != nil {
			return nil, err
		}
		// A goroutine asleep is not blocked: its sleep ends by itself,
		// so a ticking loop still asleep when main returns is no leak.
		end = max(end, last.End, last.Time)
		if bg, ok := inLibrary(gt, files, g, gi, last); ok {
			out.Goroutines = append(out.Goroutines, bg)
			continue
		}
		if !ok || last.Kind != trace.EvSync || !last.Blocked || last.Op == trace.OpSleep {
			continue
		}
		b := g.Block(int(last.Block))
		if b == nil {
			return nil, fmt.Errorf("goroutine %d: %s at block %d, which is not in the graph", gi.ID, last.Op, last.Block)
		}
		out.Goroutines = append(out.Goroutines, BlockedGoroutine{
			GID: gi.ID, Goroutine: pathOf(gi), Block: int(last.Block), Pos: sitePos(g, int32(last.Site), int32(last.Block)).FileLine(),
			Func: funcOf(g, b), Op: last.Op.String(), Kind: stateOf(last.Op).String(), Object: last.Object,
			SinceNs: last.Begin, SeenNs: last.End,
		})
	}
	if len(out.Goroutines) == 0 {
		return nil, nil
	}
	for i := range out.Goroutines {
		if bg := &out.Goroutines[i]; bg.Library {
			bg.SeenNs = max(bg.SinceNs, end)
		}
	}
	if err := lastOps(t, g, byID, &out); err != nil {
		return nil, err
	}
	// By name, numbers as numbers (#2 before #10): the same list however
	// the schedule went.
	slices.SortFunc(out.Goroutines, func(x, y BlockedGoroutine) int {
		switch {
		case trace.PathLess(x.Goroutine, y.Goroutine):
			return -1
		case trace.PathLess(y.Goroutine, x.Goroutine):
			return 1
		}
		return cmp.Compare(x.GID, y.GID)
	})
	n := len(out.Goroutines)
	switch {
	case mainEnded:
		out.Verdict = "leak"
		out.Summary = fmt.Sprintf("Leak: %s still blocked when main returned.", plural2(n, "goroutine was", "goroutines were"))
	case n == running:
		out.Verdict = "deadlock"
		out.Summary = fmt.Sprintf("Deadlock: every goroutine still running (%d) was blocked, none left to release the others.", n)
	default:
		out.Verdict = "blocked"
		out.Summary = fmt.Sprintf("%s blocked when the trace ended (%d still running).", plural2(n, "goroutine was", "goroutines were"), running)
	}
	return &out, nil
}

// inLibrary is goroutine gi blocked inside a library when the tracer
// stopped, from after its last event last on, at a call of the program.
func inLibrary(gt *gotrace.Trace, files fileSet, g *tbb.Graph, gi trace.GoroutineInfo, last trace.Event) (BlockedGoroutine, bool) {
	if gt == nil || gi.GoID == 0 || last.Kind == trace.EvSync && last.Blocked {
		return BlockedGoroutine{}, false
	}
	b, ok := gt.Unended(gi.GoID)
	if !ok || b.Blocked < max(last.End, last.Time)-gotrace.JoinEps || libKind(b.Reason) == "" || b.GC {
		return BlockedGoroutine{}, false
	}
	i := files.first(b.WaitStack)
	if i <= 0 {
		return BlockedGoroutine{}, false
	}
	f := b.WaitStack[i]
	pos := tbb.Pos{File: files.of(f.File), Line: f.Line}
	out := BlockedGoroutine{GID: gi.ID, Goroutine: pathOf(gi), Block: -1, Pos: pos.FileLine(), Func: f.Func,
		Op: shortCallee(b.WaitStack[i-1].Func), Kind: libKind(b.Reason), SinceNs: b.Blocked, Library: true}
	if blk := g.Block(blockAt(g, files, f)); blk != nil {
		out.Block, out.Func = blk.ID, funcOf(g, blk)
	}
	return out, true
}

func plural2(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// lastEvent returns the last event of goroutine id.
func lastEvent(t Trace, id uint64) (trace.Event, bool, error) {
	it, err := t.Events(id)
	if err != nil {
		return trace.Event{}, false, fmt.Errorf("opening events of goroutine %d: %w", id, err)
	}
	var last trace.Event
	ok := false
	for it.Next() {
		last, ok = it.Event(), true
	}
	if err := it.Err(); err != nil {
		return trace.Event{}, false, fmt.Errorf("reading goroutine %d: %w", id, err)
	}
	return last, ok, nil
}

// lastOps fills in, for each blocked goroutine, every goroutine's last
// operation on its object.
func lastOps(t Trace, g *tbb.Graph, byID map[uint64]trace.GoroutineInfo, out *BlockedReport) error {
	objs := map[uint64]map[uint64]trace.Event{} // object → goroutine → its last operation on it
	blockedAt := map[uint64]string{}
	for _, b := range out.Goroutines {
		blockedAt[b.GID] = b.Pos
		if b.Object != 0 {
			objs[b.Object] = map[uint64]trace.Event{}
		}
	}
	if len(objs) == 0 {
		return nil
	}
	for id := range byID {
		it, err := t.Events(id)
		if err != nil {
			return fmt.Errorf("opening events of goroutine %d: %w", id, err)
		}
		for it.Next() {
			e := it.Event()
			if e.Kind != trace.EvSync || e.Blocked {
				continue
			}
			if m := objs[e.Object]; m != nil {
				m[id] = e
			}
		}
		if err := it.Err(); err != nil {
			return fmt.Errorf("reading goroutine %d: %w", id, err)
		}
	}
	for i := range out.Goroutines {
		b := &out.Goroutines[i]
		for id, e := range objs[b.Object] {
			blk := g.Block(int(e.Block))
			if blk == nil {
				return fmt.Errorf("goroutine %d: %s at block %d, which is not in the graph", id, e.Op, e.Block)
			}
			b.LastOps = append(b.LastOps, ObjectOp{
				GID: id, Goroutine: pathOf(byID[id]), Op: opName(e), Block: int(e.Block),
				Pos: sitePos(g, int32(e.Site), int32(e.Block)).FileLine(), TimeNs: e.End, BlockedAt: blockedAt[id],
			})
		}
		slices.SortFunc(b.LastOps, func(x, y ObjectOp) int {
			return cmp.Or(cmp.Compare(y.TimeNs, x.TimeNs), cmp.Compare(x.GID, y.GID))
		})
		if len(b.LastOps) > maxLastOps {
			b.LastOps = b.LastOps[:maxLastOps]
		}
	}
	return nil
}

// opName names an operation on an object; a select by the case it chose.
func opName(e trace.Event) string {
	if e.Op == trace.OpSelect && e.Object != 0 {
		return "select (" + replay.ReleaseOp(e).String() + ")"
	}
	return e.Op.String()
}

// pathOf is a goroutine's name in reports.
func pathOf(gi trace.GoroutineInfo) string {
	if gi.Path != "" {
		return gi.Path
	}
	return fmt.Sprintf("g%d", gi.ID)
}

func funcOf(g *tbb.Graph, b *tbb.Block) string {
	if f := g.Func(b.Func); f != nil {
		return f.Name
	}
	return "?"
}

// shortPath is a goroutine's spawn path for a line of text, shortened to
// trace.MaxPathText characters; a shortened path no longer tells the
// goroutines of one deep chain apart, so it gets the goroutine's ID
// (show's ID column).
func shortPath(path string, id uint64) string {
	if e := trace.ElidePath(path, trace.MaxPathText); e != path {
		return fmt.Sprintf("%s (ID %d)", e, id)
	}
	return path
}

// maxBlockedText is how many blocked goroutines WriteText lists when it
// is given a bound: a leak can leave hundreds (Go's test/chan/powser1.go
// leaves 100), and the verdict and the first of them answer the question;
// -json lists every one.
const maxBlockedText = 10

// WriteText writes the blocked goroutines for people: the verdict, then per
// goroutine the statement it is blocked at, on what, since when, and at
// most maxOps of the last operations on that object. With maxOps > 0 it
// lists at most maxBlockedText goroutines and says how many it left out;
// with maxOps <= 0, every goroutine and every operation. Spawn paths are
// shortened to trace.MaxPathText characters (trace.ElidePath).
func (b *BlockedReport) WriteText(w io.Writer, maxOps int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, b.Summary)
	for i, g := range b.Goroutines {
		if maxOps > 0 && i == maxBlockedText {
			fmt.Fprintf(bw, "  ... %d more blocked goroutines (-json lists every one)\n", len(b.Goroutines)-i)
			break
		}
		what := ""
		switch {
		case g.Object != 0:
			what = fmt.Sprintf(" on %s %#x", g.Kind, g.Object)
		case g.Op == trace.OpSelect.String():
			what = " (none of its cases could go on)"
		case g.Library:
			what = fmt.Sprintf(" (%s, in code that is not instrumented)", g.Kind)
		}
		fmt.Fprintf(bw, "  %s: %s at %s%s, blocked since %s (for %s)\n", shortPath(g.Goroutine, g.GID), g.Op, g.Pos, what,
			FormatNs(g.SinceNs), FormatNs(g.SeenNs-g.SinceNs))
		if g.Object != 0 && len(g.LastOps) == 0 {
			fmt.Fprintf(bw, "      no operation on that %s was recorded before\n", g.Kind)
		}
		for i, op := range g.LastOps {
			if maxOps > 0 && i == maxOps {
				fmt.Fprintf(bw, "      ... %d more\n", len(g.LastOps)-i)
				break
			}
			lead := "last on it:"
			if i > 0 {
				lead = "           "
			}
			who := shortPath(op.Goroutine, op.GID)
			if op.GID == g.GID {
				who += " (itself)"
			}
			fmt.Fprintf(bw, "      %s %s %s at %s (%s)", lead, who, op.Op, op.Pos, FormatNs(op.TimeNs))
			if op.BlockedAt != "" && op.GID != g.GID {
				fmt.Fprintf(bw, ", itself blocked at %s", op.BlockedAt)
			}
			fmt.Fprintln(bw)
		}
	}
	return bw.Flush()
}
