package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	mbits "math/bits"
)

// AppendEvent appends the encoding of e to dst. Only the fields meaningful
// for e.Kind are written (see [Event]); e.Kind must be valid. Spawn and
// sync events are written with their Site, not their Block: readers take
// the block from the graph's site.
func AppendEvent(dst []byte, e Event) []byte {
	if e.Kind == EvBlock {
		return binary.AppendUvarint(dst, uint64(e.Block)<<1)
	}
	dst = binary.AppendUvarint(dst, uint64(e.Kind)<<1|1)
	switch e.Kind {
	case EvExit:
		dst = binary.AppendUvarint(dst, uint64(e.Block))
	case EvOutcome:
		dst = binary.AppendUvarint(dst, e.Value)
	case EvSpawn:
		dst = binary.AppendUvarint(dst, uint64(e.Site))
		dst = binary.AppendUvarint(dst, uint64(e.Ordinal))
		dst = binary.AppendUvarint(dst, e.Child)
	case EvSync:
		var flags byte
		if e.Waited {
			flags |= syncWaited
		}
		if e.Sends {
			flags |= syncSends
		}
		if e.Blocked {
			flags |= syncBlocked | syncWaited
		}
		if e.Case != 0 {
			flags |= syncCase
		}
		dst = append(dst, byte(e.Op), flags)
		dst = binary.AppendUvarint(dst, uint64(e.Site))
		dst = binary.AppendUvarint(dst, e.Object)
		dst = binary.AppendVarint(dst, e.End)
		if e.Waited || e.Blocked {
			dst = binary.AppendVarint(dst, e.Begin)
		}
		if e.Case != 0 {
			dst = binary.AppendUvarint(dst, uint64(e.Case))
		}
	case EvClock:
		dst = binary.AppendVarint(dst, e.Time)
	case EvPerturb:
		dst = binary.AppendVarint(dst, e.Begin)
		dst = binary.AppendVarint(dst, e.End)
	case EvPack:
		dst = binary.AppendUvarint(dst, uint64(e.Block))
		dst = binary.AppendUvarint(dst, e.Object)
		l := (mbits.Len64(e.Value) + 7) / 8
		lb := byte(l)
		if e.Ordinal > 0 {
			lb |= PackRepeats
		}
		dst = append(dst, lb)
		dst = binary.LittleEndian.AppendUint64(dst, e.Value)[:len(dst)+l]
		if e.Ordinal > 0 {
			dst = binary.AppendUvarint(dst, uint64(e.Ordinal))
		}
	}
	return dst
}

var errShort = errors.New("event cut short")

