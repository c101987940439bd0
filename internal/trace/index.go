package trace

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
)

// GoroutineInfo summarizes one goroutine of a trace.
type GoroutineInfo struct {
	ID         uint64 // recorder id: 1 is main
	GoID       uint64 // the Go runtime's goroutine id
	Parent     uint64 // recorder id of the parent; 0 for main and unknown origins
	Site       uint32 // the graph's site of the go statement that started it (when Parent is not 0)
	SiteBlock  uint32 // the block holding that go statement (set by the reader)
	Ordinal    uint32 // among the parent's spawns at Site, from 1
	FirstBlock uint32 // first block executed, when HasFirst
	HasFirst   bool
	Path       string     // spawn path: "main", "main/worker@pool.go:23#3", "TestPool/size=4 > worker@pool.go:23#3"
	Test       string     // the test a test's root goroutine runs, "" for others (Origin.Test)
	Creator    string     // the function that started a goroutine of no parent, when known (Origin.Creator)
	Result     TestResult // how that test ended, when its goroutine ended; 0 when unknown
	Events     uint64     // events recorded
	Blocks     uint64     // block executions recorded
	Waits      uint64     // sync operations that really waited
	Start      int64      // ns since the trace's start
	End        int64      // valid when Ended
	Ended      bool       // the goroutine's last chunk was written
	Chunks     int
}

// ByID is a copy of gs in recorder-id order: the order the merges of
// Releasers and replay.Timeline break ties in.
func ByID(gs []GoroutineInfo) []GoroutineInfo {
	out := slices.Clone(gs)
	slices.SortFunc(out, func(x, y GoroutineInfo) int { return cmp.Compare(x.ID, y.ID) })
	return out
}

// indexEntry is a goroutine as the writer and the reader keep it.
type indexEntry struct {
	GoroutineInfo
	offsets []int64 // file offsets of the chunks, in sequence order
	nextSeq uint64
}

// add accounts for chunk c written at offset off.
func (e *indexEntry) add(c *Chunk, off int64) {
	if c.Seq == 0 {
		o := c.Origin
		e.GoID, e.Parent, e.Site, e.Ordinal = o.GoID, o.Parent, o.Site, o.Ordinal
		e.FirstBlock, e.HasFirst, e.Start = o.FirstBlock, o.HasFirst, o.Start
		e.Test, e.Creator = o.Test, o.Creator
	}
	e.Events += c.Events
	e.Blocks += c.Blocks
	e.Waits += c.Waits
	if c.Final {
		e.Ended, e.End, e.Result = true, c.End, c.Result
	}
	e.offsets = append(e.offsets, off)
	e.Chunks = len(e.offsets)
	e.nextSeq = c.Seq + 1
}

func (e *indexEntry) append(b []byte) []byte {
	b = binary.AppendUvarint(b, e.ID)
	b = binary.AppendUvarint(b, e.GoID)
	b = binary.AppendUvarint(b, e.Parent)
	b = binary.AppendUvarint(b, uint64(e.Site))
	b = binary.AppendUvarint(b, uint64(e.Ordinal))
	first := uint64(0)
	if e.HasFirst {
		first = uint64(e.FirstBlock) + 1
	}
	b = binary.AppendUvarint(b, first)
	b = binary.AppendVarint(b, e.Start)
	var flags byte
	if e.Ended {
		flags |= indexEnded
	}
	if e.Test != "" {
		flags |= indexTest
	}
	if e.Result != 0 {
		flags |= indexResult
	}
	if e.Creator != "" {
		flags |= indexCreator
	}
	b = append(b, flags)
	b = binary.AppendVarint(b, e.End)
	b = appendName(b, e.Test)
	b = appendName(b, e.Creator)
	if e.Result != 0 {
		b = append(b, byte(e.Result))
	}
	b = binary.AppendUvarint(b, e.Events)
	b = binary.AppendUvarint(b, e.Blocks)
	b = binary.AppendUvarint(b, e.Waits)
	b = binary.AppendUvarint(b, uint64(len(e.offsets)))
	prev := int64(0)
	for _, off := range e.offsets {
		b = binary.AppendUvarint(b, uint64(off-prev))
		prev = off
	}
	return b
}

// parseIndex decodes an index body. Chunk offsets must lie in [lo, hi).
func parseIndex(b []byte, lo, hi int64) ([]*indexEntry, []byte, error) {
	d := decoder{b: b}
	n := d.uvarint()
	// Each entry takes at least 14 bytes: bound n before allocating.
	if d.err == nil && n > uint64(len(b))/14 {
		return nil, nil, fmt.Errorf("index claims %d goroutines in %d bytes", n, len(b))
	}
	out := make([]*indexEntry, 0, n)
	seen := make(map[uint64]bool, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		e := &indexEntry{}
		e.ID = d.uvarint()
		e.GoID = d.uvarint()
		e.Parent = d.uvarint()
		e.Site = d.uint32()
		e.Ordinal = d.uint32()
		first := d.uvarint()
		if first > 1<<32 && d.err == nil {
			return nil, nil, fmt.Errorf("index entry %d: first block %d out of range", i, first-1)
		}
		if first > 0 {
			e.FirstBlock, e.HasFirst = uint32(first-1), true
		}
		e.Start = d.varint()
		flags := d.byte()
		if d.err == nil && flags&^(indexEnded|indexTest|indexResult|indexCreator) != 0 {
			return nil, nil, fmt.Errorf("index entry %d: unknown flags %#x", i, flags)
		}
		e.Ended = flags&indexEnded != 0
		e.End = d.varint()
		if flags&indexTest != 0 {
			e.Test = string(d.bytes(maxNameBytes, "test name"))
		}
		if flags&indexCreator != 0 {
			e.Creator = string(d.bytes(maxNameBytes, "creator"))
		}
		if flags&indexResult != 0 {
			e.Result = TestResult(d.byte())
			if d.err == nil && !e.Result.valid() {
				return nil, nil, fmt.Errorf("index entry %d: unknown test result %d", i, e.Result)
			}
		}
		e.Events = d.uvarint()
		e.Blocks = d.uvarint()
		e.Waits = d.uvarint()
		nc := d.uvarint()
		if d.err != nil {
			break
		}
		if nc > uint64(len(b)-d.off) {
			return nil, nil, fmt.Errorf("index entry %d claims %d chunks in %d bytes", i, nc, len(b)-d.off)
		}
		if e.ID == 0 || seen[e.ID] {
			return nil, nil, fmt.Errorf("index entry %d: goroutine id %d is zero or repeated", i, e.ID)
		}
		seen[e.ID] = true
		e.offsets = make([]int64, 0, nc)
		prev := int64(0)
		for j := uint64(0); j < nc && d.err == nil; j++ {
			delta := d.uvarint()
			if delta > uint64(hi) {
				return nil, nil, fmt.Errorf("index entry %d: chunk %d offset out of range", i, j)
			}
			off := prev + int64(delta)
			if off < lo || off >= hi || (j > 0 && delta == 0) {
				return nil, nil, fmt.Errorf("index entry %d: chunk %d offset %d out of range [%d, %d)", i, j, off, lo, hi)
			}
			e.offsets = append(e.offsets, off)
			prev = off
		}
		e.Chunks = len(e.offsets)
		e.nextSeq = uint64(len(e.offsets))
		out = append(out, e)
	}
	if d.err != nil {
		return nil, nil, fmt.Errorf("index entry %d: %w", len(out), d.err)
	}
	return out, d.rest(), nil
}
