package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/divergo/divergo/internal/trace"
)

const (
	stateIdle = iota
	stateRunning
	stateOff
)

// maxPending bounds the chunks kept in memory before Main opens the file.
var maxPending = 64 << 20 // a variable for tests

// session is the recording of this process.
type session struct {
	state   atomic.Int32
	startMu sync.Mutex
	base    atomic.Int64  // nanotime at start; Main may move it before the first timestamp
	cal     calibration   // a stamp and its nanotime, read at start (clock.go)
	k       atomic.Uint64 // float64 bits: ns per stamp unit, measured over 1 ms or more; 0 before
	wall    time.Time
	path    string
	child   bool // a parent process records into DIVERGO_TRACE: path is beside it (child.go)
	nextID  atomic.Uint64

	mainEntry uint32
	mainTaken bool // recorder id 1 is given; guarded by regMu

	mu           sync.Mutex // guards the file and every G's seq, wrote, ended
	file         *os.File
	removed      chan struct{} // closed when the previous trace is removed (file.go)
	w            *trace.Writer
	pending      []trace.Chunk // chunks written before Main gave the graph
	pendingBytes int
	dropped      bool // pending was full: some chunks before Main are lost
	closed       bool
	failed       bool

	// The writer (writer.go); guarded by mu.
	jobs     []job      // full buffers waiting, in order
	queued   int        // words in jobs
	writing  bool       // the writer goroutine runs
	inflight bool       // it has taken a job from jobs and not written it yet
	draining bool       // finish writes the queue: the writer takes no more jobs
	work     sync.Cond  // on mu: a job was queued, or the trace closed
	idle     sync.Cond  // on mu: a job was written, or the trace closed
	free     [][]uint32 // full-size buffers to reuse
	frames   [][]byte   // frames for goroutines that encode their own buffers (writeOwnLocked)

	regMu   sync.Mutex
	live    map[*G]struct{} // recorders whose goroutine may still run
	exiting bool            // the process ends: no goroutine registers (ending.go); guarded by regMu

	arena    *arena // where buffers outlive the process (arena_linux.go); nil if none
	watch    bool   // checkpoints when every goroutine blocks (blocked.go)
	watching bool   // the checkpointer runs; guarded by mu
}

var sess session

func init() {
	sess.work.L, sess.idle.L = &sess.mu, &sess.mu
	trace.SetRecovery(RecoverTrace) // a reader that links this package completes killed runs' traces
	// Decided here, before any instrumented code runs (every instrumented
	// package imports this one, so this init comes first), so that Off is
	// a single compare. begin still reads it for a session a test resets.
	if os.Getenv("DIVERGO_TRACE") == "off" {
		sess.state.Store(stateOff)
	}
}

// tracePath is where the trace goes: $DIVERGO_TRACE, or
// divergo-<program>-<pid>.dvt in the working directory.
func tracePath() string {
	if p := os.Getenv("DIVERGO_TRACE"); p != "" {
		return p
	}
	return fmt.Sprintf("divergo-%s-%d.dvt", programName(), os.Getpid())
}

func programName() string {
	name := filepath.Base(os.Args[0])
	if ext := filepath.Ext(name); ext == ".exe" {
		name = name[:len(name)-len(ext)]
	}
	return name
}

