package runtime

import (
	"math"
	"sync/atomic"

	"github.com/divergo/divergo/internal/trace"
)

// G is the recorder of one goroutine. Only that goroutine uses it, except
// when the program ends and every buffer is flushed.
type G struct {
	// Hot: the probe touches only these. The pads keep every other word
	// of this G or of a G next to it in memory, some of which the writer
	// goroutine writes (floor, seq, jobs), out of their cache lines,
	// wherever the allocator puts the G (it aligns a G to 16 bytes, not
	// 64): a store of the writer's there would take the line away from
	// the probes' core.
	_   [64]byte
	buf []uint32 // len is the usable part; cap keeps room for a closing clock
	n   int
	_   [64]byte

	off     bool // the shared recorder of DIVERGO_TRACE=off, or a goroutine's that ended
	id      uint64
	goid    uint64
	parent  uint64
	site    uint32
	ordinal uint32
	start   int64  // stamp (clock.go)
	floor   int64  // latest time in ns written for this goroutine; guarded like seq
	seq     uint64 // next chunk's sequence number; guarded by sess.mu
	jobs    int    // chunks queued for the writer or in flight; guarded by sess.mu
	wrote   bool   // first chunk written; guarded by sess.mu
	ended   bool   // final chunk written; guarded by sess.mu
	isMain  bool
	// orphan: a goroutine started by code that is not instrumented (a
	// handler net/http starts, errgroup's): its stream runs from its first
	// instrumented frame until that frame returns (depth back to 0), and
	// the goroutine's next entry starts another.
	orphan   bool
	depth    int32
	creator  string             // an orphan's: the function that started it (creator.go)
	spawns   map[uint32]uint32  // ordinals per go statement
	handoffs map[uint32]uint32  // literals handed to uninstrumented code, per entry block (handoff.go)
	ids      map[uintptr]uint64 // identities of addresses in outcomes (identity.go)
	nextID   uint64             // the last identity given
	children int
	ident    uint64      // spawn identity, for DIVERGO_PERTURB (perturb.go)
	rng      uint64      // perturbation PRNG state, starts at ident
	passes   uint32      // schedule hook passes so far, for DIVERGO_REPLAY (replay.go)
	turn     int64       // the replayed turn held, plus one; 0 for none (replay.go)
	sel      selForce    // the clause the replay forces on the select under way (selforce.go)
	cg       ctlG        // its state under controlled scheduling (sched.go)
	wait     pendingWait // the operation the goroutine is blocked in (blocked.go)
	fills    uint64      // buffers handed over: the chunk the current buffer will be
	slot     *slotRec    // in the arena (arena_linux.go), nil if none
	slotH    *blockHdr

	// A test's root goroutine (testing.go).
	test      string           // the test's name, "" for other goroutines
	testT     TB               // the test
	testEntry uint32           // entry block of the test's function
	testDone  atomic.Bool      // its result is being recorded
	result    trace.TestResult // recorded in the final chunk
	timedOut  atomic.Bool      // the test was running when -test.timeout was near
}

// Buffer sizes in words. A buffer starts small (10,000 goroutines must not
// cost 10,000 large buffers) and doubles up to maxWords; a full buffer of
// maxWords is a chunk.
const (
	minWords = 256
	maxWords = 32 << 10
	reserve  = 16 // words kept past len for the clock that closes a chunk
)

// A buffer word is one of:
//
//	id              a block (B); ids are below outBit
//	outBit | v      an outcome v < outBit (Outcome)
//	opBit | op<<16 | aux, then payload words: a rarer event
const (
	opBit  = 1 << 31
	outBit = 1 << 30
)

// Opcodes of rare events, with their payload words.
const (
	opExit    = 1 // entry
	opOutcome = 2 // lo, hi: an outcome of outBit or more
	opSpawn   = 3 // site, ordinal, child lo, child hi
	opSync    = 4 // aux = trace.Op | waited<<8 | sends<<9 | blocked<<10 | case<<11 (a select's clause, from 1; 0 when not recorded); site, obj lo, obj hi, end lo, end hi [, begin lo, begin hi]
	opClock   = 5 // lo, hi
	opPerturb = 6 // begin lo, begin hi, end lo, end hi: a delay of DIVERGO_PERTURB (perturb.go)
	opPack    = 7 // aux = n; head, codes lo, codes hi: a packed loop's word of n <= 64 probes (PackWord)
	opPackN   = 8 // head, 0, 0, n lo, n hi: n executions of a loop that only counts (PackCount)
)

// maxEventWords is the longest event: a sync that waited.
const maxEventWords = 8

// offG is the recorder handed out when recording is off: its empty buffer
// fails the probe's room test and its off field skips the slow path, so a
// probe is three loads and two untaken branches, no call. It is never
// written, so sharing it between goroutines is safe.
var offG = &G{off: true}

func newG(id, goid uint64) *G {
	g := &G{id: id, goid: goid, floor: math.MinInt64}
	g.setBuf(newWords(minWords, id, 0))
	return g
}

