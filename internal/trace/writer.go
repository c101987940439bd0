package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"
)

// Header is what a trace says about the run before its first chunk.
type Header struct {
	Program string    // the program's name (base name of os.Args[0])
	Start   time.Time // wall time of the trace's start (time 0 of every timestamp)
	Graph   []byte    // tbb.Marshal output
	Hash    string    // the graph's hash, tbb.Graph.Hash
	// Perturbed says the run perturbed its schedule (DIVERGO_PERTURB),
	// with Seed.
	Perturbed bool
	Seed      int64
	// Inputs is what the program ran on; nil when not recorded (traces
	// written before inputs were, and synthetic ones).
	Inputs *Inputs
}

// Writer writes a trace: the header at once, each chunk in one Write call
// (so that a killed program leaves whole chunks), the index at Close. It is
// not safe for concurrent use: the runtime holds a mutex around it.
type Writer struct {
	w       io.Writer
	off     int64
	gs      map[uint64]*indexEntry
	order   []uint64 // goroutines in order of first chunk
	scratch []byte
	closed  bool
	// tentative is set while chunks written by WriteTentative end the
	// file: the next WriteChunk or Close cuts them off first.
	tentative bool
	// graphOf is the trace a Resume writer goes on: what CheckChunk
	// checks against. nil for a new trace.
	graphOf *Reader
	ending  Ending // written with the index (SetEnding)
}

// NewWriter writes h to w and returns a writer for the chunks.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	if len(h.Program) > maxNameBytes {
		h.Program = h.Program[:maxNameBytes]
	}
	var body []byte
	body = binary.AppendUvarint(body, uint64(len(h.Program)))
	body = append(body, h.Program...)
	body = binary.AppendVarint(body, h.Start.UnixNano())
	body = binary.AppendUvarint(body, uint64(len(h.Hash)))
	body = append(body, h.Hash...)
	body = binary.AppendUvarint(body, uint64(len(h.Graph)))
	body = append(body, h.Graph...)
	var flags uint64
	if h.Perturbed {
		flags |= headerPerturbed
	}
	body = binary.AppendUvarint(body, flags)
	body = binary.AppendVarint(body, h.Seed)
	if h.Inputs != nil {
		body = appendInputs(body, h.Inputs)
	}
	if len(body) > maxHeaderBytes {
		return nil, fmt.Errorf("writing trace header: graph of %d bytes is too large", len(h.Graph))
	}
	buf := []byte(Magic)
	buf = binary.AppendUvarint(buf, Version)
	buf = binary.AppendUvarint(buf, uint64(len(body)))
	buf = append(buf, body...)
	if _, err := w.Write(buf); err != nil {
		return nil, fmt.Errorf("writing trace header: %w", err)
	}
	return &Writer{w: w, off: int64(len(buf)), gs: map[uint64]*indexEntry{}}, nil
}

// WriteChunk appends c to the file in one Write call. Chunks of one
// goroutine must come in sequence order, starting at 0.
func (w *Writer) WriteChunk(c *Chunk) error {
	if w.closed {
		return errors.New("writing chunk: trace is closed")
	}
	if err := w.cutTentative(); err != nil {
		return err
	}
	e := w.gs[c.G]
	switch {
	case e == nil && c.Seq != 0:
		return fmt.Errorf("writing chunk %d of goroutine %d: its first chunk was not written", c.Seq, c.G)
	case e != nil && c.Seq != e.nextSeq:
		return fmt.Errorf("writing chunk %d of goroutine %d: want chunk %d", c.Seq, c.G, e.nextSeq)
	case e != nil && e.Ended:
		return fmt.Errorf("writing chunk %d of goroutine %d: goroutine already ended", c.Seq, c.G)
	}
	// One Write call either way; a framed chunk takes its header in the
	// room before its body, so that the body (the bulk of the trace) is
	// not copied once more on its way to the file.
	w.scratch = appendChunkHead(w.scratch[:0], c)
	out := w.scratch
	if room := c.framed(); room != nil && len(w.scratch) <= len(room) {
		out = c.Frame[len(room)-len(w.scratch):]
		copy(out, w.scratch)
	} else {
		out = append(out, c.Body...)
		w.scratch = out
	}
	if len(out) > maxChunkBytes {
		return fmt.Errorf("writing chunk %d of goroutine %d: %d bytes is more than the %d allowed", c.Seq, c.G, len(out), maxChunkBytes)
	}
	if _, err := w.w.Write(out); err != nil {
		return fmt.Errorf("writing chunk %d of goroutine %d: %w", c.Seq, c.G, err)
	}
	if e == nil {
		e = &indexEntry{}
		e.ID = c.G
		w.gs[c.G] = e
		w.order = append(w.order, c.G)
	}
	e.add(c, w.off)
	w.off += int64(len(out))
	return nil
}

