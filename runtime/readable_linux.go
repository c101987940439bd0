//go:build linux

package runtime

import (
	"os"

	"github.com/divergo/divergo/internal/trace"
)

// readability is what a recovery must keep of a trace file
// (recover_linux.go): that it opens, and each goroutine's stream with at
// least its chunks and events.
type readability struct {
	opens    bool // the header and the index (or the chunks' scan) read
	complete bool // it has its index
	gs       map[uint64]stream
}

// stream is what the index (or the scan) says of a goroutine's stream.
type stream struct {
	chunks int
	events uint64
}

// readabilityOf reads the trace at path, its header and its index or
// every chunk's header, without completing it first (trace.Open would).
// An error is the file system's.
func readabilityOf(path string) (readability, error) {
	r, f, err := openRaw(path)
	if err != nil || r == nil {
		return readability{}, err
	}
	defer f.Close()
	rd := readability{opens: true, complete: !r.Truncated(), gs: map[uint64]stream{}}
	for _, gi := range r.Goroutines() {
		rd.gs[gi.ID] = stream{gi.Chunks, gi.Events}
	}
	return rd, nil
}

// openRaw opens the trace at path without completing it; a nil reader
// when it does not read.
func openRaw(path string) (*trace.Reader, *os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	r, err := trace.NewReader(f, st.Size())
	if err != nil {
		f.Close()
		return nil, nil, nil
	}
	return r, f, nil
}

// readsAtLeast reports whether the completed trace at path reads at least
// as before did: it opens, every stream before has at least its chunks
// and events, and every stream the recovery added to (or added) reads to
// its end as every command reads it (trace.Reader.CheckStream). The
// streams it did not touch are the bytes they were: recovery only appends
// after the last whole chunk.
func readsAtLeast(path string, before readability) (bool, error) {
	r, f, err := openRaw(path)
	if err != nil || r == nil {
		return false, err
	}
	defer f.Close()
	after := map[uint64]trace.GoroutineInfo{}
	for _, gi := range r.Goroutines() {
		after[gi.ID] = gi
	}
	for id, s := range before.gs {
		if gi, ok := after[id]; !ok || gi.Chunks < s.chunks || gi.Events < s.events {
			return false, nil
		}
	}
	for id, gi := range after {
		if s, ok := before.gs[id]; ok && s.chunks == gi.Chunks {
			continue
		}
		if _, err := r.CheckStream(id); err != nil {
			return false, nil
		}
	}
	return true, nil
}
