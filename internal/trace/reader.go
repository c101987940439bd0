package trace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"sync/atomic"
	"time"

	"github.com/divergo/divergo/internal/tbb"
)

// Reader reads a trace file. Its methods may be called from several
// goroutines at once; each [EventIter] belongs to one goroutine.
type Reader struct {
	ra     io.ReaderAt
	size   int64
	closer io.Closer

	version int
	program string
	start   time.Time
	// perturbed and seed: the run's DIVERGO_PERTURB (header).
	perturbed bool
	seed      int64
	inputs    *Inputs // nil when the header has none
	graph     *tbb.Graph
	// siteBlock maps a site to the block holding it, so that events keep
	// Block meaning the block while the file names the site.
	siteBlock []uint32
	// nblocks is the graph's number of blocks: an event at a block from
	// there on is refused.
	nblocks uint32
	// packs are the graph's packed loops, by head (pack.go).
	packs map[uint32]packLoop

	ending    Ending // what the index says (version 7)
	dataStart int64  // offset of the first chunk
	dataEnd   int64  // end of the last whole chunk (the index offset in a complete file)
	truncated bool

	gs   []*indexEntry // in order of first chunk
	byID map[uint64]*indexEntry

	read atomic.Int64 // bytes read so far, for progress reports
}

// Open opens the trace file at path, completing it first if its recording
// died and left what it had not written beside it (SetRecovery). Errors
// name the path and where in the file the problem is.
func Open(path string) (*Reader, error) {
	// Refused before recovery looks beside it: a FIFO would block.
	if err := CheckRegular(path); err != nil {
		return nil, err
	}
	if recovery != nil {
		if err := recovery(path); err != nil {
			return nil, err
		}
	}
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.closer = f
	return r, nil
}

// NewReader reads the trace held by ra, size bytes long.
func NewReader(ra io.ReaderAt, size int64) (*Reader, error) {
	r := &Reader{ra: ra, size: size, byID: map[uint64]*indexEntry{}}
	if err := r.readHeader(); err != nil {
		return nil, err
	}
	ok, err := r.readIndex()
	if err != nil {
		return nil, err
	}
	if !ok {
		r.truncated = true
		if err := r.scan(); err != nil {
			return nil, err
		}
	}
	if err := r.checkSites(); err != nil {
		return nil, err
	}
	r.namePaths()
	return r, nil
}

// checkSites checks that every goroutine started by a go statement names a
// site of the graph, and sets the block holding it, and that the first
// block a goroutine's index names is one of the graph's.
func (r *Reader) checkSites() error {
	for _, e := range r.gs {
		if e.Parent != 0 {
			if int64(e.Site) >= int64(len(r.siteBlock)) {
				return fmt.Errorf("goroutine %d: spawn site %d out of range (the graph has %d sites)", e.ID, e.Site, len(r.siteBlock))
			}
			e.SiteBlock = r.siteBlock[e.Site]
		}
		if e.HasFirst && e.FirstBlock >= r.nblocks {
			return fmt.Errorf("goroutine %d: first block %d is not in the graph (%d blocks)", e.ID, e.FirstBlock, r.nblocks)
		}
	}
	return nil
}

// Close closes the file opened by Open.
func (r *Reader) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Graph returns the TBB graph embedded in the trace.
func (r *Reader) Graph() *tbb.Graph { return r.graph }

// Program returns the name of the program that wrote the trace.
func (r *Reader) Program() string { return r.program }

// Start returns the wall time at which recording started: time 0 of every
// timestamp in the trace.
func (r *Reader) Start() time.Time { return r.start }

// Perturbed reports whether the run was perturbed (DIVERGO_PERTURB) and
// with which seed.
func (r *Reader) Perturbed() (seed int64, ok bool) { return r.seed, r.perturbed }

// Inputs returns what the program ran on (its command line, GOMAXPROCS,
// NumCPU, its environment), or false when the trace does not say: it was
// written before inputs were recorded.
func (r *Reader) Inputs() (Inputs, bool) {
	if r.inputs == nil {
		return Inputs{}, false
	}
	return *r.inputs, true
}

