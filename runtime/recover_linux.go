//go:build linux

package runtime

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"syscall"
	"unsafe"

	"github.com/divergo/divergo/internal/trace"
)

// RecoverTrace completes the trace at path from its arena (arena_linux.go)
// when the recording died before completing it: after the whole chunks the
// trace holds, each goroutine's buffers the arena still has (full ones
// waiting for the writer, the one it was filling), encoded as chunks in
// order, the last ending with the wait its goroutine was in; then the
// index, and the arena is removed. It does nothing when there is no
// arena, or when its recorder still runs (it holds a lock on the arena
// until it dies). trace.Open calls it (SetRecovery, in this package's
// init), so any reader linking this package reads a killed run whole.
//
// The arena is input like any file, and may hold anything: a process
// that died mid-store, a disk error, a hand that edited it. So recovery
// never makes the trace less readable than it was. It maps the arena read
// only and copies what it reads before using it; it completes a copy of
// the trace, not the trace; each chunk it adds must read as every command
// will read it (trace.Writer.CheckChunk), and of a goroutine whose buffer
// does not, it keeps the longest part that does; and the copy replaces the
// trace only once it reads at least what the trace did, every stream
// it added to reading to its end. An arena that adds nothing readable is kept aside, as
// <trace>.live.bad, and the trace is read as it is.
func RecoverTrace(path string) error {
	ap := arenaPath(path)
	f, err := os.Open(ap) // read only: flock needs no more
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("completing %s from %s: %w", path, ap, err)
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return nil // its recorder runs, or another reader completes it
	}
	used, err := recoverFrom(path, f)
	if err != nil {
		return fmt.Errorf("completing %s from %s (remove it to read the trace as it is): %w", path, ap, err)
	}
	os.Remove(crashPath(path)) // read into the ending, or of no use without the arena
	if !used {
		return os.Rename(ap, ap+".bad")
	}
	return os.Remove(ap)
}

// recoverFrom completes the trace at path from the arena in f, and reports
// whether the arena is done with: the trace was completed from it, or
// needs nothing from it. false: the arena adds nothing readable, and the
// trace is as it was. An error is the file system's (the copy could not
// be written); the trace is as it was then too.
func recoverFrom(path string, f *os.File) (bool, error) {
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxArenaBytes {
		return false, nil
	}
	if st.Size() < arenaHead {
		return true, nil // nothing was recorded
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return false, err
	}
	defer syscall.Munmap(data)
	var head arenaHeader // a copy: nothing of the mapping is kept
	head = *(*arenaHeader)(unsafe.Pointer(&data[0]))
	if string(head.magic[:]) != arenaMagic {
		return false, nil
	}
	before, err := readabilityOf(path)
	if errors.Is(err, os.ErrNotExist) {
		return true, nil // the run died before its trace was opened
	}
	if err != nil {
		return false, err
	}
	if before.complete {
		return true, nil // the run died removing the arena
	}
	if !before.opens {
		return false, nil // no header to go on from: the arena cannot help
	}
	tmp := path + ".recovering"
	if err := completeCopy(path, tmp, data, &head); err != nil {
		os.Remove(tmp)
		if errors.Is(err, errNothingReadable) {
			return false, nil
		}
		return false, err
	}
	if ok, err := readsAtLeast(tmp, before); err != nil || !ok {
		os.Remove(tmp)
		return false, err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return false, err
	}
	return true, nil
}

// maxArenaBytes bounds the arena a recovery maps: far more than a run
// fills (a segment holds 4 MiB of buffers), far less than the address
// space.
const maxArenaBytes = 64 << 30

// errNothingReadable: no goroutine of the arena adds a readable chunk.
var errNothingReadable = errors.New("the arena adds nothing readable")

