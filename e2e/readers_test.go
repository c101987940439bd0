package e2e

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/divergo/divergo/internal/perfetto"
	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
)

// TestReadersAgree holds waittime and the Perfetto export to one reading
// of a trace (replay.Timeline and replay.Stretch, docs/FORMAT.md,
// "Reading order" and "Durations"): for every wait, the releaser waittime
// explains it with is the goroutine and event the timeline's arrow starts
// at, or both say there is none; and the time waittime gives the blocks
// of each function of each goroutine is the self time of that function's
// frames on the goroutine's track, to the nanosecond. It reads the traces
// committed for other tests, then records programs of the suite and ports
// of Go's own test programs (testdata/real).
func TestReadersAgree(t *testing.T) {
	t.Parallel()
	for _, f := range []string{
		"../internal/perfetto/testdata/pool.dvt",
		"../internal/perfetto/testdata/contention.dvt",
		"../internal/perfetto/testdata/pipeline.dvt",
		"../internal/perfetto/testdata/fig2-a.dvt",
		"../internal/perfetto/testdata/fig2-b.dvt",
		"testdata/difftext/fanin-a.dvt",
		"testdata/difftext/leakrace-a.dvt",
		"testdata/difftext/statefulserver-a.dvt",
		"testdata/difftext/workerpool-b.dvt",
	} {
		t.Run(filepath.Base(f), func(t *testing.T) { checkReadersAgree(t, f) })
	}
	if testing.Short() {
		return
	}
	for _, p := range []agreementProg{
		{name: "releasers"}, {name: "contention"}, {name: "wordcount", args: []string{"-lines", "2000"}},
		{name: "sieve1", real: true}, {name: "powser1", real: true, args: []string{"print"}}, {name: "fifo", real: true},
	} {
		t.Run(p.name, func(t *testing.T) {
			dir, bin := p.build(t)
			dvt := filepath.Join(t.TempDir(), "run.dvt")
			execProg(t, dir, bin, p.args, "DIVERGO_TRACE="+dvt)
			checkReadersAgree(t, dvt)
		})
	}
}

// gfn is a function of a goroutine.
type gfn struct {
	g  uint64
	fn string
}

