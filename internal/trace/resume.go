package trace

import (
	"fmt"
	"io"
	"os"
)

// Resume opens the trace in f, whose recording died before writing the
// index, for the chunks a recovery adds (runtime/recover_linux.go): it
// reads the whole chunks, cuts off what follows them (a chunk cut short),
// and returns a writer that goes on after them; Next says where each
// goroutine's stream stands. A complete trace gives a nil writer.
func Resume(f *os.File) (*Writer, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, st.Size())
	if err != nil {
		return nil, err
	}
	if !r.truncated {
		return nil, nil
	}
	if err := f.Truncate(r.dataEnd); err != nil {
		return nil, fmt.Errorf("cutting the trace at its last whole chunk: %w", err)
	}
	if _, err := f.Seek(r.dataEnd, io.SeekStart); err != nil {
		return nil, err
	}
	w := &Writer{w: f, off: r.dataEnd, gs: map[uint64]*indexEntry{}, graphOf: r}
	for _, e := range r.gs {
		w.gs[e.ID] = e
		w.order = append(w.order, e.ID)
	}
	return w, nil
}

// Next returns the sequence number of goroutine g's next chunk, and
// whether its stream has ended.
func (w *Writer) Next(g uint64) (seq uint64, ended bool) {
	if e := w.gs[g]; e != nil {
		return e.nextSeq, e.Ended
	}
	return 0, false
}

// recovery completes the trace at a path from what its recording left
// beside it, if anything; nil when no package set one (SetRecovery).
var recovery func(path string) error

// SetRecovery makes Open complete a trace whose recording died through f
// first. The runtime package sets it: it alone knows the recorder's
// buffers, and a program that reads traces imports it to read traces of
// runs killed mid-way whole (cmd/divergo does).
func SetRecovery(f func(path string) error) { recovery = f }