// newWords returns an empty buffer of words words (len words-reserve) for
// chunk seq of recorder id: the arena's when there is one
// (arena_linux.go), else the heap's or, full-size, a mapping's
// (mem_linux.go).
func newWords(words int, id, seq uint64) []uint32 {
	if a := sess.arena; a != nil {
		if b := a.buf(words, id, seq); b != nil {
			return b
		}
	}
	if words == maxWords {
		return bigWords()
	}
	return make([]uint32, words-reserve, words)
}

// releaseArena clears a buffer of the arena that is no longer used, for
// reuse, and reports whether it was one.
func releaseArena(b []uint32) bool {
	if a := sess.arena; a != nil {
		if h := a.hdrOf(b); h != nil {
			a.release(h)
			return true
		}
	}
	return false
}

// publish gives g a slot in the arena saying who it is, if there is one.
func publish(g *G) {
	a := sess.arena
	if a == nil {
		return
	}
	s, h := a.slot()
	if s == nil {
		return
	}
	s.goid, s.parent, s.site, s.ordinal = g.goid, g.parent, g.site, g.ordinal
	s.start, s.floor = g.start, g.floor
	s.nameLen = uint32(copy(s.name[:], g.test))
	if g.creator != "" { // an orphan is no test's root: the name is free
		s.nameLen, s.nameIsCreator = uint32(copy(s.name[:], g.creator)), 1
	}
	s.id = g.id // last: a reader takes a slot with an id for whole
	g.slot, g.slotH = s, h
}

// setBuf gives g the buffer b, empty.
func (g *G) setBuf(b []uint32) {
	g.buf, g.n = b, 0
}

// B records that block id began; id < outBit (the instrumenter numbers a
// program's blocks from 0). It must stay small enough to inline, which
// TestProbeInlines checks (go build -gcflags=-m=2 reports "can inline
// (*G).B with cost 47"). The slow path is called through call, because the
// inliner charges a call of a function parameter 17 where it charges a
// direct call 57: B cost 79 of the budget of 80 with a direct call, and
// no form of the off test fitted (PERFORMANCE.md, "Recording off"). Once call
// is inlined its f is a constant, and the code of the fast path is what it
// was; the slow path is an indirect call.
func (g *G) B(id uint32) {
	if g.n < len(g.buf) {
		g.buf[g.n] = id
		g.n++
	} else if !g.off {
		call(g, id, (*G).slowB)
	}
}

// call calls f(g, id): see B.
func call(g *G, id uint32, f func(*G, uint32)) { f(g, id) }

//go:noinline
func (g *G) slowB(id uint32) {
	if g.off {
		return
	}
	g.room(1)
	g.buf[g.n] = id
	g.n++
}

// room makes space for k words: it grows the buffer up to maxWords, then
// writes it out as a chunk.
func (g *G) room(k int) {
	if len(g.buf)-g.n >= k {
		return
	}
	if c := cap(g.buf); c < maxWords {
		nb := newWords(2*c, g.id, g.fills)
		copy(nb, g.buf[:g.n])
		old := g.buf
		g.buf = nb
		// Cleared under sess.mu: finish and checkpoint, which hold it, may
		// be copying the old words. A reader of the arena takes the longer
		// of the two meanwhile.
		sess.mu.Lock()
		releaseArena(old)
		sess.mu.Unlock()
		return
	}
	g.flush(false)
}

// put appends an opcode and its payload.
func (g *G) put(op, aux uint32, words ...uint32) {
	if g.off {
		return
	}
	g.room(1 + len(words))
	g.buf[g.n] = opBit | op<<16 | aux
	copy(g.buf[g.n+1:], words)
	g.n += 1 + len(words)
}

// PackWord records n probes of the packed loop whose head is block head
// (docs/FORMAT.md, "Packed loops"), 0 < n <= 64: codes holds the codes of
// the loop's probed blocks in the order they ran, the last in the low bits.
// The instrumented function keeps the codes in a variable and calls
// PackWord when the word is full and when the loop ends, so that a probe
// inside the loop is a shift and an or, not a store. PackWord inlines, as B
// does (TestProbeInlines): a word of a tight loop is then four stores and
// no call, where a call that wrote the word and room's call took about as long
// as encoding the word (PERFORMANCE.md, "Repeated pack words"). n goes into 16 bits
// of the opcode word unchecked; the name is not Pack's so that code
// instrumented by a divergo whose Pack took counts of any size fails to
// build against this runtime instead of recording a wrong word.
func (g *G) PackWord(head uint32, codes, n uint64) {
	if b := g.buf[g.n:]; len(b) >= 4 {
		*(*[4]uint32)(b) = [4]uint32{opBit | opPack<<16 | uint32(n), head, uint32(codes), uint32(codes >> 32)}
		g.n += 4
	} else {
		callPack(g, head, codes, n, (*G).packSlow)
	}
}

// callPack calls f(g, head, codes, n): see B.
func callPack(g *G, head uint32, codes, n uint64, f func(*G, uint32, uint64, uint64)) {
	f(g, head, codes, n)
}

