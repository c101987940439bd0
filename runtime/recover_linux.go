//go:build linux

package runtime

import (
	"errors"
	"fmt"
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
func RecoverTrace(path string) error {
	ap := arenaPath(path)
	f, err := os.OpenFile(ap, os.O_RDWR, 0)
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
	if err := recoverFrom(path, f); err != nil {
		return fmt.Errorf("completing %s from %s (remove it to read the trace as it is): %w", path, ap, err)
	}
	return os.Remove(ap)
}

// recoverFrom completes the trace at path from the arena in f.
func recoverFrom(path string, f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() < arenaHead {
		return nil // nothing was recorded
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return err
	}
	defer syscall.Munmap(data)
	head := (*arenaHeader)(unsafe.Pointer(&data[0]))
	if string(head.magic[:]) != arenaMagic {
		return errors.New("not an arena")
	}
	tf, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil // the run died before its trace was opened
	}
	if err != nil {
		return err
	}
	defer tf.Close()
	w, err := trace.Resume(tf)
	if err != nil || w == nil { // nil: complete, the run died removing the arena
		return err
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
	if err := w.Close(); err != nil {
		return err
	}
	return tf.Close()
}

// arenaBlocks finds the arena's slots, by recorder id, and its buffers in
// use, by the id of the recorder they belong to.
func arenaBlocks(data []byte) (map[uint64]*slotRec, map[uint64][]*blockHdr) {
	slots := map[uint64]*slotRec{}
	bufs := map[uint64][]*blockHdr{}
	for seg := arenaHead; seg < len(data); seg += segBytes {
		end := min(seg+segBytes, len(data))
		for off := seg; off+blockHdrBytes <= end; {
			h := (*blockHdr)(unsafe.Pointer(&data[off]))
			next := off + blockHdrBytes + 4*int(h.words)
			if h.magic != blockMagic || next > end {
				break // the rest of the segment was never used
			}
			switch {
			case h.kind == blockSlot && h.words == slotWords:
				if s := (*slotRec)(unsafe.Pointer(&payload(h)[0])); s.id != 0 {
					slots[s.id] = s
				}
			case h.kind == blockBuf && h.state != bufFree && h.words > reserve:
				bufs[h.id] = append(bufs[h.id], h)
			}
			off = next
		}
	}
	return slots, bufs
}

// recoverGoroutine writes the chunks of the goroutine of slot s that the
// trace lacks, from its buffers bs.
func recoverGoroutine(w *trace.Writer, head *arenaHeader, s *slotRec, bs []*blockHdr) error {
	seq, ended := w.Next(s.id)
	if ended {
		return nil
	}
	type found struct {
		h     *blockHdr
		words []uint32
	}
	// By sequence; of two buffers of one sequence (a buffer grown while
	// the run died), the one with more words.
	bySeq := map[uint64]found{}
	for _, h := range bs {
		if h.seq < seq {
			continue // written already
		}
		ws := writtenWords(payload(h), h.state != bufCurrent)
		if f, ok := bySeq[h.seq]; !ok || len(ws) > len(f.words) {
			bySeq[h.seq] = found{h, ws}
		}
	}
	cv := stampConv{t0: head.calT, n0: head.calN - head.base, k: 1, floor: s.floor, start: s.floor, ordered: true}
	if head.tsc == 1 {
		cv.k = math.Float64frombits(head.k)
		if cv.k == 0 {
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
		if ok && !more && f.h.state == bufCurrent {
			// The buffer it was filling: it ends with the wait it was in.
			wait := pendingWait{trace.Op(s.waitOp), s.waitSite, s.waitObj, s.waitBegin}
			ws = appendBlocked(ws, wait, s.waitBegin)
		}
		if !ok || (len(ws) == 0 && seq > 0) {
			return nil
		}
		var c trace.Chunk
		cv.start = cv.floor
		encode(ws, &c, &cv)
		final := f.h.state == bufFinal
		c.G, c.Seq, c.Final = s.id, seq, final
		if final {
			c.End = cv.ns(f.h.end)
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
		if err := w.WriteChunk(&c); err != nil {
			return err
		}
		if final {
			return nil
		}
	}
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
			return p[:prev] // not a word the recorder writes
		}
		i += 1 + k
	}
	end := i
	if end > len(p) || (!whole && end > prev && p[prev]&opBit != 0) {
		end = prev
	}
	return slices.Clone(p[:end])
}
