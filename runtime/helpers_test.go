package runtime

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// Block ids of testGraph.
const (
	bMain    = 0 // main's entry
	bSpawn   = 1 // main: holds the go statement (main.go:7)
	bDone    = 2 // main: after the loop
	bWorker  = 3 // worker's entry
	bWorkerL = 4 // worker: loop body
)

func testGraphJSON(t testing.TB) string {
	t.Helper()
	g := &tbb.Graph{
		Module:   "example.com/m",
		Packages: []string{"example.com/m"},
		Funcs: []*tbb.Func{
			{ID: 0, Name: "example.com/m.main", Pkg: "example.com/m", Pos: tbb.Pos{File: "main.go", Line: 5}, Entry: 0, Blocks: []int{0, 1, 2}},
			{ID: 1, Name: "example.com/m.worker", Pkg: "example.com/m", Pos: tbb.Pos{File: "main.go", Line: 12}, Entry: 3, Blocks: []int{3, 4}},
		},
		Blocks: []*tbb.Block{
			{ID: 0, Func: 0, Kind: "entry", Pos: tbb.Pos{File: "main.go", Line: 6}, Probe: true, Instrs: 4, Succs: []int{1}},
			{ID: 1, Func: 0, Kind: "for.body", Pos: tbb.Pos{File: "main.go", Line: 7}, Probe: true, Instrs: 10, Succs: []int{1, 2},
				TCP: &tbb.TCP{Kind: tbb.Spawn, Pos: tbb.Pos{File: "main.go", Line: 7, Col: 3}, CP: 2}},
			{ID: 2, Func: 0, Kind: "for.done", Pos: tbb.Pos{File: "main.go", Line: 9}, Probe: true, Instrs: 2, Succs: []int{}, Exit: true, CP: true},
			{ID: 3, Func: 1, Kind: "entry", Pos: tbb.Pos{File: "main.go", Line: 13}, Probe: true, Instrs: 3, Succs: []int{4}},
			{ID: 4, Func: 1, Kind: "for.body", Pos: tbb.Pos{File: "main.go", Line: 14}, Probe: true, Instrs: 1, Succs: []int{4}, Exit: true},
		},
		// Site i is held by block i, so that the tests pass the block
		// constants as sites and find them as the events' blocks.
		Sites: []*tbb.Site{
			{ID: 0, Block: 0, Op: "lock", Pos: tbb.Pos{File: "main.go", Line: 6, Col: 2}},
			{ID: 1, Block: 1, Op: "go", Pos: tbb.Pos{File: "main.go", Line: 7, Col: 3}},
			{ID: 2, Block: 2, Op: "wg.wait", Pos: tbb.Pos{File: "main.go", Line: 9, Col: 2}},
			{ID: 3, Block: 3, Op: "unlock", Pos: tbb.Pos{File: "main.go", Line: 13, Col: 2}},
			{ID: 4, Block: 4, Op: "send", Pos: tbb.Pos{File: "main.go", Line: 14, Col: 3}},
		},
	}
	data, err := tbb.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// startSession resets the recorder and points it at a fresh file.
func startSession(t testing.TB) string {
	t.Helper()
	resetSession()
	path := filepath.Join(t.TempDir(), "t.dvt")
	t.Setenv("DIVERGO_TRACE", path)
	// The key of environment hashes is made here, not in the configuration
	// directory of whoever runs the tests.
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Cleanup(resetSession)
	return path
}

// resetSession forgets the previous recording, as if the process started
// again. Tests only.
func resetSession() {
	if sess.state.Load() == stateRunning {
		finish(nil, false, trace.Ending{})
	}
	sess.startMu.Lock()
	defer sess.startMu.Unlock()
	sess.regMu.Lock()
	for g := range sess.live {
		store(g.goid, nil)
	}
	sess.live = nil
	sess.mainTaken = false
	sess.exiting = false
	sess.regMu.Unlock()
	sess.mu.Lock()
	for sess.writing || sess.watching {
		sess.idle.Wait()
	}
	for _, w := range sess.free { // mapped (mem_linux.go): a test binary runs many sessions
		dropWords(w)
	}
	for _, f := range sess.frames {
		dropFrame(f)
	}
	sess.jobs, sess.queued, sess.free, sess.frames, sess.removed, sess.draining = nil, 0, nil, nil, nil, false
	sess.file, sess.w, sess.pending, sess.closed, sess.failed = nil, nil, nil, false, false
	sess.pendingBytes, sess.dropped = 0, false
	sess.mu.Unlock()
	if sess.arena != nil {
		sess.arena.remove()
		sess.arena.close()
		sess.arena = nil
	}
	sess.mainEntry = 0
	sess.watch = false
	ckptWaits.Store(false)
	ckptOn.Store(false)
	select {
	case <-ckptWake: // finish's, if the checkpointer saw the trace complete first
	default:
	}
	sess.state.Store(stateIdle)
}

// goWorker records block bSpawn and a spawn in g, and starts a goroutine
// that runs body inside the worker function (entry bWorker), the way the
// instrumenter rewrites a go statement. The channel it returns is closed
// once the goroutine's Done has run: a test whose workers outlive the
// program must wait for it, or their final flush could land in the next
// test's session.
func goWorker(g *G, body func(w *G)) <-chan struct{} {
	g.B(bSpawn)
	c := g.Spawn(bSpawn)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		c.Start()
		defer c.Done()
		w := Enter(bWorker)
		defer w.Exit(bWorker)
		body(w)
	}()
	return ended
}

// waitWritten waits until the writer has written every buffer queued so
// far.
func waitWritten() {
	sess.mu.Lock()
	awaitWrittenLocked()
	sess.mu.Unlock()
}

type goroutine struct {
	info   trace.GoroutineInfo
	events []trace.Event
}

// readTrace reads every goroutine of the trace at path, by path.
func readTrace(t testing.TB, path string) (*trace.Reader, map[string]goroutine) {
	t.Helper()
	r, err := trace.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	out := map[string]goroutine{}
	for _, gi := range r.Goroutines() {
		it, err := r.Events(gi.ID)
		if err != nil {
			t.Fatal(err)
		}
		var evs []trace.Event
		for it.Next() {
			evs = append(evs, it.Event())
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		if _, dup := out[gi.Path]; dup {
			t.Fatalf("two goroutines with path %q", gi.Path)
		}
		out[gi.Path] = goroutine{gi, evs}
	}
	return r, out
}

// kinds drops clock events and keeps kind and block, for comparing
// streams whose times vary.
func kinds(evs []trace.Event) []string {
	var out []string
	for _, e := range evs {
		switch e.Kind {
		case trace.EvClock:
		case trace.EvBlock, trace.EvExit:
			out = append(out, e.Kind.String()+" "+itoa(uint64(e.Block)))
		case trace.EvSync:
			out = append(out, e.Kind.String()+" "+e.Op.String())
		default:
			out = append(out, e.Kind.String())
		}
	}
	return out
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

// rawTimes is the conversion for words written by hand: their times are
// nanoseconds already.
func rawTimes() *stampConv {
	return &stampConv{k: 1, floor: math.MinInt64, start: math.MinInt64}
}