// Version returns the format version of the file.
func (r *Reader) Version() int { return r.version }

// Truncated reports that the file had no index: the program did not finish
// writing it, and the reader recovered every whole chunk before the cut.
func (r *Reader) Truncated() bool { return r.truncated }

// Goroutines returns every goroutine that wrote at least one chunk, in the
// order their first chunks were written.
func (r *Reader) Goroutines() []GoroutineInfo {
	out := make([]GoroutineInfo, len(r.gs))
	for i, e := range r.gs {
		out[i] = e.GoroutineInfo
	}
	return out
}

// Goroutine returns the goroutine with recorder id id.
func (r *Reader) Goroutine(id uint64) (GoroutineInfo, bool) {
	e, ok := r.byID[id]
	if !ok {
		return GoroutineInfo{}, false
	}
	return e.GoroutineInfo, true
}

// Size is the size of the trace in bytes.
func (r *Reader) Size() int64 { return r.size }

// BytesRead is how many bytes the reader and its event iterators have read
// so far. Commands use it to show progress; it may exceed Size when a
// goroutine's events are read more than once.
func (r *Reader) BytesRead() int64 { return r.read.Load() }

// readAt reads exactly len(b) bytes at off, or says the file is cut short.
func (r *Reader) readAt(b []byte, off int64) error {
	err := r.readAtUncounted(b, off)
	if err == nil {
		r.read.Add(int64(len(b)))
	}
	return err
}

