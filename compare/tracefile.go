package compare

import (
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// FromReader adapts a trace file reader to [Trace].
func FromReader(r *trace.Reader) Trace { return readerTrace{r} }

type readerTrace struct{ r *trace.Reader }

func (t readerTrace) Graph() *tbb.Graph { return t.r.Graph() }

func (t readerTrace) Inputs() (trace.Inputs, bool) { return t.r.Inputs() }

func (t readerTrace) Goroutines() []Goroutine {
	infos := t.r.Goroutines()
	out := make([]Goroutine, len(infos))
	for i, g := range infos {
		out[i] = Goroutine{ID: g.ID, Parent: g.Parent, Site: g.Site, Ordinal: g.Ordinal, FirstBlock: g.FirstBlock, HasFirst: g.HasFirst, Creator: g.Creator, GoID: g.GoID, Path: g.Path, Unfinished: !g.Ended}
	}
	return out
}

func (t readerTrace) Events(id uint64) (EventReader, error) {
	er, err := t.r.EventReader(id)
	if err != nil {
		return nil, err
	}
	return batchReader{er}, nil
}

// batchReader adapts trace.EventReader, which decodes a batch of events
// straight into the comparison's buffer, to [EventReader].
type batchReader struct{ er *trace.EventReader }

func (r batchReader) Read(buf []trace.Event) (int, error) { return r.er.ReadEvents(buf) }

// Raw and Skip hand out the undecoded events (trace.EventReader.Raw).
func (r batchReader) Raw() ([]byte, uint64)             { return r.er.Raw() }
func (r batchReader) Skip(n int, events, blocks uint64) { r.er.Skip(n, events, blocks) }