// begin starts recording once; it reports whether recording is on.
func begin() bool {
	if s := sess.state.Load(); s != stateIdle {
		return s == stateRunning
	}
	sess.startMu.Lock()
	defer sess.startMu.Unlock()
	if s := sess.state.Load(); s != stateIdle {
		return s == stateRunning
	}
	if os.Getenv("DIVERGO_TRACE") == "off" {
		sess.state.Store(stateOff)
		return false
	}
	sess.path, sess.child = ownTracePath()
	if !dropFull { // the floor build measures the probes as they were
		sess.arena = openArena(sess.path)
	}
	readPerturb()
	readReplay(sess.child) // after readPerturb: the identities use its seed
	readSched()            // after readReplay, which overrides it
	inputs = readInputs()
	sess.live = map[*G]struct{}{}
	sess.nextID.Store(1) // 1 is main's
	goidOffset = detectGoidOffset()
	// No signal is caught: a program that catches one is never reported
	// deadlocked by the Go runtime, and the program's own signal handling
	// must be what it is plain (doc.go). Nothing runs after Go's deadlock
	// report: what the blocked goroutines were doing must be on disk
	// before (blocked.go).
	sess.watch, sess.watching = true, true
	go hiddenCheckpointer()
	// Time 0 after the setup, so that it does not count as main's time.
	useTSC = tscUsable()
	sess.cal = calibrate()
	sess.base.Store(sess.cal.n)
	if a := sess.arena; a != nil {
		h := a.header()
		h.calT, h.calN, h.base = sess.cal.t, sess.cal.n, sess.cal.n
		if useTSC {
			h.tsc = 1
		}
	}
	sess.wall = time.Now()
	startRuntimeTrace()
	startCPUProfile()
	sess.state.Store(stateRunning)
	return true
}

// Off reports whether nothing is recorded in this run (DIVERGO_TRACE=off).
// Every instrumented function asks it first and then runs a copy of its
// original body, which records nothing and costs what the plain program
// does (docs/INSTRUMENT.md, "Recording off"). It inlines to one load and
// one compare, which the branch on it fuses with: the package's init has
// already read DIVERGO_TRACE, so an idle session here means recording is
// on and Enter or Main will start it.
func Off() bool { return sess.state.Load() == stateOff }

// Program opens the trace with the program's graph (tbb.Marshal output)
// when package main's variables are initialized, before its init functions
// and main.main run. A program that exits before main (log.Fatal in an
// init on a bad configuration, os.Exit in a goroutine an init started, a
// panic in an init) then leaves a trace of what it did up to there, as one
// that exits from main does; opened by Main alone, such a program wrote
// nothing, not even its arena's contents could be read back. Main's clock
// still starts at Main when nothing was recorded before it.
func Program(graphJSON string) bool {
	if begin() {
		openTrace([]byte(graphJSON))
	}
	return true
}

// Main starts recording at the first statement of main.main: it opens the
// trace file with the program's graph (tbb.Marshal output), installs the
// flushes, and records main's entry block.
func Main(graphJSON string, entry uint32) *G {
	if !begin() {
		return offG
	}
	openTrace([]byte(graphJSON))
	sess.regMu.Lock()
	if len(sess.live) == 0 && !sess.mainTaken {
		// No timestamp taken yet: start the clock after opening the
		// file, so that main's span is main's own.
		sess.base.Store(nanotime())
		if a := sess.arena; a != nil {
			a.header().base = sess.base.Load()
		}
	}
	sess.regMu.Unlock()
	g := current(true, nil)
	g.isMain = true
	sess.mainEntry = entry
	g.B(entry)
	return g
}

// Enter finds the calling goroutine's recorder and records the entry block
// of the function it entered. Its test of DIVERGO_TRACE=off inlines, so
// that with recording off a function's entry makes no call.
func Enter(entry uint32) *G {
	if sess.state.Load() == stateOff {
		return offG
	}
	return enter(entry)
}

func enter(entry uint32) *G { return enterFrom(nil, entry) }

// enterFrom is enter for a function literal that h handed to code divergo
// did not instrument (handoff.go), nil for any other function.
func enterFrom(h *Handoff, entry uint32) *G {
	if sess.state.Load() != stateRunning && !begin() {
		return offG
	}
	// curGoid, written out: it does not inline (its two calls), and its
	// frame cost a tenth of an entry (BenchmarkEnter 7.6 -> 7.1 ns).
	var goid uint64
	if off := goidOffset; off >= 0 {
		goid = *(*uint64)(unsafe.Add(getg(), off))
	} else {
		goid = stackGoid()
	}
	g := lookup(goid)
	if g == nil {
		if bubbles.Load() > 0 {
			return offG // a synctest bubble may be running (testing.go)
		}
		g = current(false, h)
	}
	if g.orphan {
		g.depth++
	}
	g.B(entry)
	return g
}

