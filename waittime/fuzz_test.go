package waittime

import (
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// FuzzAnalyze feeds arbitrary event streams of three goroutines over a
// small graph: Analyze returns a report or an error, never panics.
func FuzzAnalyze(f *testing.F) {
	f.Add([]byte{1, 0, 5, 2, 1, 3, 7, 9, 1, 4, 4, 4, 200, 3, 0})
	f.Add([]byte{5, 1, 1, 1, 5, 2, 6, 1, 5, 0, 12, 7, 3, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		b := newBuilder("f.go")
		for i := 0; i < 4; i++ {
			b.block("f", 10+i, i)
		}
		tr := b.trace()
		for id := uint64(1); id <= 3; id++ {
			parent := id - 1
			if len(data) > 0 { // any parent, cycles included
				parent, data = uint64(data[0]%4), data[1:]
			}
			tr.gs = append(tr.gs, trace.GoroutineInfo{ID: id, Parent: parent, Site: uint32(id), Start: int64(id)})
		}
		now := int64(0)
		for len(data) >= 3 {
			g, k, x := uint64(data[0]%3+1), data[1], data[2]
			data = data[3:]
			now += int64(x) - 20 // times may run backwards
			ev := trace.Event{Kind: trace.Kind(k%7 + 1), Block: uint32(x % 5), Time: now, End: now, Begin: now - int64(x%7)*3}
			switch ev.Kind {
			case trace.EvSync:
				ev.Op = trace.Op(x%18 + 1)
				ev.Object = uint64(x % 3)
				ev.Waited = x&1 == 1
			case trace.EvSpawn:
				ev.Child = uint64(x%4 + 1)
			}
			tr.evs[g] = append(tr.evs[g], ev)
		}
		rep, err := Analyze(tr, Options{KeepWaits: true})
		if err != nil {
			return
		}
		if _, err := Diff(rep, rep, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := rep.Profile(); err != nil {
			t.Fatal(err)
		}
	})
}
