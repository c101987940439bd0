package runtime

import "github.com/divergo/divergo/internal/trace"

// Full buffers go to a writer goroutine, which encodes and writes them
// without holding sess.mu while the program's goroutines go on with empty
// buffers; only when the writer is behind does a goroutine encode and
// write its own (writeOwnLocked). An earlier design had every goroutine
// encode and write its own full buffers, because on the machine it was chosen on, a
// cache line written on one core and read on the other cost about 80 ns
// each way, and the writer's encoding of a buffer the producer then
// refilled made the switch loop, one word per iteration then, slower on two
// cores than on one. Since loops are packed, buffers fill up to 16 times
// more slowly, and handing every buffer over costs
// the producer less than encoding it, most of all where the other core has
// nothing else to do (PERFORMANCE.md, "The writer goroutine": calls 9.8x -> 7.2x the
// plain program, wordcount 1.23x -> 1.16x, and no slower pinned to one
// core).
//
// A G's floor, seq and jobs are written by whichever goroutine writes its
// chunk, so G pads its buffer and count away from them (recorder.go).
//
// Order: jobs are written in the order they were queued, one at a time, so
// a goroutine's chunks stay in sequence; a goroutine with jobs queued or in
// flight (g.jobs) queues its next full buffer too, even when the writer is
// behind and others write their own (writeOwnLocked). finish waits for the
// job in flight, writes the queued ones itself, and only then reads the live
// buffers: every word a goroutine recorded is in exactly one of a written
// chunk, a queued job or its current buffer (a buffer being encoded by its
// own goroutine is still its current buffer, and once finish has read it
// its goroutine writes nothing).
//
// The writer goroutine is started by the first full buffer (a program that
// never fills one never has it), then waits on sess.work until half the
// queue is full (wakeWords), or a checkpoint needs the queue written, and
// returns when the trace is complete. The program never sees it
// (hidden.go).

// job is a buffer waiting for the writer.
type job struct {
	g     *G
	words []uint32 // ends with the closing clock
	final bool
	end   int64
}

// maxQueued bounds the words waiting in jobs (8 full buffers, 1 MiB): a
// goroutine that fills buffers faster than they can be written waits for
// the writer rather than grow memory without end, and a run killed by
// SIGKILL or a fatal error loses at most this much more than its
// goroutines' current buffers.
const maxQueued = 8 * maxWords

// wakeWords is how many words must be queued before a full buffer wakes
// the writer goroutine, which goes on until the queue is empty. Waking it
// for every buffer cost the producer a futex call and both cores two
// context switches per buffer, more than encoding it (the switch loop of
// PERFORMANCE.md, "The writer goroutine": 1,600-2,000 context switches per run,
// 730-1,000 with this); half the queue leaves the writer the other half to
// wake up in before the producer waits for room. Full buffers wait longer in memory,
// never more than maxQueued words of them, as before.
const wakeWords = maxQueued / 2

// maxFree bounds the full-size buffers kept for reuse: as many as can be
// queued and in flight (queueLocked waits only once more than maxQueued
// words are queued), so that a goroutine filling buffers faster than the
// writer empties them reuses the same ones, run after run of the queue.
// With fewer, each time the writer caught up it unmapped the surplus and the
// next burst mapped it again, and a fresh buffer costs the producer a page
// fault per 4 KiB (the switch loop of PERFORMANCE.md, "The writer goroutine": 30-45
// unmaps and maps per run with 8, and a third of its CPU time).
const maxFree = maxQueued/maxWords + 2

// queueLocked hands g's words to the writer and gives g an empty buffer.
// sess.mu is held.
func (g *G) queueLocked(words []uint32, final bool, end int64) {
	for sess.queued > maxQueued && !sess.closed {
		sess.idle.Wait()
	}
	if sess.closed {
		g.n = 0
		return
	}
	sess.jobs = append(sess.jobs, job{g, words, final, end})
	sess.queued += len(words)
	g.jobs++
	g.fills++
	if a := sess.arena; a != nil {
		if h := a.hdrOf(words); h != nil {
			h.end, h.state = end, bufQueued
			if final {
				h.state = bufFinal
			}
		}
	}
	if !sess.writing {
		sess.writing = true
		go hiddenWriter()
	}
	if sess.queued >= wakeWords {
		sess.work.Signal()
	}
	if final {
		// The goroutine ended. Its buffer goes on to another goroutine (or
		// is unmapped, mem_linux.go) once written, so g must not write to
		// it again: g records nothing more, as after Done it would be
		// dropped anyway (writeChunk).
		g.setBuf(nil)
		g.off = true
	} else if k := len(sess.free); k > 0 && cap(g.buf) == maxWords && sess.arena == nil {
		g.setBuf(sess.free[k-1])
		sess.free = sess.free[:k-1]
	} else {
		g.setBuf(newWords(cap(g.buf), g.id, g.fills))
	}
}