// current returns the calling goroutine's recorder, creating one for a
// goroutine not started through Spawn. The goroutine running main.main (or
// Go's goroutine 1, which runs init) gets id 1. h, when not nil, is the
// handoff of the function literal the goroutine entered (handoff.go).
func current(isMain bool, h *Handoff) *G {
	goid := curGoid()
	if g := lookup(goid); g != nil {
		return g
	}
	sess.regMu.Lock()
	var id uint64
	if (isMain || goid == 1) && !sess.mainTaken {
		id, sess.mainTaken = 1, true
	} else {
		id = sess.nextID.Add(1)
	}
	sess.regMu.Unlock()
	g := newG(id, goid)
	if id == 1 {
		g.ident = rootIdent(perturbSeed)
	} else {
		g.ident = orphanIdent(perturbSeed, id)
		g.orphan = !isMain
		if g.orphan {
			g.creator = creatorFor(goid) // once per orphan: microseconds (creator.go)
			g.ordinal = h.take()
		}
	}
	g.rng = g.ident
	g.start = g.clock()
	register(g)
	return g
}

func register(g *G) {
	publish(g)
	store(g.goid, g)
	sess.regMu.Lock()
	if sess.exiting {
		// The process is ending and its goroutines are cut: this one
		// runs nothing more (ending.go).
		sess.regMu.Unlock()
		select {}
	}
	sess.live[g] = struct{}{}
	sess.regMu.Unlock()
	if sess.watch && ckptWaits.Load() {
		resumed() // a goroutine started: the program goes on (blocked.go)
	}
}

func unregister(g *G) {
	if ctl.on {
		g.ctlEnded() // the others go on
	}
	store(g.goid, nil)
	sess.regMu.Lock()
	delete(sess.live, g)
	sess.regMu.Unlock()
}

// openTrace creates the trace file, writes the header and any chunk
// flushed before the graph was known.
func openTrace(graph []byte) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.w != nil || sess.closed || sess.failed {
		return
	}
	hash, err := graphHash(graph)
	if err != nil {
		failLocked(fmt.Errorf("reading the program's graph: %w", err))
		return
	}
	f, removed, err := createTrace(sess.path)
	sess.removed = removed
	if err != nil {
		failLocked(err)
		return
	}
	w, err := trace.NewWriter(f, trace.Header{Program: programName(), Start: sess.wall, Graph: graph, Hash: hash,
		Perturbed: perturbOn, Seed: int64(perturbSeed), Inputs: inputs})
	if err != nil {
		f.Close()
		failLocked(err)
		return
	}
	sess.file, sess.w = f, w
	for i := range sess.pending {
		if err := w.WriteChunk(&sess.pending[i]); err != nil {
			failLocked(err)
			return
		}
	}
	sess.pending = nil
}

// graphHash returns the hash of a tbb.Marshal output. The hash is the last
// field of the encoding, so it is found without decoding a graph that can
// be megabytes long; anything else is decoded properly.
func graphHash(graph []byte) (string, error) {
	const key = `"hash":"`
	if i := bytes.LastIndex(graph, []byte(key)); i >= 0 {
		rest := graph[i+len(key):]
		if j := bytes.IndexByte(rest, '"'); j >= 0 && string(rest[j:]) == `"}` {
			return string(rest[:j]), nil
		}
	}
	var h struct {
		Hash string `json:"hash"`
	}
	err := json.Unmarshal(graph, &h)
	return h.Hash, err
}

// failLocked reports the first write error once and stops writing: the
// program runs on without a trace rather than die of it.
func failLocked(err error) {
	if !sess.failed {
		fmt.Fprintf(os.Stderr, "divergo: recording stopped, trace %s: %v\n", sess.path, err)
	}
	sess.failed = true
}