// checkReadersAgree reads the trace at path with waittime and with the
// Perfetto export and compares what they say of each wait and of each
// function's time.
func checkReadersAgree(t *testing.T, path string) {
	t.Helper()
	r := openTrace(t, path)
	defer r.Close()
	g := r.Graph()
	// divergo's delays: neither a block's time nor drawn, so a frame
	// holds them as it holds waits.
	delays := map[uint64][][2]int64{}
	for _, gi := range r.Goroutines() {
		it, err := r.Events(gi.ID)
		if err != nil {
			t.Fatal(err)
		}
		for it.Next() {
			if ev := it.Event(); ev.Kind == trace.EvPerturb {
				delays[gi.ID] = append(delays[gi.ID], [2]int64{ev.Begin, ev.End})
			}
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
	}

	// waittime: every wait with its releaser, every block's running time.
	running := map[gfn]int64{}
	rep, err := waittime.Analyze(r, waittime.Options{KeepWaits: true, OnRunning: func(gid uint64, b int, ns int64) {
		running[gfn{gid, g.Funcs[g.Blocks[b].Func].Name}] += ns
	}})
	if err != nil {
		t.Fatal(err)
	}
	type waitKey struct {
		g     uint64
		begin int64
	}
	wt := map[waitKey]waittime.Wait{}
	for _, s := range rep.Sites {
		for _, w := range s.Instances {
			wt[waitKey{w.GID, w.Begin}] = w
		}
	}

	// The timeline of the same trace, every frame drawn.
	var buf bytes.Buffer
	if err := perfetto.Write(&buf, perfetto.Options{MinFrame: -1}, perfetto.Run{Reader: r}); err != nil {
		t.Fatal(err)
	}
	f, err := perfetto.Validate(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	tl := readTimeline(t, f, delays)

	// Waits. The timeline also draws sleeps and waits still blocked at the
	// end, which waittime lists apart.
	var compared, named int
	for _, w := range tl.waits {
		if w.op == "sleep" || w.why == replay.WhyUnfinished.String() {
			continue
		}
		k := waitKey{w.g, w.begin}
		v, ok := wt[k]
		if !ok {
			t.Errorf("goroutine %d: %s @ %s at %d ns: drawn, but waittime has no such wait", w.g, w.op, w.site, w.begin)
			continue
		}
		delete(wt, k)
		compared++
		what := fmt.Sprintf("goroutine %d: %s @ %s at %d ns", w.g, w.op, w.site, w.begin)
		if v.Releaser == 0 {
			if w.releaser != 0 {
				t.Errorf("%s: waittime names no releaser (%s), the timeline names goroutine %d (%s)", what, v.Why, w.releaser, w.releasedBy)
			}
			continue
		}
		named++
		if w.releaser != v.Releaser || w.releasedBy != v.ReleaseOp+" @ "+v.ReleasePos {
			t.Errorf("%s: waittime's releaser is goroutine %d (%s @ %s), the timeline's goroutine %d (%s)",
				what, v.Releaser, v.ReleaseOp, v.ReleasePos, w.releaser, w.releasedBy)
			continue
		}
		if v.ReleaseTime > v.End {
			continue // named, but no arrow back in time
		}
		if w.flowFrom != v.Releaser || w.flowAt != v.ReleaseTime {
			t.Errorf("%s: the arrow starts on goroutine %d at %d ns, waittime's release is goroutine %d's at %d ns",
				what, w.flowFrom, w.flowAt, v.Releaser, v.ReleaseTime)
		}
	}
	for k, v := range wt {
		t.Errorf("goroutine %d: %s @ %s at %d ns: in waittime, not drawn", k.g, v.Op, v.Pos, k.begin)
	}

	// Time: the self time of each function's frames on a goroutine's
	// track is what waittime gave the function's blocks there. Time on
	// the track outside every frame and wait (from the return of the
	// goroutine's function to its end) is the last block's, which is the
	// function's whose frame ended last.
	var total int64
	for k, ns := range tl.self {
		if running[k] != ns {
			t.Errorf("goroutine %d, %s: %d ns in frames, waittime %d ns", k.g, k.fn, ns, running[k])
		}
		total += ns
		delete(running, k)
	}
	for k, ns := range running {
		if ns != 0 {
			t.Errorf("goroutine %d, %s: no frame, waittime %d ns", k.g, k.fn, ns)
		}
	}
	if compared == 0 || total == 0 {
		t.Errorf("compared %d waits and %d ns: nothing to compare", compared, total)
	}
	t.Logf("compared %d waits (%d with a releaser) and %d ns of running time in %d functions", compared, named, total, len(tl.self))
}

// drawnWait is a wait slice of the timeline, with its releaser and arrow.
type drawnWait struct {
	g             uint64
	op, site, why string
	begin, end    int64
	releaser      uint64 // 0 when unknown
	releasedBy    string
	flowFrom      uint64
	flowAt        int64
}

// timeline is what checkReadersAgree reads of the Perfetto export.
type timeline struct {
	waits []*drawnWait
	self  map[gfn]int64
}

var goroutineArg = regexp.MustCompile(`\(goroutine (\d+)\)$`)

// span is a slice on one track: a goroutine, a frame or a wait.
type span struct {
	rank       int // 0 goroutine, 1 frame drawn as B/E, 2 frame drawn as X, 3 wait or delay: outer first at equal extents
	idx        int // its event's place in the file
	start, end int64
	fn         string
	children   int64
}

func readTimeline(t *testing.T, f *perfetto.File, delays map[uint64][][2]int64) *timeline {
	t.Helper()
	ns := func(v *float64) int64 { return int64(math.Round(*v * 1000)) }
	str := func(e perfetto.Event, k string) string { s, _ := e.Args[k].(string); return s }
	gOf := map[int64]uint64{} // tid → goroutine
	for _, e := range f.TraceEvents {
		if e.Ph == "B" && e.Cat != nil && *e.Cat == "goroutine" {
			v, _ := e.Args["goroutine"].(float64)
			gOf[*e.Tid] = uint64(v)
		}
	}
	tl := &timeline{self: map[gfn]int64{}}
	type flow struct {
		tid int64
		at  int64
	}
	starts := map[string]flow{}
	spans := map[int64][]*span{}
	open := map[int64][]*span{}
	for i, e := range f.TraceEvents {
		if e.Cat == nil || e.Tid == nil {
			continue
		}
		tid := *e.Tid
		switch cat := *e.Cat; {
		case e.Ph == "B" && (cat == "goroutine" || cat == "frame"):
			s := &span{rank: 0, idx: i, start: ns(e.Ts), fn: str(e, "func")}
			if cat == "frame" {
				s.rank = 1
			}
			open[tid] = append(open[tid], s)
		case e.Ph == "E" && (cat == "goroutine" || cat == "frame"):
			st := open[tid]
			s := st[len(st)-1]
			open[tid] = st[:len(st)-1]
			s.end = ns(e.Ts)
			spans[tid] = append(spans[tid], s)
		case e.Ph == "X" && cat == "frame":
			spans[tid] = append(spans[tid], &span{rank: 2, idx: i, start: ns(e.Ts), end: ns(e.Ts) + ns(e.Dur), fn: str(e, "func")})
		case e.Ph == "X" && cat == "wait":
			w := &drawnWait{g: gOf[tid], op: str(e, "op"), site: str(e, "site"), why: str(e, "why"), begin: ns(e.Ts), end: ns(e.Ts) + ns(e.Dur), releasedBy: str(e, "released_by")}
			if m := goroutineArg.FindStringSubmatch(str(e, "releaser")); m != nil {
				w.releaser, _ = strconv.ParseUint(m[1], 10, 64)
			}
			tl.waits = append(tl.waits, w)
			spans[tid] = append(spans[tid], &span{rank: 3, idx: i, start: w.begin, end: w.end})
		case e.Ph == "s" && cat == "release":
			starts[string(e.ID)] = flow{tid, ns(e.Ts)}
		}
	}
	for _, e := range f.TraceEvents {
		if e.Ph != "f" || e.Cat == nil || *e.Cat != "release" {
			continue
		}
		s, ok := starts[string(e.ID)]
		// The arrow ends inside its wait: the goroutine's waits do not
		// overlap.
		var w *drawnWait
		for _, x := range tl.waits {
			if at := ns(e.Ts); x.g == gOf[*e.Tid] && x.begin <= at && at <= x.end {
				w = x
			}
		}
		if ok && w != nil {
			w.flowFrom, w.flowAt = gOf[s.tid], s.at
		}
	}
	for tid, g := range gOf {
		for _, d := range delays[g] {
			spans[tid] = append(spans[tid], &span{rank: 3, start: d[0], end: d[1]})
		}
	}
	for tid, ss := range spans {
		g := gOf[tid]
		slices.SortFunc(ss, func(a, b *span) int {
			switch {
			case a.start != b.start:
				return cmpInt(a.start, b.start)
			case a.end != b.end:
				return cmpInt(b.end, a.end)
			case a.rank != b.rank:
				return a.rank - b.rank
			case a.rank == 2: // X frames are written when they end: the outer one later
				return b.idx - a.idx
			}
			return a.idx - b.idx // B frames are written outer first
		})
		var stack, top []*span // top: the slices right inside the goroutine's
		var root *span
		for _, s := range ss {
			for len(stack) > 0 && !(stack[len(stack)-1].start <= s.start && s.end <= stack[len(stack)-1].end) {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 {
				stack[len(stack)-1].children += s.end - s.start
				if stack[len(stack)-1] == root {
					top = append(top, s)
				}
			}
			if s.rank == 0 {
				root = s
			}
			stack = append(stack, s)
		}
		for _, s := range ss {
			if s.rank == 1 || s.rank == 2 {
				tl.self[gfn{g, s.fn}] += s.end - s.start - s.children
			}
		}
		// The goroutine's time after its last frame, but for waits and
		// delays, is that frame's function's (before its first frame,
		// nobody's: a delay at its start).
		last := -1
		for i, s := range top {
			if s.rank != 3 {
				last = i
			}
		}
		if root != nil && last >= 0 {
			tail := root.end - top[last].end
			for _, s := range top[last+1:] {
				tail -= s.end - s.start
			}
			tl.self[gfn{g, top[last].fn}] += tail
		}
	}
	return tl
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