// writeJobs is the writer goroutine.
func writeJobs() {
	f := bigFrame()
	c := trace.Chunk{Frame: f}
	defer dropFrame(f) // not c.Frame: if f is nil, encode allocates one on the heap
	sess.mu.Lock()
	defer sess.mu.Unlock()
	for !sess.closed {
		if len(sess.jobs) == 0 || sess.draining {
			sess.work.Wait()
			continue
		}
		j := sess.jobs[0]
		sess.jobs[0] = job{}
		sess.jobs = sess.jobs[1:]
		sess.inflight = true
		// Once the file is open the write needs no lock: finish and
		// drainLocked wait for the job in flight before they write, and
		// openTrace has nothing left to do. A goroutine handing over a full
		// buffer then does not wait for the write system call.
		open := sess.w != nil && !sess.failed
		sess.mu.Unlock()
		cv := newStampConv(j.g.floor)
		encode(j.words, &c, &cv)
		released := false
		if open {
			writeChunk(j.g, &c, j.words, j.final, j.end, &cv)
			released = releaseArena(j.words) // cleared outside the lock
		}
		sess.mu.Lock()
		sess.inflight = false
		sess.queued -= len(j.words)
		j.g.jobs--
		if !open {
			writeChunk(j.g, &c, j.words, j.final, j.end, &cv)
			released = releaseArena(j.words)
		}
		if j.final {
			releaseSlot(j.g)
		}
		if !released && cap(j.words) == maxWords {
			if len(sess.free) < maxFree {
				sess.free = append(sess.free, j.words[:maxWords-reserve])
			} else {
				dropWords(j.words)
			}
		}
		sess.idle.Broadcast()
	}
	sess.writing = false
	sess.idle.Broadcast()
}

// maxFrames bounds the frames kept for goroutines that encode their own
// buffers: one per goroutine encoding at the same time is enough.
const maxFrames = 4

// writeOwnLocked encodes and writes words, a full buffer of g that ends at
// the stamp end, on g's own goroutine when the writer goroutine is behind
// (half its queue full), and reports whether it did; g then goes on with
// the same buffer, empty. One writer encodes for every goroutine, and on a
// machine with more cores than it can keep up with, goroutines that fill
// buffers faster than it would wait for room; so a goroutine that would
// queue behind others' buffers encodes its own instead, and recording
// scales with the cores as it did when every goroutine wrote its own
// (PERFORMANCE.md, "The writer goroutine"). It declines while the file is not open and while g has
// chunks queued, which must be written first. sess.mu is held, and released
// while encoding.
func (g *G) writeOwnLocked(words []uint32, end int64) bool {
	if sess.queued < wakeWords || sess.w == nil || sess.failed || sess.closed || g.jobs > 0 {
		return false
	}
	var f []byte // a mapped frame (mem_linux.go), nil if none could be
	if k := len(sess.frames); k > 0 {
		f, sess.frames = sess.frames[k-1], sess.frames[:k-1]
	} else {
		f = bigFrame()
	}
	c := trace.Chunk{Frame: f}
	cv := newStampConv(g.floor) // g.floor is written under sess.mu
	sess.mu.Unlock()
	encode(words, &c, &cv)
	sess.mu.Lock()
	for sess.inflight { // the writer goroutine writes without the lock
		sess.idle.Wait()
	}
	// If finish ran meanwhile, it wrote these words from g's buffer and
	// closed the trace: writeChunk then writes nothing.
	writeChunk(g, &c, words, false, end, &cv)
	g.fills++
	if a := sess.arena; a != nil {
		if h := a.hdrOf(words); h != nil {
			clear(words) // the words, then the chunk they will be: see release
			h.seq = g.fills
		}
	}
	// Only f goes back: a frame encode had to allocate (f nil) is the
	// collector's, and must never reach dropFrame's munmap.
	switch {
	case f == nil:
	case len(sess.frames) < maxFrames:
		sess.frames = append(sess.frames, f[:0])
	default:
		dropFrame(f)
	}
	g.n = 0
	return true
}

// awaitWrittenLocked waits until the writer goroutine has written every
// queued job, waking it: below wakeWords it would not wake by itself.
// sess.mu is held.
func awaitWrittenLocked() {
	for (len(sess.jobs) > 0 || sess.inflight) && !sess.closed && !sess.failed {
		sess.work.Signal()
		sess.idle.Wait()
	}
}

// drainLocked waits for the job in flight and writes the queued ones, in
// order, on the caller's goroutine. sess.mu is held. The writer takes no
// job after the one in flight: goroutines that go on filling buffers would
// otherwise keep it busy, and the queue might never be found empty.
func drainLocked() {
	sess.draining = true
	for sess.inflight {
		sess.idle.Wait()
	}
	var c trace.Chunk
	for _, j := range sess.jobs {
		cv := newStampConv(j.g.floor)
		encode(j.words, &c, &cv)
		writeChunk(j.g, &c, j.words, j.final, j.end, &cv)
		j.g.jobs--
		if !releaseArena(j.words) && cap(j.words) == maxWords {
			dropWords(j.words)
		}
	}
	sess.jobs, sess.queued = nil, 0
	sess.idle.Broadcast()
}

// releaseSlot gives back the slot of a goroutine whose final chunk is
// written: it records nothing more (queueLocked turned it off), so nothing
// writes the slot again. sess.mu is held.
func releaseSlot(g *G) {
	if g.slotH != nil && sess.arena != nil {
		sess.arena.release(g.slotH)
		g.slotH = nil
	}
}