// writeChunk writes chunk c of g, filling in what the chunk header says
// about g. words are the chunk's words (for the first block). The caller
// holds sess.mu, or is the writer goroutine with a job in flight while the
// file is open: nothing else writes then (writer.go).
//
// Times are stamps, converted by cv, the conversion c was encoded with: end
// is the stamp of the chunk's closing clock, so c.End equals that event's
// time.
func writeChunk(g *G, c *trace.Chunk, words []uint32, final bool, end int64, cv *stampConv) {
	if sess.closed || g.ended {
		return
	}
	if final {
		end = cv.ns(end)
	}
	g.floor = cv.floor
	if g.slot != nil {
		g.slot.floor = g.floor
	}
	if sess.w == nil && !sess.failed && sess.pendingBytes+len(c.Body) > maxPending {
		// Without Main (a test binary, whose main is not instrumented) the
		// file never opens: keep a bounded amount, not the whole run. The
		// sequence does not advance, so later chunks still read.
		if !sess.dropped {
			fmt.Fprintf(os.Stderr, "divergo: no instrumented main.main yet; dropping events after %d KiB\n", maxPending>>10)
		}
		sess.dropped = true
		g.ended = final
		return
	}
	chunkHead(g, c, words, final, end, cv)
	g.seq++
	g.ended = final
	switch {
	case sess.failed:
	case sess.w == nil:
		cp := *c
		cp.Body, cp.Frame = append([]byte(nil), c.Body...), nil
		sess.pending = append(sess.pending, cp)
		sess.pendingBytes += len(cp.Body)
	default:
		if err := sess.w.WriteChunk(c); err != nil {
			failLocked(err)
		}
	}
}

// chunkHead fills in what the header of g's next chunk says about g.
// sess.mu is held.
func chunkHead(g *G, c *trace.Chunk, words []uint32, final bool, end int64, cv *stampConv) {
	c.G, c.Seq, c.Final, c.End = g.id, g.seq, final, end
	c.Result = 0
	switch {
	case g.timedOut.Load():
		c.Result = trace.TestTimeout
	case final:
		c.Result = g.result
	}
	c.Origin = trace.Origin{}
	if g.seq == 0 {
		fb, ok := firstBlock(words)
		c.Origin = trace.Origin{GoID: g.goid, Parent: g.parent, Site: g.site, Ordinal: g.ordinal, FirstBlock: fb, HasFirst: ok, Start: max(cv.raw(g.start), cv.start), Test: g.test, Creator: g.creator}
	}
}

// flush closes g's buffer with a clock event and hands it to the writer
// goroutine, or writes it out itself when the writer is behind (writer.go);
// g goes on with an empty buffer.
// Only g's goroutine calls it.
func (g *G) flush(final bool) {
	t := now()
	full := g.buf[:cap(g.buf)]
	n := g.n
	full[n], full[n+1], full[n+2] = opBit|opClock<<16, lo(uint64(t)), hi(uint64(t))
	sess.mu.Lock()
	// g.n = 0 under the mutex: finish reads n under it too.
	switch {
	case dropFull && !final && cap(full) == maxWords:
		g.n = 0
	case final || cap(full) < maxWords || !g.writeOwnLocked(full[:n+3], t):
		g.queueLocked(full[:n+3], final, t)
	}
	sess.mu.Unlock()
}

// finishExit is finish for an ending that kills the process at once
// (OsExit, a goroutine's panic): goroutines that would start after the cut
// never run (ending.go).
func finishExit(caller *G, e trace.Ending) { finishing(caller, true, true, e) }

// finish completes the trace: the caller's buffer (its goroutine ended when
// final), every other live buffer, the index, which ends with e, how the
// run ended (docs/FORMAT.md, "The run's ending"). Later events are
// dropped.
func finish(caller *G, final bool, e trace.Ending) { finishing(caller, final, false, e) }

