package flaky

import (
	"io"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
)

// Trace is a run as the analysis reads it, as waittime does: a trace file
// (*trace.Reader), or one made in memory.
type Trace = waittime.Trace

// View is one test of one run: its root goroutine and what that spawned.
// It is a waittime.Trace.
type View struct {
	t    Trace
	gs   []trace.GoroutineInfo
	root uint64
	// Run numbers the run for reports (from 1), and Failure says how the
	// test failed in it: the caller sets them.
	Run     int
	Failure Failure
}

// ViewTest returns the goroutines of test name in t; ok is false when the
// test did not run.
func ViewTest(t Trace, name string) (v *View, ok bool) {
	all := t.Goroutines()
	var root uint64
	for _, g := range all {
		if g.Test == name {
			root = g.ID
		}
	}
	if root == 0 {
		return nil, false
	}
	in := map[uint64]bool{root: true}
	for changed := true; changed; { // parents before children is not guaranteed
		changed = false
		for _, g := range all {
			if !in[g.ID] && g.Parent != 0 && in[g.Parent] {
				in[g.ID], changed = true, true
			}
		}
	}
	v = &View{t: t, root: root}
	for _, g := range all {
		if in[g.ID] {
			v.gs = append(v.gs, g)
		}
	}
	return v, true
}

// Graph, Goroutines and Events make a View a waittime.Trace.
func (v *View) Graph() *tbb.Graph                         { return v.t.Graph() }
func (v *View) Goroutines() []trace.GoroutineInfo         { return v.gs }
func (v *View) Events(id uint64) (trace.EventIter, error) { return v.t.Events(id) }

// compareTrace is the view as compare reads it. A trace file is read
// through compare.FromReader, which decodes batches straight into the
// comparison's buffer; any other trace event by event.
func (v *View) compareTrace() compare.Trace {
	var ct compare.Trace = iterTrace{v.t}
	if r, ok := v.t.(*trace.Reader); ok {
		ct = compare.FromReader(r)
	}
	return cmpView{ct, v}
}

// cmpView keeps a compare.Trace's goroutines to the view's.
type cmpView struct {
	compare.Trace
	v *View
}

func (c cmpView) Goroutines() []compare.Goroutine {
	in := map[uint64]bool{}
	for _, g := range c.v.gs {
		in[g.ID] = true
	}
	var out []compare.Goroutine
	for _, g := range c.Trace.Goroutines() {
		if in[g.ID] {
			out = append(out, g)
		}
	}
	return out
}

// iterTrace is a Trace as compare reads it.
type iterTrace struct{ t Trace }

func (it iterTrace) Graph() *tbb.Graph { return it.t.Graph() }

func (it iterTrace) Goroutines() []compare.Goroutine {
	infos := it.t.Goroutines()
	out := make([]compare.Goroutine, len(infos))
	for i, g := range infos {
		out[i] = compare.Goroutine{ID: g.ID, Parent: g.Parent, Site: g.Site, Ordinal: g.Ordinal, FirstBlock: g.FirstBlock, HasFirst: g.HasFirst, Creator: g.Creator, GoID: g.GoID, Unfinished: !g.Ended}
	}
	return out
}

func (it iterTrace) Events(id uint64) (compare.EventReader, error) {
	evs, err := it.t.Events(id)
	if err != nil {
		return nil, err
	}
	return iterReader{evs}, nil
}

// iterReader reads an EventIter into compare's buffers.
type iterReader struct{ it trace.EventIter }

func (r iterReader) Read(buf []trace.Event) (int, error) {
	n := 0
	for n < len(buf) && r.it.Next() {
		buf[n] = r.it.Event()
		n++
	}
	if n == 0 {
		if err := r.it.Err(); err != nil {
			return 0, err
		}
		return 0, io.EOF
	}
	return n, nil
}
