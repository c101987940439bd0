package trace

import (
	"bytes"
	"testing"
	"time"
)

// TestPerturbRoundTrip writes a perturbed run's header and a perturb event
// and reads them back; a trace without the header's fields is a run that
// was not perturbed.
func TestPerturbRoundTrip(t *testing.T) {
	evs := []Event{
		{Kind: EvClock, Time: 0},
		{Kind: EvBlock, Block: 0},
		{Kind: EvPerturb, Begin: 10, End: 60},
		{Kind: EvSync, Op: OpLock, Block: 0, Object: 1, End: 61},
		{Kind: EvClock, Time: 100},
	}
	for _, c := range []struct {
		h         Header
		seed      int64
		perturbed bool
	}{
		{Header{Program: "p", Start: time.Unix(1, 0), Perturbed: true, Seed: -7}, -7, true},
		{Header{Program: "p", Start: time.Unix(1, 0)}, 0, false},
	} {
		var buf bytes.Buffer
		if err := EncodeHeader(&buf, c.h, testGraph(t), []GoroutineEvents{{ID: 1, Events: evs}}); err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		if seed, ok := r.Perturbed(); seed != c.seed || ok != c.perturbed {
			t.Errorf("Perturbed() = %d, %v; want %d, %v", seed, ok, c.seed, c.perturbed)
		}
		if got := readAll(t, r, 1); got[2] != evs[2] {
			t.Errorf("perturb event read back as %+v", got[2])
		}
	}
}
