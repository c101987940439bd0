package runtime

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

func worker(c *Child, iters int, wg *sync.WaitGroup, wgSite uint32, gone *sync.WaitGroup) {
	defer gone.Done() // runs after c.Done: main may end only then
	p := c.Start()
	defer c.Done()
	g := Enter(bWorker)
	defer g.Exit(bWorker)
	for range iters {
		g.B(bWorkerL)
	}
	p.WGDone(wgSite, wg)
}

func TestSpawnStartDone(t *testing.T) {
	path := startSession(t)
	g := Main(testGraphJSON(t), bMain)
	var wg, gone sync.WaitGroup
	iters := []int{3, 0, 70000} // the last one fills several chunks
	for _, n := range iters {
		g.B(bSpawn)
		g.WGAdd(bSpawn, &wg, 1)
		c := g.Spawn(bSpawn)
		gone.Add(1)
		go worker(c, n, &wg, bWorkerL, &gone)
	}
	g.B(bDone)
	g.WGWait(bDone, &wg)
	gone.Wait()
	g.Exit(bMain)

	r, gs := readTrace(t, path)
	if r.Truncated() {
		t.Error("trace truncated")
	}
	if len(gs) != 4 {
		t.Fatalf("%d goroutines, want 4: %v", len(gs), gs)
	}
	m := gs["main"]
	want := []string{"block 0"}
	for range iters {
		want = append(want, "block 1", "sync wg.add", "spawn")
	}
	want = append(want, "block 2", "sync wg.wait", "exit 0")
	if got := kinds(m.events); !reflect.DeepEqual(got, want) {
		t.Errorf("main stream:\n got %v\nwant %v", got, want)
	}
	if m.info.ID != 1 || !m.info.Ended {
		t.Errorf("main info %+v", m.info)
	}
	for i, n := range iters {
		p := "main/worker@main.go:7#" + itoa(uint64(i+1))
		w, ok := gs[p]
		if !ok {
			t.Fatalf("no goroutine %q", p)
		}
		if w.info.Parent != 1 || w.info.Blocks != uint64(n+1) || !w.info.Ended || w.info.End < w.info.Start {
			t.Errorf("%s: info %+v, want %d blocks", p, w.info, n+1)
		}
		blocks := 0
		for _, e := range w.events {
			if e.Kind == trace.EvBlock {
				blocks++
			}
		}
		if blocks != n+1 {
			t.Errorf("%s: %d block events, want %d", p, blocks, n+1)
		}
		if first, last := w.events[0], w.events[len(w.events)-1]; first.Kind != trace.EvClock || last.Kind != trace.EvClock {
			t.Errorf("%s: stream does not start and end with clocks: %v ... %v", p, first, last)
		}
		// The spawn event in main names this child.
		var spawn trace.Event
		k := 0
		for _, e := range m.events {
			if e.Kind == trace.EvSpawn {
				if k == i {
					spawn = e
				}
				k++
			}
		}
		if spawn.Child != w.info.ID || spawn.Ordinal != uint32(i+1) || spawn.Block != bSpawn {
			t.Errorf("%s: spawn event %+v, child id %d", p, spawn, w.info.ID)
		}
	}
	if gs["main/worker@main.go:7#3"].info.Chunks < 2 {
		t.Errorf("long worker wrote %d chunks, want several", gs["main/worker@main.go:7#3"].info.Chunks)
	}
}

func TestOff(t *testing.T) {
	resetSession()
	t.Cleanup(resetSession)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("DIVERGO_TRACE", "off")
	g := Main(testGraphJSON(t), bMain)
	for range 1000 {
		g.B(bSpawn)
	}
	c := g.Spawn(bSpawn)
	done := make(chan struct{})
	go func() {
		cg := c.Start()
		defer c.Done()
		w := Enter(bWorker)
		w.B(bWorkerL)
		w.Outcome(7)
		w.Outcome(1 << 40)
		w.OutcomeString("key")
		w.Exit(bWorker)
		if cg != offG || w != offG {
			t.Error("a goroutine got a recorder of its own")
		}
		var mu sync.Mutex
		cg.Lock(bWorker, &mu)
		cg.Unlock(bWorker, &mu)
		close(done)
	}()
	<-done
	g.Exit(bMain)
	if g != offG || TracePath() != "" {
		t.Error("recording is on")
	}
	if offG.n != 0 || !offG.off || offG.buf != nil {
		t.Errorf("the shared recorder was written: n %d, off %v, %d words", offG.n, offG.off, len(offG.buf))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files written: %v", ents)
	}
}

func TestGoid(t *testing.T) {
	if haveGetg && goidOffset < 0 {
		goidOffset = detectGoidOffset()
		if goidOffset < 0 {
			t.Fatal("goid offset not found on an architecture with getg")
		}
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if a, b := curGoid(), stackGoid(); a != b || a == 0 {
				t.Errorf("curGoid %d, runtime.Stack says %d", a, b)
			}
		}()
	}
	wg.Wait()
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("DIVERGO_TRACE", "")
	p := tracePath()
	if !strings.HasPrefix(p, "divergo-"+programName()+"-") || !strings.HasSuffix(p, ".dvt") || strings.Contains(p, "/") {
		t.Errorf("default path %q", p)
	}
}