// Close writes the index and the trailer. It does not close the underlying
// writer.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if err := w.cutTentative(); err != nil {
		return err
	}
	var body []byte
	body = binary.AppendUvarint(body, uint64(len(w.order)))
	for _, id := range w.order {
		body = w.gs[id].append(body)
	}
	body = appendEnding(body, w.ending)
	buf := []byte{tagIndex}
	buf = binary.AppendUvarint(buf, uint64(len(body)))
	buf = append(buf, body...)
	buf = binary.LittleEndian.AppendUint64(buf, uint64(w.off))
	buf = append(buf, trailerMagic...)
	if _, err := w.w.Write(buf); err != nil {
		return fmt.Errorf("writing trace index: %w", err)
	}
	return nil
}

// truncater is what WriteTentative needs of the file: *os.File has it.
type truncater interface {
	io.Seeker
	Truncate(size int64) error
}

// WriteTentative writes chunks that stand for goroutines' streams as they
// are now, in one Write call, without entering them in the index: the next
// WriteChunk or Close cuts them off again, so that they never reach a
// complete trace. A run that dies before (a fatal error, such as Go's
// report of a deadlock) leaves them as the last chunks of a truncated
// trace, where the reader takes them like any others. Each chunk must be
// the next of its goroutine, as for WriteChunk; the writer must also be a
// file that can be truncated (*os.File).
func (w *Writer) WriteTentative(cs []*Chunk) error {
	if w.closed {
		return errors.New("writing tentative chunks: trace is closed")
	}
	if _, ok := w.w.(truncater); !ok {
		return errors.New("writing tentative chunks: the trace cannot be truncated")
	}
	var out []byte
	for _, c := range cs {
		e := w.gs[c.G]
		switch {
		case e == nil && c.Seq != 0, e != nil && c.Seq != e.nextSeq:
			return fmt.Errorf("writing tentative chunk %d of goroutine %d: out of sequence", c.Seq, c.G)
		case e != nil && e.Ended:
			return fmt.Errorf("writing tentative chunk %d of goroutine %d: goroutine already ended", c.Seq, c.G)
		}
		k := len(out)
		out = appendChunkHead(out, c)
		out = append(out, c.Body...)
		if len(out)-k > maxChunkBytes {
			return fmt.Errorf("writing tentative chunk %d of goroutine %d: more than %d bytes", c.Seq, c.G, maxChunkBytes)
		}
	}
	if err := w.cutTentative(); err != nil {
		return err
	}
	if len(out) == 0 {
		return nil
	}
	w.tentative = true // even if the write fails half-way: cut what reached the file
	if _, err := w.w.Write(out); err != nil {
		return fmt.Errorf("writing tentative chunks: %w", err)
	}
	return nil
}

// DropTentative removes the chunks of the last WriteTentative from the end
// of the file, when they no longer stand for the goroutines' streams.
func (w *Writer) DropTentative() error { return w.cutTentative() }

// cutTentative removes the chunks of the last WriteTentative from the end
// of the file.
func (w *Writer) cutTentative() error {
	if !w.tentative {
		return nil
	}
	t := w.w.(truncater)
	if err := t.Truncate(w.off); err != nil {
		return fmt.Errorf("removing tentative chunks: %w", err)
	}
	if _, err := t.Seek(w.off, io.SeekStart); err != nil {
		return fmt.Errorf("removing tentative chunks: %w", err)
	}
	w.tentative = false
	return nil
}
