package waittime

import (
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// TestLibraryWaits scripts a run whose main blocks inside a library called
// at main.go:12 (no sync event of its own), in a receive at main.go:20 (a
// sync event: that block is the receive's), in a library's sleep, in a
// library with no frame of the program on its stack and in the garbage
// collector under a library's allocation, with Go's execution
// trace of it: only the first is a wait of a library site, at the call,
// released by the worker at its own line of the program; in main's path
// the library's wait and sleep are steps at the call, not running time; a
// goroutine still blocked in a library when the tracer stopped is listed
// as blocked, at its call.
func TestLibraryWaits(t *testing.T) {
	b := newBuilder("main.go")
	m := b.block("main", 10, 1)
	call := b.block("main", 11, 1)
	recv := b.block("main", 20, 1)
	w := b.block("worker", 30, 1)
	b.tr.graph.Blocks[call].End = tbb.Pos{File: "main.go", Line: 13}
	mg := b.goroutine(1, 0, 0, 0, 0)
	mg.run(m, 10_000)
	mg.spawn(m, 2, 1)
	mg.run(call, 100_000) // 10 µs..110 µs, blocked in the library 20..90 µs
	mg.wait(recv, trace.OpRecv, 7, 150_000)
	mg.run(m, 10_000)
	mg.done()
	wg := b.goroutine(2, 1, m, 1, 15_000)
	wg.run(w, 130_000)
	wg.op(w, trace.OpSend, 7)
	wg.done()
	// A third goroutine blocks in the library at main.go:41 from 30 µs
	// on, and still is when the tracer stops: blocked, at the call.
	lk := b.block("leaker", 40, 1)
	b.tr.graph.Blocks[lk].End = tbb.Pos{File: "main.go", Line: 42}
	lg := b.goroutine(3, 1, m, 2, 20_000)
	lg.run(lk, 10_000)
	tr := b.trace()
	tr.gs[0].GoID, tr.gs[1].GoID, tr.gs[2].GoID = 1, 2, 3

	own := func(fn string, line int) gotrace.Frame {
		return gotrace.Frame{Func: fn, File: "/src/m/main.go", Line: line}
	}
	lib := func(fn string) gotrace.Frame {
		return gotrace.Frame{Func: "example.org/lib." + fn, File: "/mod/lib/lib.go", Line: 5}
	}
	gt := gotrace.New([]gotrace.Wake{
		{G: 1, Blocked: 20_000, At: 50_000, Reason: "sync", By: 2,
			WaitStack: []gotrace.Frame{lib("(*Group).Wait"), own("example.com/m.main", 12)},
			Stack:     []gotrace.Frame{lib("(*Group).done"), own("example.com/m.worker", 31)}},
		{G: 1, Blocked: 60_000, At: 70_000, Reason: "sleep", By: -1,
			WaitStack: []gotrace.Frame{lib("backoff"), own("example.com/m.main", 12)}},
		{G: 1, Blocked: 75_000, At: 80_000, Reason: "chan receive", By: 2,
			WaitStack: []gotrace.Frame{lib("loop")}},
		{G: 1, Blocked: 82_000, At: 85_000, Reason: "sync", By: 2, GC: true,
			WaitStack: []gotrace.Frame{lib("(*Buf).grow"), own("example.com/m.main", 12)}},
		{G: 1, Blocked: 112_000, At: 145_000, Reason: "chan receive", By: 2,
			WaitStack: []gotrace.Frame{own("example.com/m.main", 20)}},
	}, gotrace.Block{G: 3, Blocked: 30_500, Reason: "network", WaitStack: []gotrace.Frame{lib("Get"), own("example.com/m.leaker", 41)}})
	rep, err := Analyze(tr, Options{GoTrace: gt, KeepWaits: true})
	if err != nil {
		t.Fatal(err)
	}
	var ls *Site
	for _, s := range rep.Sites {
		if s.Library {
			if ls != nil {
				t.Fatalf("two library sites: %+v and %+v", ls, s)
			}
			ls = s
		}
	}
	if ls == nil {
		t.Fatalf("no library site in %+v", rep.Sites)
	}
	if ls.Pos != "main.go:12" || ls.Op != "lib.(*Group).Wait" || ls.Kind != "sync" || ls.Block != int(call) || ls.Waits != 1 || ls.TotalNs != 30_000 || ls.UnmatchedNs != 30_000 {
		t.Errorf("library site %+v; want main.go:12 lib.(*Group).Wait (sync) in block %d, 1 wait of 30 µs", ls, call)
	}
	if len(ls.WokenBy) != 1 || ls.WokenBy[0].Where != "main.go:31" || ls.WokenBy[0].Func != "worker" || !strings.HasPrefix(ls.WokenBy[0].Goroutine, "main/worker@") {
		t.Errorf("woken by %+v; want the worker at main.go:31", ls.WokenBy)
	}
	if len(ls.Instances) != 1 || ls.Instances[0].Pos != "main.go:12" || ls.Instances[0].Begin != 20_000 || ls.Instances[0].End != 50_000 {
		t.Errorf("instances %+v", ls.Instances)
	}
	if rep.Waits != 2 || rep.Unmatched != 1 || rep.Woken != 1 {
		t.Errorf("report: %d waits, %d unmatched, %d woken; want 2, 1, 1", rep.Waits, rep.Unmatched, rep.Woken)
	}
	// main's receive is explained by its path since the go statement: the
	// library's wait and sleep at main.go:12 are steps of their own there,
	// out of the block around the call, which keeps the 60 µs it ran.
	steps := map[string]int64{}
	for _, s := range rep.Sites {
		if s.Op == "recv" && len(s.Classes) == 1 {
			for _, st := range s.Classes[0].Steps {
				steps[st.Pos+" "+st.State] += st.Ns
			}
		}
	}
	for k, want := range map[string]int64{"main.go:12 library": -30_000, "main.go:12 sleep in library": -10_000, "main.go:11 running": -60_000} {
		if steps[k] != want {
			t.Errorf("the receive's step %s: %d ns, want %d (steps %v)", k, steps[k], want, steps)
		}
	}
	var text strings.Builder
	if err := rep.WriteText(&text, 0); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"woken, says Go's execution trace: 1 by main/worker@main.go:10#1 at main.go:31 (worker), 30.0 µs",
		"g3: lib.Get at main.go:41 (network, in code that is not instrumented), blocked since 30.5 µs (for 130 µs)",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text does not say %q:\n%s", want, text.String())
		}
	}
	p, err := rep.Profile()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range p.Sample {
		if s.Label["site"][0] == "main.go:12 lib.(*Group).Wait" && s.Location[0].Line[0].Line == 12 && s.Value[0] == 30_000 {
			found = true
		}
	}
	if !found {
		t.Errorf("the profile has no 30 µs at main.go:12:\n%v", p)
	}

	if rep.Blocked == nil || len(rep.Blocked.Goroutines) != 1 || rep.Blocked.Verdict != "leak" {
		t.Fatalf("blocked: %+v; want the leaker, leaked", rep.Blocked)
	}
	if bg := rep.Blocked.Goroutines[0]; bg.GID != 3 || bg.Pos != "main.go:41" || bg.Op != "lib.Get" || bg.Kind != "network" || bg.Block != int(lk) ||
		!bg.Library || bg.SinceNs != 30_500 || bg.SeenNs != 160_000 {
		t.Errorf("blocked goroutine %+v; want goroutine 3 in lib.Get at main.go:41 from 30.5 µs to the end, 160 µs", bg)
	}

	// Without the execution trace, none of it.
	rep, err = Analyze(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Sites {
		if s.Library {
			t.Errorf("a library site without Go's execution trace: %+v", s)
		}
	}
	if rep.Blocked != nil {
		t.Errorf("blocked goroutines without Go's execution trace: %+v", rep.Blocked)
	}
}