// completeCopy copies the trace at path to tmp and completes the copy from
// the arena in data.
func completeCopy(path, tmp string, data []byte, head *arenaHeader) error {
	if err := copyFile(path, tmp); err != nil {
		return err
	}
	tf, err := os.OpenFile(tmp, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer tf.Close()
	w, err := trace.Resume(tf)
	if err != nil || w == nil {
		return errNothingReadable
	}
	slots, bufs := arenaBlocks(data)
	ids := make([]uint64, 0, len(slots))
	for id := range slots {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if err := recoverGoroutine(w, head, slots[id], bufs[id]); err != nil {
			return err
		}
	}
	// The process died without writing its end: had it seen its end, it
	// would have completed the trace and removed the arena. Unless it
	// knew what it would die of.
	end := trace.Ending{Kind: trace.EndKilled}
	if head.ending == uint32(trace.EndTimeout) {
		end = trace.Ending{Kind: trace.EndTimeout, Code: 2}
	}
	w.SetEnding(crashEnding(path, end))
	if err := w.Close(); err != nil {
		return err
	}
	return tf.Close()
}

// copyFile copies the file at src to dst, which it creates or truncates,
// with src's permissions.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", src)
	}
	out, err := os.OpenFile(dst, os.O_RDWR|os.O_CREATE|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// arenaBuf is a buffer of the arena: a copy of its header, and its words,
// which alias the read-only mapping.
type arenaBuf struct {
	h     blockHdr
	words []uint32
}

// arenaBlocks finds the arena's slots, by recorder id, and its buffers in
// use, by the id of the recorder they belong to. What it returns is
// copied out of data, but for the buffers' words.
func arenaBlocks(data []byte) (map[uint64]slotRec, map[uint64][]arenaBuf) {
	slots := map[uint64]slotRec{}
	bufs := map[uint64][]arenaBuf{}
	for seg := arenaHead; seg < len(data); seg += segBytes {
		end := min(seg+segBytes, len(data))
		for off := seg; off+blockHdrBytes <= end; {
			h := *(*blockHdr)(unsafe.Pointer(&data[off]))
			next := off + blockHdrBytes + 4*int(h.words)
			if h.magic != blockMagic || next > end || next <= off {
				break // the rest of the segment was never used
			}
			p := unsafe.Slice((*uint32)(unsafe.Pointer(&data[off+blockHdrBytes])), h.words)
			switch {
			case h.kind == blockSlot && h.words == slotWords:
				if s := *(*slotRec)(unsafe.Pointer(&p[0])); s.id != 0 {
					slots[s.id] = s
				}
			case h.kind == blockBuf && h.state != bufFree && h.words > reserve:
				bufs[h.id] = append(bufs[h.id], arenaBuf{h, p})
			}
			off = next
		}
	}
	return slots, bufs
}

// recoverGoroutine writes the chunks of the goroutine of slot s that the
// trace lacks, from its buffers bs. A chunk that would not read
// (trace.Writer.CheckChunk) is cut to the longest part of it that does,
// and the goroutine's stream ends there, not final: what follows it
// cannot be placed.
func recoverGoroutine(w *trace.Writer, head *arenaHeader, s slotRec, bs []arenaBuf) error {
	seq, ended := w.Next(s.id)
	if ended {
		return nil
	}
	type found struct {
		b     arenaBuf
		words []uint32
	}
	// By sequence; of two buffers of one sequence (a buffer grown while
	// the run died), the one with more words.
	bySeq := map[uint64]found{}
	for _, b := range bs {
		if b.h.seq < seq {
			continue // written already
		}
		ws := writtenWords(b.words, b.h.state != bufCurrent)
		if f, ok := bySeq[b.h.seq]; !ok || len(ws) > len(f.words) {
			bySeq[b.h.seq] = found{b, ws}
		}
	}
	cv := stampConv{t0: head.calT, n0: head.calN - head.base, k: 1, floor: s.floor, start: s.floor, ordered: true}
	if head.tsc == 1 {
		cv.k = math.Float64frombits(head.k)
		if cv.k == 0 || math.IsNaN(cv.k) || math.IsInf(cv.k, 0) {
			// Killed before the writer measured the scale: the TSC and
			// nanotime are the machine's, so measure it now.
			if t, n := rdtsc(), nanotime(); t > head.calT {
				cv.k = float64(n-head.calN) / float64(t-head.calT)
			} else {
				cv.k = 1
			}
		}
	}
	for ; ; seq++ {
		f, ok := bySeq[seq]
		_, more := bySeq[seq+1]
		ws := f.words
		if ok && !more && f.b.h.state == bufCurrent {
			// The buffer it was filling: it ends with the wait it was in.
			wait := pendingWait{trace.Op(s.waitOp), s.waitSite, s.waitObj, s.waitBegin}
			ws = appendBlocked(ws, wait, s.waitBegin)
		}
		// An empty buffer is no chunk, but the last of a test the timeout
		// caught: its final chunk carries the result.
		if !ok || (len(ws) == 0 && seq > 0 && (s.timedOut != 1 || more)) {
			return nil
		}
		final := f.b.h.state == bufFinal
		c, saved := recoveredChunk(&s, seq, ws, final, f.b.h.end, cv)
		if !final && !more && s.timedOut == 1 {
			// A test the timeout caught: its stream ends here, with the
			// trace, as finish ends it without an arena.
			c.Final, c.Result, c.End, final = true, trace.TestTimeout, saved.floor, true
		}
		if err := w.CheckChunk(c); err != nil {
			// The longest readable part, found by halving: a prefix of
			// a buffer is what its goroutine had recorded at some moment.
			lo, hi := 0, len(ws) // ws[:lo] reads (or lo is 0), ws[:hi] does not
			var best *trace.Chunk
			for hi-lo > 1 {
				mid := (lo + hi) / 2
				if c, _ := recoveredChunk(&s, seq, ws[:mid], false, 0, cv); w.CheckChunk(c) == nil {
					lo, best = mid, c
				} else {
					hi = mid
				}
			}
			if best == nil || (lo == 0 && seq > 0) {
				return nil
			}
			return w.WriteChunk(best)
		}
		cv = saved
		if err := w.WriteChunk(c); err != nil {
			return err
		}
		if final {
			return nil
		}
	}
}

// recoveredChunk encodes ws, chunk seq of the goroutine of slot s, with
// the conversion cv; it returns the chunk and the conversion after it.
func recoveredChunk(s *slotRec, seq uint64, ws []uint32, final bool, end int64, cv stampConv) (*trace.Chunk, stampConv) {
	c := new(trace.Chunk)
	cv.start = cv.floor
	encode(ws, c, &cv)
	c.G, c.Seq, c.Final = s.id, seq, final
	if final {
		c.End = cv.ns(end)
	}
	if seq == 0 {
		fb, ok := firstBlock(ws)
		c.Origin = trace.Origin{GoID: s.goid, Parent: s.parent, Site: s.site, Ordinal: s.ordinal, FirstBlock: fb, HasFirst: ok,
			Start: max(cv.raw(s.start), cv.start)}
		name := string(s.name[:min(s.nameLen, uint32(len(s.name)))])
		if s.nameIsCreator == 1 {
			c.Origin.Creator = name
		} else {
			c.Origin.Test = name
		}
	}
	return c, cv
}

// writtenWords returns the words of an arena buffer that were written. A
// buffer is cleared before it is handed out, and every word the recorder
// writes is nonzero but a block of id 0, so the words end at the first
// event after which every word is zero: a block 0 recorded last is lost
// with them. Of a buffer its goroutine was still filling (not whole), the
// last event is dropped too when it is an opcode and its payload: the
// death may have come between their stores.
func writtenWords(p []uint32, whole bool) []uint32 {
	last := len(p) - 1
	for last >= 0 && p[last] == 0 {
		last--
	}
	i, prev := 0, 0
	for i <= last {
		prev = i
		if p[i]&opBit == 0 {
			i++
			continue
		}
		k := payloadWords(p[i])
		if k < 0 {
			// Not a word the recorder writes. Cloned as below: p is
			// the arena's mapping, which is read only.
			return slices.Clone(p[:prev])
		}
		i += 1 + k
	}
	end := i
	if end > len(p) || (!whole && end > prev && p[prev]&opBit != 0) {
		end = prev
	}
	return slices.Clone(p[:end])
}
