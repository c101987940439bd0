package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Origin says where a goroutine comes from. It travels in the goroutine's
// first chunk.
type Origin struct {
	GoID       uint64 // the Go runtime's goroutine id, for joining with runtime/trace
	Parent     uint64 // recorder id of the parent, 0 for main and for goroutines of unknown origin
	Site       uint32 // the graph's site of the go statement
	Ordinal    uint32 // 1 for the parent's first spawn at Site
	FirstBlock uint32 // first block the goroutine executed; valid when HasFirst
	HasFirst   bool
	Start      int64 // ns since the trace's start
	// Test is the name of the test the goroutine runs ("TestPool/size=4")
	// when testing started it to run a test or subtest: the goroutine is
	// then a root of its own. "" for other goroutines.
	Test string
	// Creator is the function that started a goroutine with no parent
	// (Parent 0) in code that is not instrumented, as the Go runtime names
	// it: "net/http.(*Server).Serve", "golang.org/x/sync/errgroup.(*Group).Go".
	// "" when it is not known (main, tests, traces before format version 5).
	Creator string
}

// Chunk is one length-prefixed piece of a goroutine's stream.
type Chunk struct {
	G      uint64 // recorder id, 1 for main
	Seq    uint64 // 0 for the goroutine's first chunk
	Origin Origin // written when Seq is 0
	Final  bool   // the goroutine ended: End is valid
	End    int64
	Result TestResult // a test's root goroutine, in its final chunk: how the test ended
	Events uint64     // events in Body
	Blocks uint64     // block executions in Body: EvBlock events and the codes of EvPack events
	Waits  uint64     // EvSync events in Body that waited
	Body   []byte     // events, each encoded by AppendEvent

	// Frame, when set, is Body with room before it: Body is the tail of
	// Frame and at least ChunkHeadroom bytes precede it. Writer.WriteChunk
	// then puts the chunk's tag, length and header in that room and writes
	// Frame's tail as it is, instead of copying Body after a header.
	Frame []byte
}

// ChunkHeadroom is the room a Frame keeps before Body: the most a chunk's
// tag, length and header can take (1 + 10 + 10 + 10 + 1 + 45 + 10 + 30).
const ChunkHeadroom = 128

// framed returns the room before c.Body in c.Frame, or nil when c has no
// usable frame.
func (c *Chunk) framed() []byte {
	room := len(c.Frame) - len(c.Body)
	if room < ChunkHeadroom || len(c.Body) == 0 || &c.Frame[room] != &c.Body[0] {
		return nil
	}
	return c.Frame[:room]
}

// Add appends e to c.Body, keeping the counts.
func (c *Chunk) Add(e Event) {
	c.Body = AppendEvent(c.Body, e)
	c.Events++
	switch {
	case e.Kind == EvBlock:
		c.Blocks++
	case e.Kind == EvPack:
		c.Blocks += e.Object * (uint64(e.Ordinal) + 1)
	case e.Kind == EvSync && e.Waited:
		c.Waits++
	}
}

// appendChunk appends the complete encoding of c (tag, length, body).
func appendChunk(dst []byte, c *Chunk) []byte {
	return append(appendChunkHead(dst, c), c.Body...)
}

