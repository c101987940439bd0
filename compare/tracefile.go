package compare

import (
	"io"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// FromReader adapts a trace file reader to [Trace].
func FromReader(r *trace.Reader) Trace { return readerTrace{r} }

type readerTrace struct{ r *trace.Reader }

func (t readerTrace) Graph() *tbb.Graph { return t.r.Graph() }

func (t readerTrace) Goroutines() []Goroutine {
	infos := t.r.Goroutines()
	out := make([]Goroutine, len(infos))
	for i, g := range infos {
		out[i] = Goroutine{ID: g.ID, Parent: g.Parent, Site: g.Site, Ordinal: g.Ordinal, FirstBlock: g.FirstBlock, HasFirst: g.HasFirst, Unfinished: !g.Ended}
	}
	return out
}

func (t readerTrace) Events(id uint64) (EventReader, error) {
	it, err := t.r.Events(id)
	if err != nil {
		return nil, err
	}
	return &iterReader{it: it}, nil
}

// iterReader batches a trace.EventIter.
type iterReader struct{ it trace.EventIter }

func (r *iterReader) Read(buf []trace.Event) (int, error) {
	n := 0
	for n < len(buf) && r.it.Next() {
		buf[n] = r.it.Event()
		n++
	}
	if n < len(buf) {
		if err := r.it.Err(); err != nil {
			return n, err
		}
		return n, io.EOF
	}
	return n, nil
}