func TestGraphHash(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{testGraphJSON(t), ""},
		{`{"version":1,"hash":"sha256:ab"}`, "sha256:ab"},
		{`{"hash":"sha256:cd","version":1}`, "sha256:cd"},
	} {
		got, err := graphHash([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if tt.want == "" {
			tt.want = got
			if !strings.HasPrefix(got, "sha256:") || len(got) != len("sha256:")+64 {
				t.Errorf("hash of a marshalled graph: %q", got)
			}
		}
		if got != tt.want {
			t.Errorf("graphHash(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if _, err := graphHash([]byte("not json")); err == nil {
		t.Error("no error for a graph that is not JSON")
	}
}

// TestBeforeMain records in a goroutine not started through Spawn, before
// main.main began (as init code or a library's goroutine would): its full
// chunks wait in memory for the graph, then reach the file.
func TestBeforeMain(t *testing.T) {
	path := startSession(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		w := Enter(bWorker)
		for range 70000 {
			w.B(bWorkerL)
		}
		w.Exit(bWorker)
	}()
	<-done
	waitWritten() // the worker's full buffers meet the bound before Main, not after
	g := Main(testGraphJSON(t), bMain)
	g.Exit(bMain)
	r, gs := readTrace(t, path)
	if r.Truncated() || len(gs) != 2 {
		t.Fatalf("truncated %v, %d goroutines", r.Truncated(), len(gs))
	}
	for p, o := range gs {
		if p == "main" {
			continue
		}
		// Named by the test's function, whose go statement divergo did
		// not see, and the function it ran.
		if p != "runtime.TestBeforeMain worker #1" || o.info.Creator != "github.com/divergo/divergo/runtime.TestBeforeMain" ||
			o.info.Parent != 0 || o.info.Blocks != 70001 || o.info.Chunks < 2 {
			t.Errorf("orphan %s: %+v", p, o.info)
		}
	}
}

// TestEncodeTorn checks that a buffer read while its goroutine wrote it
// (the final flush of a live goroutine) loses its torn tail, not the trace.
func TestEncodeTorn(t *testing.T) {
	words := []uint32{5, 300, opBit | opSync<<16 | uint32(trace.OpLock) | 1<<8, 7, 1, 0, 9, 0}
	var c trace.Chunk
	encode(words, &c, rawTimes())
	if c.Events != 2 || c.Blocks != 2 {
		t.Errorf("torn sync: %d events, %d blocks; want the 2 blocks before it", c.Events, c.Blocks)
	}
	encode(append(words[:2:2], opBit|0x7000<<16), &c, rawTimes())
	if c.Events != 2 {
		t.Errorf("unknown opcode: %d events, want 2", c.Events)
	}
}

// TestEncodeMatchesTrace checks the runtime's own encoding of frequent
// events against trace.AppendEvent, the format's reference.
func TestEncodeMatchesTrace(t *testing.T) {
	words := []uint32{0, 63, 64, 8191, 8192, outBit - 1,
		opBit | opExit<<16, 0, opBit | opExit<<16, 1<<31 - 1, opBit | opExit<<16, 200,
		opBit | opOutcome<<16, 5, 1, outBit | 0, outBit | (outBit - 1), opBit | opClock<<16, 7, 0,
		opBit | opSync<<16 | uint32(trace.OpUnlock), 9, 0xc0ff, 0x12, 1000, 0,
		opBit | opSync<<16 | uint32(trace.OpLock) | 1<<8, 9, 0xc0ff, 0x12, 3000, 0, 1 << 31, 1}
	want := []trace.Event{
		{Kind: trace.EvBlock, Block: 0}, {Kind: trace.EvBlock, Block: 63}, {Kind: trace.EvBlock, Block: 64},
		{Kind: trace.EvBlock, Block: 8191}, {Kind: trace.EvBlock, Block: 8192}, {Kind: trace.EvBlock, Block: outBit - 1},
		{Kind: trace.EvExit, Block: 0}, {Kind: trace.EvExit, Block: 1<<31 - 1}, {Kind: trace.EvExit, Block: 200},
		{Kind: trace.EvOutcome, Value: 1<<32 | 5}, {Kind: trace.EvOutcome, Value: 0}, {Kind: trace.EvOutcome, Value: outBit - 1},
		{Kind: trace.EvClock, Time: 7},
		{Kind: trace.EvSync, Op: trace.OpUnlock, Site: 9, Object: 0x12<<32 | 0xc0ff, End: 1000},
		{Kind: trace.EvSync, Op: trace.OpLock, Site: 9, Object: 0x12<<32 | 0xc0ff, Waited: true, Begin: 1<<32 | 1<<31, End: 3000},
	}
	var ref []byte
	for _, e := range want {
		ref = trace.AppendEvent(ref, e)
	}
	var c trace.Chunk
	encode(words, &c, rawTimes())
	if !bytes.Equal(c.Body, ref) || c.Events != uint64(len(want)) || c.Blocks != 6 || c.Waits != 1 {
		t.Errorf("encode: %x (%d events, %d blocks)\nwant %x (%d events, 6 blocks)", c.Body, c.Events, c.Blocks, ref, len(want))
	}
}

// TestEncodeRuns mixes runs of small ids (the eight-at-once path) with
// large ids, one-word outcomes and other events at every alignment.
func TestEncodeRuns(t *testing.T) {
	var words []uint32
	var ref []byte
	var want uint64
	for i := 0; i < 5000; i++ {
		switch {
		case i%97 == 0:
			v := uint64(i) << 20
			words = append(words, opBit|opOutcome<<16, lo(v), hi(v))
			ref = trace.AppendEvent(ref, trace.Event{Kind: trace.EvOutcome, Value: v})
		case i%13 == 0:
			words = append(words, uint32(64+i))
			ref = trace.AppendEvent(ref, trace.Event{Kind: trace.EvBlock, Block: uint32(64 + i)})
		case i%31 == 0:
			words = append(words, opBit|opExit<<16, uint32(i))
			ref = trace.AppendEvent(ref, trace.Event{Kind: trace.EvExit, Block: uint32(i)})
		case i%7 == 0 || i%11 == 0: // one-word outcomes, as in a map loop
			v := uint32(i) * 2654435761 % outBit
			words = append(words, outBit|v)
			ref = trace.AppendEvent(ref, trace.Event{Kind: trace.EvOutcome, Value: uint64(v)})
		default:
			words = append(words, uint32(i%64))
			ref = trace.AppendEvent(ref, trace.Event{Kind: trace.EvBlock, Block: uint32(i % 64)})
		}
		want++
	}
	var c trace.Chunk
	encode(words, &c, rawTimes())
	if !bytes.Equal(c.Body, ref) || c.Events != want {
		t.Fatalf("encode differs from trace.AppendEvent (%d events, want %d)", c.Events, want)
	}
}

// TestPendingBound: without Main, chunks wait in memory up to a bound; past
// it they are dropped, and the trace still reads once Main comes.
func TestPendingBound(t *testing.T) {
	path := startSession(t)
	defer func(n int) { maxPending = n }(maxPending)
	maxPending = 100 << 10
	done := make(chan struct{})
	go func() {
		defer close(done)
		w := Enter(bWorker)
		for range 300000 { // about 300 KB of chunks
			w.B(bWorkerL)
		}
		w.Exit(bWorker)
	}()
	<-done
	waitWritten() // the worker's full buffers meet the bound before Main, not after
	g := Main(testGraphJSON(t), bMain)
	g.Exit(bMain)
	r, gs := readTrace(t, path)
	if r.Truncated() || len(gs) != 2 {
		t.Fatalf("truncated %v, %d goroutines", r.Truncated(), len(gs))
	}
	for p, o := range gs {
		if p != "main" && (o.info.Blocks == 0 || o.info.Blocks >= 300001) {
			t.Errorf("%s: %d blocks, want some dropped", p, o.info.Blocks)
		}
	}
}

// TestOrphanEnds: a goroutine started by code that is not instrumented is
// recorded from its first instrumented frame until that frame returns,
// recursion included, and then ends; its next entry starts another, named
// by what started it, the function it ran and its place among those.
func TestOrphanEnds(t *testing.T) {
	path := startSession(t)
	g := Main(testGraphJSON(t), bMain)
	done := make(chan struct{})
	go func() { // as a library's goroutine calls a handler, twice
		defer close(done)
		for range 2 {
			w := Enter(bWorker)
			inner := Enter(bWorker) // the handler recursing
			inner.B(bWorkerL)
			inner.Exit(bWorker)
			w.B(bWorkerL)
			w.Exit(bWorker)
		}
	}()
	<-done
	g.Exit(bMain)
	_, gs := readTrace(t, path)
	if len(gs) != 3 {
		t.Fatalf("%d goroutines, want main and two activations: %v", len(gs), keys(gs))
	}
	for _, p := range []string{"runtime.TestOrphanEnds worker #1", "runtime.TestOrphanEnds worker #2"} {
		o, ok := gs[p]
		if !ok {
			t.Errorf("no goroutine %s: %v", p, keys(gs))
			continue
		}
		if !o.info.Ended || o.info.Blocks != 4 {
			t.Errorf("%s: ended %v, %d blocks; want ended with 4 (two entries, two loop blocks)", p, o.info.Ended, o.info.Blocks)
		}
	}
}

func keys(gs map[string]goroutine) []string {
	var out []string
	for p := range gs {
		out = append(out, p)
	}
	return out
}
