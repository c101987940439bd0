package trace

import (
	"math"
	"testing"
)

func TestEventEncoding(t *testing.T) {
	tests := []struct {
		name string
		ev   Event
		size int // encoded bytes, 0 to skip
	}{
		{"block 0", Event{Kind: EvBlock, Block: 0}, 1},
		{"block 63", Event{Kind: EvBlock, Block: 63}, 1},
		{"block 64", Event{Kind: EvBlock, Block: 64}, 2},
		{"block 127", Event{Kind: EvBlock, Block: 127}, 2},
		{"block 128", Event{Kind: EvBlock, Block: 128}, 2},
		{"block 8191", Event{Kind: EvBlock, Block: 8191}, 2},
		{"block 8192", Event{Kind: EvBlock, Block: 8192}, 3},
		{"block max", Event{Kind: EvBlock, Block: math.MaxUint32}, 5},
		{"exit", Event{Kind: EvExit, Block: 128}, 3},
		{"outcome 127", Event{Kind: EvOutcome, Value: 127}, 2},
		{"outcome 128", Event{Kind: EvOutcome, Value: 128}, 3},
		{"outcome max", Event{Kind: EvOutcome, Value: math.MaxUint64}, 11},
		{"spawn", Event{Kind: EvSpawn, Site: 1, Ordinal: 3, Child: math.MaxUint64}, 0},
		{"sync no wait", Event{Kind: EvSync, Op: OpUnlock, Site: 7, Object: 0xc000012345, End: 1000}, 0},
		{"sync waited", Event{Kind: EvSync, Op: OpLock, Site: 7, Object: math.MaxUint64, Waited: true, Begin: 5, End: math.MaxInt64}, 0},
		{"sync negative", Event{Kind: EvSync, Op: OpSleep, Waited: true, Begin: math.MinInt64, End: -1}, 0},
		{"select sends", Event{Kind: EvSync, Op: OpSelect, Site: 3, Object: 0xc0000a, Sends: true, Waited: true, Begin: 1, End: 9}, 0},
		{"select case", Event{Kind: EvSync, Op: OpSelect, Site: 3, Object: 0xc0000a, Case: 2, End: 9}, 0},
		{"select default", Event{Kind: EvSync, Op: OpSelect, Site: 3, Case: MaxCase, Waited: true, Begin: 1, End: 9}, 0},
		{"sync still blocked", Event{Kind: EvSync, Op: OpSend, Site: 4, Object: 0xc0000b, Waited: true, Blocked: true, Begin: 100, End: 5000}, 0},
		{"clock", Event{Kind: EvClock, Time: 1 << 40}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := AppendEvent(nil, tt.ev)
			if tt.size != 0 && len(b) != tt.size {
				t.Errorf("encoded in %d bytes, want %d", len(b), tt.size)
			}
			got, n, err := decodeEvent(b)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if n != len(b) || got != tt.ev {
				t.Errorf("decode = %+v (%d bytes), want %+v (%d bytes)", got, n, tt.ev, len(b))
			}
			for cut := 0; cut < len(b); cut++ {
				if _, _, err := decodeEvent(b[:cut]); err == nil {
					t.Errorf("decoding %d of %d bytes: no error", cut, len(b))
				}
			}
		})
	}
}

func TestDecodeEventErrors(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"block id over 32 bits", []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
		{"unknown kind", []byte{0x0f}},
		{"kind zero", []byte{0x01}},
		{"kind block as opcode", []byte{0x03, 0x00}},
		{"unknown op", []byte{byte(EvSync)<<1 | 1, 99, 0, 0, 0, 0}},
		{"unknown sync flags", []byte{byte(EvSync)<<1 | 1, byte(OpLock), 16, 0, 0, 0}},
		{"case flag on a lock", []byte{byte(EvSync)<<1 | 1, byte(OpLock), 8, 0, 0, 0, 1}},
		{"select case 0", []byte{byte(EvSync)<<1 | 1, byte(OpSelect), 8, 0, 0, 0, 0}},
		{"select case past the last", []byte{byte(EvSync)<<1 | 1, byte(OpSelect), 8, 0, 0, 0, MaxCase + 1}},
		{"sends flag on a lock", []byte{byte(EvSync)<<1 | 1, byte(OpLock), 2, 0, 0, 0}},
		{"blocked without waited", []byte{byte(EvSync)<<1 | 1, byte(OpLock), 4, 0, 0, 0, 0}},
		{"varint overflow", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if ev, _, err := decodeEvent(tt.in); err == nil {
				t.Errorf("decode(%x) = %+v, want an error", tt.in, ev)
			}
		})
	}
}

// The sends flag belongs to select alone: a send or receive says what it
// does by its op.
func TestDecodeSendsFlagOnlyOnSelect(t *testing.T) {
	b := AppendEvent(nil, Event{Kind: EvSync, Op: OpSelect, Object: 1, Sends: true})
	b[2] = byte(OpRecv) // the op byte follows the one-byte header
	if _, _, err := decodeEvent(b); err == nil {
		t.Fatal("a recv with the sends flag decoded without error")
	}
}