// appendChunkHead appends c's encoding up to its body: tag, length and
// header.
func appendChunkHead(dst []byte, c *Chunk) []byte {
	var hb [ChunkHeadroom]byte
	h := hb[:0]
	h = binary.AppendUvarint(h, c.G)
	h = binary.AppendUvarint(h, c.Seq)
	var flags byte
	if c.Final {
		flags |= chunkFinal
	}
	if c.Seq == 0 && c.Origin.Test != "" {
		flags |= chunkTest
	}
	if c.Seq == 0 && c.Origin.Creator != "" {
		flags |= chunkCreator
	}
	if c.Final && c.Result != 0 {
		flags |= chunkResult
	}
	h = append(h, flags)
	if c.Seq == 0 {
		o := c.Origin
		h = binary.AppendUvarint(h, o.GoID)
		h = binary.AppendUvarint(h, o.Parent)
		h = binary.AppendUvarint(h, uint64(o.Site))
		h = binary.AppendUvarint(h, uint64(o.Ordinal))
		first := uint64(0)
		if o.HasFirst {
			first = uint64(o.FirstBlock) + 1
		}
		h = binary.AppendUvarint(h, first)
		h = binary.AppendVarint(h, o.Start)
		h = appendName(h, o.Test)
		h = appendName(h, o.Creator)
	}
	if c.Final {
		h = binary.AppendVarint(h, c.End)
		if c.Result != 0 {
			h = append(h, byte(c.Result))
		}
	}
	h = binary.AppendUvarint(h, c.Events)
	h = binary.AppendUvarint(h, c.Blocks)
	h = binary.AppendUvarint(h, c.Waits)
	dst = append(dst, tagChunk)
	dst = binary.AppendUvarint(dst, uint64(len(h)+len(c.Body)))
	return append(dst, h...)
}

// parseChunkBody decodes a chunk body (after tag and length). Body aliases b.
func parseChunkBody(b []byte) (*Chunk, error) {
	d := decoder{b: b}
	c := &Chunk{G: d.uvarint(), Seq: d.uvarint()}
	flags := d.byte()
	if d.err == nil && flags&^(chunkFinal|chunkTest|chunkResult|chunkCreator) != 0 {
		return nil, fmt.Errorf("unknown chunk flags %#x", flags)
	}
	c.Final = flags&chunkFinal != 0
	if d.err == nil && ((flags&chunkTest != 0 || flags&chunkCreator != 0) && c.Seq != 0 || flags&chunkResult != 0 && !c.Final) {
		return nil, fmt.Errorf("chunk flags %#x on chunk %d", flags, c.Seq)
	}
	if c.Seq == 0 {
		o := &c.Origin
		o.GoID = d.uvarint()
		o.Parent = d.uvarint()
		o.Site = d.uint32()
		o.Ordinal = d.uint32()
		first := d.uvarint()
		if first > 1<<32 && d.err == nil {
			return nil, fmt.Errorf("first block %d out of range", first-1)
		}
		if first > 0 {
			o.FirstBlock, o.HasFirst = uint32(first-1), true
		}
		o.Start = d.varint()
		if flags&chunkTest != 0 {
			o.Test = string(d.bytes(maxNameBytes, "test name"))
		}
		if flags&chunkCreator != 0 {
			o.Creator = string(d.bytes(maxNameBytes, "creator"))
		}
	}
	if c.Final {
		c.End = d.varint()
		if flags&chunkResult != 0 {
			c.Result = TestResult(d.byte())
			if d.err == nil && !c.Result.valid() {
				return nil, fmt.Errorf("unknown test result %d", c.Result)
			}
		}
	}
	c.Events = d.uvarint()
	c.Blocks = d.uvarint()
	c.Waits = d.uvarint()
	if d.err != nil {
		return nil, fmt.Errorf("chunk header: %w", d.err)
	}
	if c.G == 0 {
		return nil, errors.New("chunk of goroutine 0")
	}
	c.Body = d.rest()
	// Every event takes at least one byte: a count above the body length
	// is corrupt, and bounding it here bounds what iterators promise.
	if c.Events > uint64(len(c.Body)) || c.Waits > c.Events {
		return nil, fmt.Errorf("chunk counts %d events, %d blocks, %d waits in %d bytes", c.Events, c.Blocks, c.Waits, len(c.Body))
	}
	return c, nil
}

// appendName appends a name of the origin (a test's, a creator's), at most
// maxNameBytes of it, when it is not empty.
func appendName(h []byte, name string) []byte {
	if name == "" {
		return h
	}
	name = name[:min(len(name), maxNameBytes)]
	h = binary.AppendUvarint(h, uint64(len(name)))
	return append(h, name...)
}
