//go:build linux

package runtime

import (
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// The arena: every buffer of a recording to a file is carved from a file
// beside the trace, <trace>.live, mapped shared, so that a word a probe
// stores is in the kernel's page cache the moment it is stored and stays
// there however the process dies (SIGKILL, a signal, a fatal error, an
// os.Exit the recorder does not see). Each recorder also has a slot there
// saying who it is and the wait it is in. finish removes the arena once the
// trace is complete; after any other death the reader completes the trace
// from it (recover.go, docs/ARCHITECTURE.md "Recording that survives any
// death"). The probes are unchanged: only where g.buf points changes.
//
// A buffer's end is found without its count, which lives in the Go heap:
// a buffer is cleared before it is handed out again, and every word the
// recorder writes is nonzero but block 0's, so the recovered length is the
// last nonzero word.
//
// The file grows, and is mapped, a segment at a time; segments are
// fallocated first, so that a full disk fails the growth (the recorder then
// takes heap buffers, as without an arena) and never a probe's store,
// which would be a SIGBUS. No block ever moves or is unmapped while the
// program runs: a goroutine may store into its buffer after the trace is
// complete.

const (
	arenaMagic = "DVGARENA"
	arenaHead  = 4096    // bytes before the first segment
	segBytes   = 4 << 20 // bytes per segment
	blockMagic = 0xd1b0c4a5
	slotWords  = 64 // a slot's payload
)

// Block kinds.
const (
	blockBuf  = 1
	blockSlot = 2
)

// Buffer states.
const (
	bufFree    = 0
	bufCurrent = 1 // its goroutine fills it
	bufQueued  = 2 // full, waiting for the writer (or being written)
	bufFinal   = 3 // queued, and its goroutine's last
)

// arenaHeader is the arena file's first bytes.
type arenaHeader struct {
	magic [8]byte
	pid   int64
	calT  int64  // the calibration (clock.go)
	calN  int64  //
	base  int64  // nanotime at the trace's time 0
	k     uint64 // float64 bits: ns per stamp unit, 0 until measured
	tsc   int64  // 1: stamps are the TSC's, else nanotime's
	// ending is a trace.EndKind the process knew it would die of before
	// it did: trace.EndTimeout once a test binary's timeout is near
	// (testing.go). 0: none.
	ending uint32
}

// blockHdr precedes each block's payload: 16 words, so that a payload
// starts on a cache line.
type blockHdr struct {
	magic uint32
	kind  uint32
	words uint32 // payload words
	state uint32 // a buffer's
	id    uint64 // recorder id
	seq   uint64 // the chunk a buffer's words will be
	end   int64  // a final buffer's end stamp
	_     [24]byte
}

const blockHdrBytes = int(unsafe.Sizeof(blockHdr{}))

// slotRec is a recorder's slot: what the first chunk's header says about
// the goroutine, the floor of its times and the wait it is in.
type slotRec struct {
	id, goid, parent uint64
	site, ordinal    uint32
	start            int64 // stamp
	floor            int64 // ns
	waitOp, waitSite uint32
	waitObj          uint64
	waitBegin        int64
	nameLen          uint32 // of the name: a test's root goroutine's test, or an orphan's creator
	nameIsCreator    uint32 // 1: name is the creator's
	timedOut         uint32 // 1: a test's root, running when the binary's timeout came (testing.go)
	name             [160]byte
}

// A slot's payload holds a slotRec.
var _ [slotWords*4 - unsafe.Sizeof(slotRec{})]byte

type arena struct {
	mu    sync.Mutex
	f     *os.File
	path  string // the arena's file
	crash string // the crash output's file (crash_linux.go)
	head  *arenaHeader
	segs  [][]byte
	used  int                    // bytes used in the last segment
	free  map[uint32][]*blockHdr // cleared blocks by payload words
}

// arenaPath is where the arena of the trace at path goes.
func arenaPath(path string) string { return path + ".live" }

// openArena creates the arena of the trace at path, or returns nil where
// there can be none: the trace is not a regular file (/dev/null), or the
// file cannot be created, locked, grown or mapped.
func openArena(path string) *arena {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil
	} else if err != nil && !os.IsNotExist(err) {
		return nil
	}
	p := arenaPath(path)
	// Removed, not truncated: another process recording to the same path
	// may have it mapped, and truncating a file under a mapping turns the
	// mapping's stores into SIGBUS.
	os.Remove(p)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil
	}
	// Held until the process dies: a reader then knows the arena is a
	// dead run's.
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil || syscall.Fallocate(int(f.Fd()), 0, 0, arenaHead) != nil {
		f.Close()
		os.Remove(p)
		return nil
	}
	hb, err := syscall.Mmap(int(f.Fd()), 0, arenaHead, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		f.Close()
		os.Remove(p)
		return nil
	}
	a := &arena{f: f, path: p, head: (*arenaHeader)(unsafe.Pointer(&hb[0])), free: map[uint32][]*blockHdr{}}
	copy(a.head.magic[:], arenaMagic)
	a.head.pid = int64(os.Getpid())
	a.crash = crashPath(path)
	openCrash(path)
	return a
}