func finishing(caller *G, final, exiting bool, e trace.Ending) {
	if sess.state.Load() != stateRunning {
		return
	}
	var t int64
	if caller != nil && !caller.off {
		t = caller.clock() // may queue a full buffer: written below, first
	}
	sess.regMu.Lock()
	sess.exiting = sess.exiting || exiting
	live := make([]*G, 0, len(sess.live))
	for g := range sess.live {
		if g != caller {
			live = append(live, g)
		}
	}
	sess.regMu.Unlock()

	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.closed {
		return
	}
	drainLocked()
	var c trace.Chunk
	if caller != nil && !caller.off {
		words := caller.buf[:caller.n]
		cv := newStampConv(caller.floor)
		encode(words, &c, &cv)
		writeChunk(caller, &c, words, final, t, &cv)
		caller.n = 0
	}
	// Every live goroutine is cut at one moment: how far its buffer is
	// written and the wait it is in are read for all of them first, and
	// copied and encoded after. Cutting each as its turn to be written
	// came (tens of µs apart, while the others ran on) made a receive
	// taken late find its sender still blocked in a cut taken early
	// (sieve1: 63 waits without their releaser). The words below n stay
	// put meanwhile: a goroutine empties its buffer only in flush, under
	// sess.mu, which this holds.
	type cut struct {
		g        *G
		n        int
		wait     pendingWait
		timedOut bool
	}
	cuts := make([]cut, 0, len(live))
	tb := now()
	for _, g := range live {
		if !g.ended {
			// A goroutine blocked now ends with the wait it is in
			// (blocked.go); a test the timeout caught ends with the trace
			// (testing.go).
			cuts = append(cuts, cut{g, writtenOf(g), pendingOf(g), g.timedOut.Load()})
		}
	}
	for _, k := range cuts {
		g, timedOut := k.g, k.timedOut
		ws := appendBlocked(snapshot(bufferOf(g), k.n), k.wait, tb)
		if len(ws) == 0 && g.seq > 0 && !timedOut {
			continue
		}
		cv := newStampConv(g.floor)
		encode(ws, &c, &cv)
		end := int64(0)
		if timedOut {
			end = now()
		}
		writeChunk(g, &c, ws, timedOut, end, &cv)
	}
	if sess.w != nil && !sess.failed {
		sess.w.SetEnding(e)
		if err := sess.w.Close(); err != nil {
			failLocked(err)
		}
	}
	if sess.file != nil {
		if err := sess.file.Close(); err != nil {
			failLocked(err)
		}
	}
	if sess.removed != nil {
		<-sess.removed // the previous run's trace (file.go)
	}
	if sess.arena != nil {
		sess.arena.remove() // the trace is complete
	}
	sess.closed = true
	stopRuntimeTrace()
	stopCPUProfile()
	sess.work.Broadcast() // the writer returns
	wakeCheckpointer()    // and the checkpointer
	sess.idle.Broadcast() // flushes waiting for room drop their words
}

// writtenOf reads how far a goroutine that may be running has written
// its buffer (the race snapshot documents).
//
//go:norace
func writtenOf(g *G) int { return g.n }

// bufferOf reads the buffer of a goroutine that may be running, which
// room may be replacing with a larger one (the race snapshot documents):
// the words below writtenOf are in whichever it returns, since room
// copies them before it swaps.
//
//go:norace
func bufferOf(g *G) []uint32 { return g.buf }

// snapshot copies the first n words of a buffer another goroutine may
// still be writing (beyond n). The race is deliberate and documented: the
// program is ending, and a torn tail is cut by encode.
//
//go:norace
func snapshot(buf []uint32, n int) []uint32 {
	n = min(max(n, 0), len(buf))
	out := make([]uint32, n, n+blockedWords)
	for i := range out { // not copy: the runtime's copy is instrumented
		out[i] = buf[i]
	}
	return out
}

// OsExit replaces os.Exit: it completes the trace, then exits.
func OsExit(code int) {
	if sess.state.Load() == stateRunning {
		g := lookup(curGoid())
		e := trace.Ending{Kind: trace.EndExit, Code: code}
		if g != nil {
			e.G = g.id
		}
		finishExit(g, e)
	}
	os.Exit(code)
}

// TracePath returns where this process writes its trace ("" before
// recording starts or when it is off).
func TracePath() string {
	if sess.state.Load() != stateRunning {
		return ""
	}
	return sess.path
}