// readAtUncounted is readAt for callers that count in BytesRead only what
// they use.
func (r *Reader) readAtUncounted(b []byte, off int64) error {
	n, err := r.ra.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// prefix reads up to n bytes at off, fewer at the end of the file.
func (r *Reader) prefix(off int64, n int) ([]byte, error) {
	if rest := r.size - off; rest < int64(n) {
		n = int(max(rest, 0))
	}
	b := make([]byte, n)
	if err := r.readAt(b, off); err != nil {
		return nil, err
	}
	return b, nil
}

func (r *Reader) readHeader() error {
	if r.size == 0 {
		return errors.New("empty file, not a trace")
	}
	b, err := r.prefix(0, len(Magic)+2*binary.MaxVarintLen64)
	if err != nil {
		return fmt.Errorf("reading trace header: %w", err)
	}
	if !bytes.HasPrefix(b, []byte(Magic)) {
		if len(b) < len(Magic) && bytes.HasPrefix([]byte(Magic), b) {
			return fmt.Errorf("reading trace header: cut short after %d bytes", len(b))
		}
		return errors.New("not a divergo trace (no DVGTRACE magic at offset 0)")
	}
	d := decoder{b: b, off: len(Magic)}
	version := d.uvarint()
	if d.err != nil {
		return fmt.Errorf("reading format version: cut short after %d bytes", len(b))
	}
	if version > Version {
		return fmt.Errorf("format version %d is newer than this divergo reads (%d); upgrade divergo", version, Version)
	}
	if version < 1 {
		return fmt.Errorf("format version %d is not valid", version)
	}
	if version < oldestVersion {
		return fmt.Errorf("format version %d is older than this divergo reads (%d): record the run again", version, oldestVersion)
	}
	r.version = int(version)
	n := d.uvarint()
	if d.err != nil {
		return fmt.Errorf("reading header length: cut short after %d bytes", len(b))
	}
	if n > maxHeaderBytes {
		return fmt.Errorf("header is %d bytes, more than the %d allowed", n, maxHeaderBytes)
	}
	if int64(n) > r.size-int64(d.off) {
		return fmt.Errorf("reading trace header: %d bytes announced, file cut short at %d", n, r.size)
	}
	body := make([]byte, n)
	if err := r.readAt(body, int64(d.off)); err != nil {
		return fmt.Errorf("reading trace header: %w", err)
	}
	r.dataStart = int64(d.off) + int64(n)
	hd := decoder{b: body}
	prog := hd.bytes(maxNameBytes, "program name")
	start := hd.varint()
	hash := hd.bytes(128, "graph hash")
	graph := hd.bytes(len(body), "graph")
	if hd.err != nil {
		return fmt.Errorf("reading trace header: %w", hd.err)
	}
	// Fields added at the end of the header; a header without them is a
	// run that was not perturbed.
	if len(hd.rest()) > 0 {
		flags := hd.uvarint()
		seed := hd.varint()
		if hd.err != nil {
			return fmt.Errorf("reading trace header's perturbation seed: %w", hd.err)
		}
		r.perturbed, r.seed = flags&headerPerturbed != 0, seed
	}
	if len(hd.rest()) > 0 {
		in, err := readInputs(&hd)
		if err != nil {
			return fmt.Errorf("reading trace header's inputs: %w", err)
		}
		r.inputs = in
	}
	r.program = string(prog)
	r.start = time.Unix(0, start)
	rg, err := decodeGraph(graph)
	if err != nil {
		return fmt.Errorf("reading embedded graph: %w", err)
	}
	if rg.g.Hash != string(hash) {
		return fmt.Errorf("header names graph hash %q but the embedded graph is %q", hash, rg.g.Hash)
	}
	r.graph, r.packs, r.siteBlock = rg.g, rg.packs, rg.siteBlock
	r.nblocks = uint32(min(len(rg.g.Blocks), math.MaxUint32))
	return nil
}

// readIndex reads the trailer and the index. It reports false, without an
// error, when the file has no trailer: the run was cut short.
func (r *Reader) readIndex() (bool, error) {
	if r.size-r.dataStart < int64(trailerSize) {
		return false, nil
	}
	t := make([]byte, trailerSize)
	if err := r.readAt(t, r.size-int64(trailerSize)); err != nil {
		return false, fmt.Errorf("reading trailer: %w", err)
	}
	if string(t[8:]) != trailerMagic {
		return false, nil
	}
	end := r.size - int64(trailerSize)
	off := int64(binary.LittleEndian.Uint64(t))
	if off < r.dataStart || off >= end {
		return false, fmt.Errorf("trailer points to index at offset %d, outside [%d, %d)", off, r.dataStart, end)
	}
	b, err := r.prefix(off, 1+binary.MaxVarintLen64)
	if err != nil {
		return false, fmt.Errorf("reading index at offset %d: %w", off, err)
	}
	if b[0] != tagIndex {
		return false, fmt.Errorf("reading index at offset %d: tag %#x, want %#x", off, b[0], tagIndex)
	}
	d := decoder{b: b, off: 1}
	n := d.uvarint()
	if d.err != nil {
		return false, fmt.Errorf("reading index length at offset %d: %w", off, d.err)
	}
	if n > maxIndexBytes || int64(n) != end-off-int64(d.off) {
		return false, fmt.Errorf("index at offset %d announces %d bytes, %d are there", off, n, end-off-int64(d.off))
	}
	body := make([]byte, n)
	if err := r.readAt(body, off+int64(d.off)); err != nil {
		return false, fmt.Errorf("reading index at offset %d: %w", off, err)
	}
	gs, rest, err := parseIndex(body, r.dataStart, off)
	if err != nil {
		return false, fmt.Errorf("reading index at offset %d: %w", off, err)
	}
	if r.version >= 7 {
		// Version 7 ends the index with the run's ending; earlier
		// versions' readers ignore what follows the entries.
		if r.ending, err = parseEnding(rest); err != nil {
			return false, fmt.Errorf("reading index at offset %d: %w", off, err)
		}
	}
	r.dataEnd = off
	for _, e := range gs {
		r.gs = append(r.gs, e)
		r.byID[e.ID] = e
	}
	return true, nil
}

// scan recovers the index of a file without one by reading every whole
// chunk from the start, one at a time.
func (r *Reader) scan() error {
	off := r.dataStart
	var buf []byte
	for off < r.size {
		c, n, err := r.readChunk(off, &buf)
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, errIndexTag) {
			break // the cut: everything before it is whole
		}
		if err != nil {
			return err
		}
		e := r.byID[c.G]
		switch {
		case e == nil && c.Seq != 0:
			return fmt.Errorf("chunk at offset %d: goroutine %d starts with chunk %d", off, c.G, c.Seq)
		case e != nil && (c.Seq != e.nextSeq || e.Ended):
			return fmt.Errorf("chunk at offset %d: goroutine %d chunk %d out of sequence (want %d)", off, c.G, c.Seq, e.nextSeq)
		}
		if e == nil {
			e = &indexEntry{}
			e.ID = c.G
			r.byID[c.G] = e
			r.gs = append(r.gs, e)
		}
		e.add(c, off)
		off += n
	}
	r.dataEnd = off
	return nil
}

