package trace

import (
	"bytes"
	"reflect"
	"runtime/metrics"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the reader: it must return an error
// or a trace whose every stream reads to its end or to an error, without
// panicking and without allocating more than the input justifies.
// Seeds: testdata/fuzz/FuzzReader (real traces written by the runtime,
// complete and cut short).
func FuzzReader(f *testing.F) {
	f.Add(writeSample(f))
	f.Add(packSample(f))
	f.Add(creatorSample(f))
	f.Add(inputsSample(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		before := allocated()
		defer func() {
			// Allocation must follow the input, whatever lengths it claims.
			if got, limit := allocated()-before, uint64(100*len(data)+8<<20); got > limit {
				t.Fatalf("reading %d bytes allocated %d bytes, more than %d", len(data), got, limit)
			}
		}()
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for _, gi := range r.Goroutines() {
			it, err := r.Events(gi.ID)
			if err != nil {
				t.Fatalf("Events(%d) of a listed goroutine: %v", gi.ID, err)
			}
			n := uint64(0)
			for it.Next() {
				n++
			}
			// A pack event is read as the block events it stands for, one
			// at least: without packed loops the counts are equal.
			if it.Err() == nil && (n < gi.Events || n != gi.Events && len(r.Graph().PackedLoops()) == 0) {
				t.Fatalf("goroutine %d: read %d events cleanly, index says %d", gi.ID, n, gi.Events)
			}
		}
	})
}

// FuzzRoundTrip reads a trace, writes what it read with Encode, and reads
// that again: the goroutines and every event must come back the same.
// Seeds: the same real traces as FuzzReader.
func FuzzRoundTrip(f *testing.F) {
	f.Add(writeSample(f))
	f.Add(packSample(f))
	f.Add(creatorSample(f))
	f.Add(inputsSample(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		var gs []GoroutineEvents
		var want [][]Event
		for _, gi := range r.Goroutines() {
			it, _ := r.Events(gi.ID)
			var evs []Event
			for it.Next() {
				evs = append(evs, it.Event())
			}
			if it.Err() != nil {
				return // a corrupt stream has nothing to round-trip
			}
			gs = append(gs, GoroutineEvents{ID: gi.ID, GoID: gi.GoID, Parent: gi.Parent, Site: gi.Site, Ordinal: gi.Ordinal,
				Start: gi.Start, End: gi.End, Running: !gi.Ended, Creator: gi.Creator, Events: evs})
			want = append(want, evs)
		}
		var buf bytes.Buffer
		h := Header{Program: r.Program(), Start: r.Start()}
		h.Seed, h.Perturbed = r.Perturbed()
		if in, ok := r.Inputs(); ok {
			h.Inputs = &in
		}
		if err := EncodeHeader(&buf, h, r.Graph(), gs); err != nil {
			t.Fatalf("encoding what was read: %v", err)
		}
		r2, err := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatalf("reading what was encoded: %v", err)
		}
		in1, ok1 := r.Inputs()
		if in2, ok2 := r2.Inputs(); ok1 != ok2 || !reflect.DeepEqual(in1, in2) {
			t.Fatalf("inputs %+v (%v) read back as %+v (%v)", in1, ok1, in2, ok2)
		}
		got := r2.Goroutines()
		if len(got) != len(gs) {
			t.Fatalf("%d goroutines, want %d", len(got), len(gs))
		}
		for i, gi := range got {
			g := gs[i]
			if gi.ID != g.ID || gi.Parent != g.Parent || gi.Site != g.Site || gi.Ordinal != g.Ordinal || gi.Start != g.Start || gi.Ended == g.Running ||
				gi.Creator != g.Creator[:min(len(g.Creator), maxNameBytes)] {
				t.Fatalf("goroutine %d: %+v, want %+v", i, gi, g)
			}
			if len(want[i]) > 0 && gi.Path != r.Goroutines()[i].Path && r.Goroutines()[i].HasFirst == gi.HasFirst {
				t.Fatalf("goroutine %d: path %q, want %q", i, gi.Path, r.Goroutines()[i].Path)
			}
			it, _ := r2.Events(gi.ID)
			var evs []Event
			for it.Next() {
				evs = append(evs, it.Event())
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			if len(evs) != len(want[i]) || (len(evs) > 0 && !reflect.DeepEqual(evs, want[i])) {
				t.Fatalf("goroutine %d: events differ after a round trip", gi.ID)
			}
		}
	})
}

// FuzzEvent round-trips single events built from arbitrary field values.
func FuzzEvent(f *testing.F) {
	f.Add(uint8(EvSync), uint32(7), uint64(0xc000012345), uint32(2), uint8(OpLock), true, int64(5), int64(1000))
	f.Add(uint8(EvBlock), uint32(128), uint64(0), uint32(0), uint8(0), false, int64(0), int64(0))
	f.Add(uint8(EvSync), uint32(3), uint64(0xc0000a), uint32(2), uint8(OpSelect), false, int64(0), int64(9))
	f.Fuzz(func(t *testing.T, kind uint8, block uint32, value uint64, ord uint32, op uint8, waited bool, begin, end int64) {
		e := Event{Kind: Kind(kind)}
		switch e.Kind {
		case EvBlock, EvExit:
			e.Block = block
		case EvOutcome:
			e.Value = value
		case EvSpawn:
			e.Site, e.Ordinal, e.Child = block, ord, value
		case EvSync:
			if op == 0 || int(op) >= len(opNames) {
				return
			}
			e.Op, e.Site, e.Object, e.Waited, e.End = Op(op), block, value, waited, end
			if e.Op == OpSelect { // the clause chosen (0: not said), from the spawn's ordinal
				e.Case = ord % (MaxCase + 1)
			}
			if waited {
				e.Begin = begin
			}
		case EvClock:
			e.Time = end
		default:
			return
		}
		b := AppendEvent(nil, e)
		got, n, err := decodeEvent(b)
		if err != nil || n != len(b) || got != e {
			t.Fatalf("round trip of %+v: %+v, %d of %d bytes, %v", e, got, n, len(b), err)
		}
	})
}

// allocated returns the bytes allocated so far by the process, without
// stopping the world as runtime.ReadMemStats does.
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// FuzzParseSchedule feeds arbitrary text to the schedule parser: it must
// return an error or a schedule whose every reference is in range, and
// write it back to text that reads the same.
func FuzzParseSchedule(f *testing.F) {
	f.Add([]byte("divergo schedule 1\ntest TestX\ngo 1 4 2\nturns\n2 0\n1 0\n2 1\n"))
	f.Add([]byte("divergo schedule 1\nmain\nturns\n"))
	f.Add([]byte("divergo schedule 2\nmain\ngo 1 4 1\nturns\n1 0 2\n2 0\n2 1 31\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSchedule(data)
		if err != nil {
			return
		}
		for i, g := range s.Gs {
			if g.Parent < 0 || g.Parent > i {
				t.Fatalf("goroutine %d's parent %d is not before it", i+1, g.Parent)
			}
		}
		for _, tu := range s.Turns {
			if tu.G < 0 || tu.G >= len(s.Gs) {
				t.Fatalf("turn of goroutine %d of %d", tu.G+1, len(s.Gs))
			}
		}
		var b bytes.Buffer
		if _, err := s.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		again, err := ParseSchedule(b.Bytes())
		if err != nil {
			t.Fatalf("reading back what was written: %v", err)
		}
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("read back %+v, want %+v", again, s)
		}
	})
}