//go:noinline
func (g *G) packSlow(head uint32, codes, n uint64) {
	g.put(opPack, uint32(n), head, lo(codes), hi(codes))
}

// smallCount is the most executions PackCount writes as block events.
const smallCount = 4

// PackCount records n executions of block id, the one probed block of the
// packed loop whose head is block head (a loop that only counts its
// block, whose word is 0), for any n: it is called once per exit from the
// loop. Most such loops run a few iterations an exit (fannkuch's swap
// loop: one to four), where a count, six words through a call and an
// event the encoder takes the general path for, cost more than the
// probes it replaced (PERFORMANCE.md, "Recording compute"): a count of
// at most smallCount is written as that many block events, what the
// probes would have written, in stores with no call. The block is an
// argument so that code instrumented by a divergo whose PackCount took
// only the head fails to build against this runtime.
func (g *G) PackCount(head, id uint32, n uint64) {
	if b := g.buf[g.n:]; n <= smallCount && len(b) >= smallCount {
		*(*[smallCount]uint32)(b) = [smallCount]uint32{id, id, id, id}
		g.n += int(n)
	} else {
		callPackCount(g, head, id, n, (*G).packCountSlow)
	}
}

// callPackCount calls f(g, head, id, n): see B.
func callPackCount(g *G, head, id uint32, n uint64, f func(*G, uint32, uint32, uint64)) {
	f(g, head, id, n)
}

//go:noinline
func (g *G) packCountSlow(head, id uint32, n uint64) {
	if n <= smallCount {
		for range n {
			g.slowB(id)
		}
		return
	}
	g.put(opPackN, 0, head, 0, 0, lo(n), hi(n))
}

func lo(v uint64) uint32 { return uint32(v) }
func hi(v uint64) uint32 { return uint32(v >> 32) }

// clock records the time now and returns it.
func (g *G) clock() int64 {
	t := now()
	g.put(opClock, 0, lo(uint64(t)), hi(uint64(t)))
	return t
}

// Exit records the return of the function whose entry block is entry,
// normal or by panic. For main.main it also completes the trace, whether
// main returns or panics: a panic that nothing recovered goes on after the
// deferred Exit, with its own message and stack. Exit inlines into the
// deferred call, so that with recording off a function's return costs that
// call and a test, not a second call; that is why it does not recover.
func (g *G) Exit(entry uint32) {
	if !g.off {
		g.exit(entry)
	}
}

func (g *G) exit(entry uint32) {
	g.putExit(entry)
	if g.isMain && entry == sess.mainEntry {
		e := trace.Ending{Kind: trace.EndReturn, G: g.id}
		if panickingBelow(1) { // Exit, inlined into the deferred call, called exit
			e = trace.Ending{Kind: trace.EndPanic, Code: 2, G: g.id}
		}
		finish(g, true, e)
	}
	if g.orphan {
		if g.depth--; g.depth == 0 {
			// Its first instrumented frame returned into the code that
			// started it: what the goroutine does next is no longer the
			// program's, and its stream ends as a spawned one's does.
			g.flush(true)
			unregister(g)
		}
	}
}

// Outcome records the outcome of the TCP of the last block: an index
// value, a map key hash, a lock ticket or whether a Once.Do ran its
// function. Values below outBit (hashed keys, HashString; most indexes
// and tickets) take one word, others three. Like B it inlines, its slow
// path called through call64 (it cost 86 with a direct call).
func (g *G) Outcome(v uint64) {
	if v < outBit && g.n < len(g.buf) {
		g.buf[g.n] = outBit | uint32(v)
		g.n++
	} else if !g.off {
		call64(g, v, (*G).slowOutcome)
	}
}

// call64 calls f(g, v): see B.
func call64(g *G, v uint64, f func(*G, uint64)) { f(g, v) }

// OutcomeString records the outcome of a string index or map key: its
// HashString. It is Outcome(HashString(s)) in one call instead of a call
// and an inlined Outcome (the hash does not inline), for the commonest
// outcome of map loops.
func (g *G) OutcomeString(s string) {
	if g.off {
		return // not even the hash
	}
	h := HashString(s)
	if g.n < len(g.buf) {
		g.buf[g.n] = outBit | uint32(h) // h < outBit
		g.n++
		return
	}
	g.slowOutcome(h)
}

//go:noinline
func (g *G) slowOutcome(v uint64) {
	if g.off {
		return
	}
	if v < outBit {
		g.room(1)
		g.buf[g.n] = outBit | uint32(v)
		g.n++
		return
	}
	g.room(3)
	g.buf[g.n], g.buf[g.n+1], g.buf[g.n+2] = opBit|opOutcome<<16, lo(v), hi(v)
	g.n += 3
}

// putExit records the return of the function whose entry block is entry:
// what Exit and TestExit record before their own work.
func (g *G) putExit(entry uint32) {
	if len(g.buf)-g.n < 2 {
		g.room(2)
	}
	g.buf[g.n], g.buf[g.n+1] = opBit|opExit<<16, entry
	g.n += 2
}