var errIndexTag = errors.New("index tag")

// readChunk reads the whole chunk at off into *buf and returns it with its
// encoded size. A chunk running past the end of the file gives
// io.ErrUnexpectedEOF.
func (r *Reader) readChunk(off int64, buf *[]byte) (*Chunk, int64, error) {
	body, total, err := r.readChunkBytes(off, buf)
	if err != nil {
		return nil, 0, err
	}
	c, err := parseChunkBody(body)
	if err != nil {
		return nil, 0, fmt.Errorf("chunk at offset %d: %w", off, err)
	}
	return c, total, nil
}

// readChunkBytes reads the chunk at off into *buf and returns its body
// (after tag and length) and its encoded size. A buffer that already holds
// a chunk (an iterator's previous one) takes the tag, the length and the
// body of a chunk no longer than it in one read; otherwise the length comes
// first and the buffer grows to exactly the chunk, so that what the reader
// allocates follows what the file holds. Only the chunk's own bytes count
// in BytesRead.
func (r *Reader) readChunkBytes(off int64, buf *[]byte) ([]byte, int64, error) {
	const head = 1 + binary.MaxVarintLen64 // tag and length
	var b []byte
	if cap(*buf) > head {
		b = (*buf)[:cap(*buf)]
	} else {
		b = make([]byte, head)
	}
	n := min(int64(len(b)), r.size-off)
	if n <= 0 {
		return nil, 0, fmt.Errorf("reading chunk at offset %d: %w", off, io.ErrUnexpectedEOF)
	}
	b = b[:n]
	if err := r.readAtUncounted(b, off); err != nil {
		return nil, 0, fmt.Errorf("reading chunk at offset %d: %w", off, err)
	}
	if b[0] == tagIndex {
		return nil, 0, errIndexTag
	}
	if b[0] != tagChunk {
		return nil, 0, fmt.Errorf("reading chunk at offset %d: tag %#x, want %#x", off, b[0], tagChunk)
	}
	d := decoder{b: b[:min(len(b), head)], off: 1}
	size := d.uvarint()
	if errors.Is(d.err, errShort) {
		return nil, 0, io.ErrUnexpectedEOF
	}
	if d.err != nil {
		return nil, 0, fmt.Errorf("reading chunk length at offset %d: %w", off, d.err)
	}
	if size > maxChunkBytes {
		return nil, 0, fmt.Errorf("chunk at offset %d is %d bytes, more than the %d allowed", off, size, maxChunkBytes)
	}
	total := int64(d.off) + int64(size)
	if total > r.size-off {
		return nil, 0, io.ErrUnexpectedEOF
	}
	if total > n {
		// Longer than what was read, so longer than the buffer: grow it
		// to the chunk, keep what was read, read the rest.
		*buf = make([]byte, total)
		copy(*buf, b)
		b = *buf
		if err := r.readAtUncounted(b[n:], off+n); err != nil {
			return nil, 0, fmt.Errorf("reading chunk at offset %d: %w", off, err)
		}
	}
	r.read.Add(total)
	return b[d.off:total], total, nil
}

// Sorted returns the goroutines ordered by spawn path, for stable output:
// a parent before its children, and numbers in paths (lines, ordinals)
// compared as numbers, so that worker#2 comes before worker#10.
func (r *Reader) Sorted() []GoroutineInfo {
	gs := r.Goroutines()
	sort.SliceStable(gs, func(i, j int) bool { return PathLess(gs[i].Path, gs[j].Path) })
	return gs
}
