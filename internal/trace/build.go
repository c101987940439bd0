package trace

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/divergo/divergo/internal/tbb"
)

// GoroutineEvents is one goroutine of a synthetic trace, for [WriteFile].
type GoroutineEvents struct {
	ID      uint64 // recorder id, from 1 (main); 0 means its index in the list + 1
	GoID    uint64 // Go goroutine id; 0 means ID
	Parent  uint64 // 0 for main
	Site    uint32 // the graph's site of the go statement
	Ordinal uint32 // among the parent's spawns at Site, from 1
	Start   int64  // ns since start; also taken from a leading EvClock
	End     int64  // ns since start; also taken from a trailing EvClock
	Running bool   // the goroutine had not ended: no final chunk
	Creator string // of a goroutine of no parent, when known (Origin.Creator)
	Events  []Event
}

// ChunkEvents is how many events WriteFile and Encode put in a chunk, so
// that synthetic traces exercise chunk boundaries like real ones.
const ChunkEvents = 1000

// WriteFile writes a complete trace of g and gs to path: the way tests of
// other packages build real trace files from synthetic event lists.
func WriteFile(path string, g *tbb.Graph, gs []GoroutineEvents) error {
	f, err := CreateFile(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := Encode(bw, "synthetic", g, gs); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Encode writes a complete trace of program with graph g and goroutines gs
// to w, the goroutines' chunks interleaved as a real run would.
func Encode(w io.Writer, program string, g *tbb.Graph, gs []GoroutineEvents) error {
	return EncodeHeader(w, Header{Program: program, Start: time.Unix(1700000000, 0)}, g, gs)
}

// EncodeHeader is Encode with the header's other fields given (its graph
// and hash are g's).
func EncodeHeader(w io.Writer, h Header, g *tbb.Graph, gs []GoroutineEvents) error {
	graph, err := tbb.Marshal(g)
	if err != nil {
		return fmt.Errorf("encoding graph: %w", err)
	}
	h.Graph, h.Hash = graph, g.Hash
	tw, err := NewWriter(w, h)
	if err != nil {
		return err
	}
	type state struct {
		ge   GoroutineEvents
		next int
		seq  uint64
	}
	var live []*state
	for i, ge := range gs {
		if ge.ID == 0 {
			ge.ID = uint64(i + 1)
		}
		if ge.GoID == 0 {
			ge.GoID = ge.ID
		}
		if n := len(ge.Events); n > 0 && ge.Start == 0 && ge.Events[0].Kind == EvClock {
			ge.Start = ge.Events[0].Time
		}
		if n := len(ge.Events); n > 0 && ge.End == 0 && ge.Events[n-1].Kind == EvClock {
			ge.End = ge.Events[n-1].Time
		}
		live = append(live, &state{ge: ge})
	}
	// Round robin, one chunk per goroutine per round.
	for len(live) > 0 {
		var rest []*state
		for _, s := range live {
			c := &Chunk{G: s.ge.ID, Seq: s.seq}
			if s.seq == 0 {
				c.Origin = Origin{GoID: s.ge.GoID, Parent: s.ge.Parent, Site: s.ge.Site, Ordinal: s.ge.Ordinal, Start: s.ge.Start, Creator: s.ge.Creator}
				for _, e := range s.ge.Events {
					if e.Kind == EvBlock {
						c.Origin.FirstBlock, c.Origin.HasFirst = e.Block, true
						break
					}
				}
			}
			end := min(s.next+ChunkEvents, len(s.ge.Events))
			for _, e := range s.ge.Events[s.next:end] {
				if e.Kind < EvBlock || e.Kind > EvPack {
					return fmt.Errorf("goroutine %d: event %d has unknown kind %d", s.ge.ID, s.next, e.Kind)
				}
				c.Add(e)
			}
			s.next = end
			if s.next == len(s.ge.Events) && !s.ge.Running {
				c.Final, c.End = true, s.ge.End
			}
			if err := tw.WriteChunk(c); err != nil {
				return err
			}
			s.seq++
			if s.next < len(s.ge.Events) {
				rest = append(rest, s)
			}
		}
		live = rest
	}
	return tw.Close()
}