// TestFileSetLongestPath: a stack's path is the graph's longest path it
// ends in, so that a module with a main.go at its root and another in
// cmd/tool names the waits of cmd/tool at its own file (the end-to-end
// corpus, one module of many commands, named them all at the root's).
func TestFileSetLongestPath(t *testing.T) {
	g := &tbb.Graph{Blocks: []*tbb.Block{
		{ID: 0, Pos: tbb.Pos{File: "main.go", Line: 3}, End: tbb.Pos{File: "main.go", Line: 9}},
		{ID: 1, Pos: tbb.Pos{File: "cmd/tool/main.go", Line: 3}, End: tbb.Pos{File: "cmd/tool/main.go", Line: 9}},
	}}
	fs := newFileSet(g)
	for file, want := range map[string]string{
		"/home/u/m/cmd/tool/main.go": "cmd/tool/main.go",
		"/home/u/m/main.go":          "main.go",
		"/home/u/m/lib/other.go":     "",
	} {
		if got := fs.of(file); got != want {
			t.Errorf("of(%q) = %q, want %q", file, got, want)
		}
	}
	if b := blockAt(g, newFileSet(g), gotrace.Frame{Func: "main.main", File: "/home/u/m/cmd/tool/main.go", Line: 5}); b != 1 {
		t.Errorf("blockAt cmd/tool/main.go:5 = %d, want 1", b)
	}
}