// grow adds a segment; false if it cannot. a.mu is held.
func (a *arena) grow() bool {
	off := int64(arenaHead) + int64(len(a.segs))*segBytes
	if syscall.Fallocate(int(a.f.Fd()), 0, off, segBytes) != nil {
		return false
	}
	b, err := syscall.Mmap(int(a.f.Fd()), off, segBytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return false
	}
	a.segs, a.used = append(a.segs, b), 0
	return true
}

// block returns a cleared block of kind with words of payload, nil if the
// arena cannot grow.
func (a *arena) block(kind uint32, words int) *blockHdr {
	a.mu.Lock()
	defer a.mu.Unlock()
	if fl := a.free[uint32(words)]; len(fl) > 0 {
		h := fl[len(fl)-1]
		a.free[uint32(words)] = fl[:len(fl)-1]
		return h
	}
	size := blockHdrBytes + 4*words
	if len(a.segs) == 0 || a.used+size > segBytes {
		if !a.grow() {
			return nil
		}
	}
	seg := a.segs[len(a.segs)-1]
	h := (*blockHdr)(unsafe.Pointer(&seg[a.used]))
	a.used += size
	h.kind, h.words = kind, uint32(words)
	h.magic = blockMagic // last: a reader walks blocks by their magic
	return h
}

// payload is the words after h.
func payload(h *blockHdr) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Add(unsafe.Pointer(h), blockHdrBytes)), h.words)
}

// buf returns a buffer of words words (len words-reserve) for the chunk seq
// of recorder id, nil if the arena cannot grow.
func (a *arena) buf(words int, id, seq uint64) []uint32 {
	h := a.block(blockBuf, words)
	if h == nil {
		return nil
	}
	h.id, h.seq, h.state = id, seq, bufCurrent
	return payload(h)[:words-reserve]
}

// hdrOf returns the header of an arena buffer, nil for any other buffer.
func (a *arena) hdrOf(b []uint32) *blockHdr {
	if cap(b) == 0 {
		return nil
	}
	p := unsafe.Pointer(&b[:1][0])
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, s := range a.segs {
		if lo := uintptr(unsafe.Pointer(&s[0])); uintptr(p) > lo && uintptr(p) < lo+uintptr(len(s)) {
			return (*blockHdr)(unsafe.Add(p, -blockHdrBytes))
		}
	}
	return nil
}

// release clears a block no longer used and keeps it for reuse: its words
// first, then its state, so that a death meanwhile leaves either the whole
// old buffer or nothing of it.
func (a *arena) release(h *blockHdr) {
	clear(payload(h))
	h.state, h.id, h.seq, h.end = bufFree, 0, 0, 0
	a.mu.Lock()
	a.free[h.words] = append(a.free[h.words], h)
	a.mu.Unlock()
}

// slot returns a recorder's slot, nil if the arena cannot grow.
func (a *arena) slot() (*slotRec, *blockHdr) {
	h := a.block(blockSlot, slotWords)
	if h == nil {
		return nil, nil
	}
	return (*slotRec)(unsafe.Pointer(&payload(h)[0])), h
}

// remove deletes the arena's file: the trace is complete. The mappings
// stay, since goroutines may still store into their buffers.
func (a *arena) remove() {
	os.Remove(a.path)
	os.Remove(a.crash)
}

// close closes the arena's file; its mappings stay (remove says why).
// Tests only.
func (a *arena) close() { a.f.Close() }

// header is the arena's header.
func (a *arena) header() *arenaHeader { return a.head }
