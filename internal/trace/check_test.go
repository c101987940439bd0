package trace

import (
	"bytes"
	"testing"
	"time"
)

// TestCheckStreamBounded checks that CheckStream reads a packed loop's
// claimed 2^40 executions in no time, and reads on after it.
func TestCheckStreamBounded(t *testing.T) {
	evs := []Event{{Kind: EvBlock, Block: 0}, {Kind: EvPack, Block: 8, Object: 1 << 20, Ordinal: 1<<20 - 1}, {Kind: EvBlock, Block: 10}}
	var buf bytes.Buffer
	if err := Encode(&buf, "packed", packGraph(t), []GoroutineEvents{{ID: 1, GoID: 1, Events: evs}}); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	n, err := r.CheckStream(1)
	if err != nil || n < 3 || n > 1000 {
		t.Errorf("CheckStream: %d events, %v; want the block, at most %d of the loop, the block", n, err, checkedPacked+1)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("CheckStream took %v", d)
	}
}