// TestBlockAtClosingBrace: a wait in a deferred call is at the literal's
// closing brace, `}(i)`, a line the enclosing loop's block holds and no
// block of the literal does; its block is the literal's last (the
// semaphore example's Release put in the loop's block, the caller's
// function, in 1 run in 15). The caller blocked on the literal's first
// line, `g.Go(func() error {`, stays the caller's.
func TestBlockAtClosingBrace(t *testing.T) {
	pos := func(l int) tbb.Pos { return tbb.Pos{File: "main.go", Line: l} }
	g := &tbb.Graph{
		Funcs: []*tbb.Func{
			{ID: 0, Name: "m.work", Pos: pos(10), End: pos(30), Entry: 0, Blocks: []int{0, 1}},
			{ID: 1, Name: "m.work$1", Pos: pos(14), End: pos(17), Entry: 2, Blocks: []int{2}},
		},
		Blocks: []*tbb.Block{
			{ID: 0, Func: 0, Pos: pos(11), End: pos(12)},
			{ID: 1, Func: 0, Kind: "for.body", Pos: pos(13), End: pos(17)},
			{ID: 2, Func: 1, Pos: pos(15), End: pos(16)},
		},
	}
	fs := newFileSet(g)
	for _, c := range []struct {
		fn   string
		line int
		want int
	}{
		{"main.work.func2", 17, 2},         // the deferred call at the brace
		{"main.work.func2", 15, 2},         // in the body
		{"main.work.func2.gowrap1", 16, 2}, // a go statement's wrapper, in the literal
		{"main.work", 14, 1},               // the caller, on the literal's first line
		{"main.work", 17, 1},               // the caller evaluating `(i)`
		{"main.work", 11, 0},
	} {
		if got := blockAt(g, fs, gotrace.Frame{Func: c.fn, File: "/src/m/main.go", Line: c.line}); got != c.want {
			t.Errorf("blockAt %s main.go:%d = %d, want %d", c.fn, c.line, got, c.want)
		}
	}
	for fn, want := range map[string]bool{
		"main.main": false, "main.main.func1": true, "pkg.(*T).M.func1.3": true, "main.f.gowrap1": false,
		"main.f.func2.deferwrap1": true, "pkg.G[...].func1": true, "pkg.G[...]": false, "pkg.(*T).M-fm": false, "main.func": false,
	} {
		if got := isLiteralFrame(fn); got != want {
			t.Errorf("isLiteralFrame(%q) = %v, want %v", fn, got, want)
		}
	}
}