// decodeEvent decodes one event from the start of b and returns it with the
// number of bytes it used. A spawn or sync event has its Site, not yet its
// Block: decodeEvents looks the block up.
func decodeEvent(b []byte) (Event, int, error) {
	d := decoder{b: b}
	h := d.uvarint()
	if d.err != nil {
		return Event{}, 0, d.err
	}
	if h&1 == 0 {
		id := h >> 1
		if id > math.MaxUint32 {
			return Event{}, 0, fmt.Errorf("block id %d out of range", id)
		}
		return Event{Kind: EvBlock, Block: uint32(id)}, d.off, nil
	}
	e := Event{Kind: Kind(h >> 1)}
	if h>>1 > 255 {
		e.Kind = 0
	}
	switch e.Kind {
	case EvExit:
		e.Block = d.uint32()
	case EvOutcome:
		e.Value = d.uvarint()
	case EvSpawn:
		e.Site = d.uint32()
		e.Ordinal = d.uint32()
		e.Child = d.uvarint()
	case EvSync:
		e.Op = Op(d.byte())
		flags := d.byte()
		e.Waited = flags&syncWaited != 0
		e.Sends = flags&syncSends != 0
		e.Blocked = flags&syncBlocked != 0
		e.Site = d.uint32()
		e.Object = d.uvarint()
		e.End = d.varint()
		if e.Waited {
			e.Begin = d.varint()
		}
		if flags&syncCase != 0 {
			e.Case = d.uint32()
			if d.err == nil && (e.Case == 0 || e.Case > MaxCase) {
				return Event{}, 0, fmt.Errorf("select case %d out of range", e.Case)
			}
		}
		if d.err == nil && (e.Op == 0 || int(e.Op) >= len(opNames)) {
			return Event{}, 0, fmt.Errorf("unknown sync operation %d", e.Op)
		}
		if d.err == nil && (flags&^(syncWaited|syncSends|syncBlocked|syncCase) != 0 || (e.Sends || e.Case != 0) && e.Op != OpSelect || e.Blocked && !e.Waited) {
			return Event{}, 0, fmt.Errorf("unknown sync flags %#x", flags)
		}
	case EvClock:
		e.Time = d.varint()
	case EvPerturb:
		e.Begin = d.varint()
		e.End = d.varint()
	case EvPack:
		e.Block = d.uint32()
		e.Object = d.uvarint()
		lb := d.byte()
		if d.err == nil && lb&^(PackRepeats|0xf) != 0 {
			return Event{}, 0, fmt.Errorf("pack event: unknown flags in length byte %#x", lb)
		}
		codes := d.fixed(int(lb&0xf), 8, "codes")
		for i, c := range codes {
			e.Value |= uint64(c) << (8 * i)
		}
		if l := len(codes); l > 0 && codes[l-1] == 0 {
			return Event{}, 0, fmt.Errorf("pack event: codes %#x in %d bytes, the last zero", e.Value, l)
		}
		if lb&PackRepeats != 0 {
			e.Ordinal = d.uint32()
			if d.err == nil && e.Ordinal == 0 {
				return Event{}, 0, errors.New("pack event: repeated 0 times")
			}
		}
	default:
		return Event{}, 0, fmt.Errorf("unknown event kind %d", h>>1)
	}
	if d.err != nil {
		return Event{}, 0, fmt.Errorf("%s event: %w", e.Kind, d.err)
	}
	return e, d.off, nil
}

// decoder reads varints from a byte slice, remembering the first error so
// that callers check once.
type decoder struct {
	b   []byte
	off int
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.off:])
	switch {
	case n == 0:
		d.err = errShort
		return 0
	case n < 0:
		d.err = errors.New("varint overflows 64 bits")
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b[d.off:])
	switch {
	case n == 0:
		d.err = errShort
		return 0
	case n < 0:
		d.err = errors.New("varint overflows 64 bits")
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) uint32() uint32 {
	v := d.uvarint()
	if v > math.MaxUint32 && d.err == nil {
		d.err = fmt.Errorf("value %d does not fit 32 bits", v)
	}
	return uint32(v)
}

func (d *decoder) byte() byte {
	if d.err != nil {
		return 0
	}
	if d.off >= len(d.b) {
		d.err = errShort
		return 0
	}
	c := d.b[d.off]
	d.off++
	return c
}

// bytes reads a uvarint length, bounded by max and by what is left, and
// that many bytes (not copied).
func (d *decoder) bytes(max int, what string) []byte {
	n := d.uvarint()
	if d.err == nil && n > uint64(max) {
		d.err = fmt.Errorf("%s is %d bytes, more than the %d allowed", what, n, max)
	}
	return d.fixed(int(n), max, what) // n fits an int once it is at most max
}

// fixed reads n bytes, n at most max and at most what is left.
func (d *decoder) fixed(n, max int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n > max {
		d.err = fmt.Errorf("%s is %d bytes, more than the %d allowed", what, n, max)
		return nil
	}
	if n > len(d.b)-d.off {
		d.err = fmt.Errorf("%s (%d bytes): %w", what, n, errShort)
		return nil
	}
	s := d.b[d.off : d.off+n]
	d.off += n
	return s
}

func (d *decoder) rest() []byte {
	return d.b[d.off:]
}
