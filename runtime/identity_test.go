package runtime

import (
	"fmt"
	"reflect"
	"testing"
)

// TestHashIdentity checks that values holding addresses hash by the order
// in which a stream first used them: two streams that use other objects in
// the same order record the same outcomes, and one object keeps its
// identity.
func TestHashIdentity(t *testing.T) {
	type conn struct{ n int }
	type key struct {
		c    *conn
		name string
	}
	type tagged interface{}
	outcomes := func() []uint64 {
		g := &G{}
		a, b := &conn{1}, &conn{2}
		ch := make(chan int)
		var vals []any = []any{a, b, a, ch, key{b, "x"}, key{a, "x"}, key{b, "y"}, tagged(b), [2]*conn{a, b}, (*conn)(nil), "s", 7}
		var out []uint64
		for _, v := range vals {
			out = append(out, g.Hash(reflect.ValueOf(v)))
		}
		return out
	}
	x, y := outcomes(), outcomes()
	if !reflect.DeepEqual(x, y) {
		t.Fatalf("two streams that used objects in one order hashed them differently:\n%v\n%v", x, y)
	}
	if x[0] != x[2] {
		t.Errorf("one object hashed twice gave %d and %d", x[0], x[2])
	}
	if x[0] == x[1] || x[4] == x[5] || x[4] == x[6] {
		t.Errorf("different objects or keys hashed alike: %v", x)
	}
	if x[7] != x[1] {
		t.Errorf("a pointer hashed %d, the same pointer in an interface %d", x[1], x[7])
	}
	for i, h := range x {
		if h >= outBit {
			t.Errorf("hash %d of value %d does not fit one word", h, i)
		}
	}
}

// TestHashIdentityOff checks that the shared recorder of DIVERGO_TRACE=off
// keeps no table: goroutines share it.
func TestHashIdentityOff(t *testing.T) {
	g := &G{off: true}
	if h := g.Hash(reflect.ValueOf(&t)); h != 0 || g.ids != nil {
		t.Errorf("off recorder hashed %d and kept %d identities", h, len(g.ids))
	}
}

func TestIdentityBounded(t *testing.T) {
	g := &G{}
	for p := uintptr(1); p <= maxIdentities+10; p++ {
		g.identity(p * 8)
	}
	if len(g.ids) > maxIdentities {
		t.Errorf("table holds %d identities, bound %d", len(g.ids), maxIdentities)
	}
	if id := g.identity(8); id != maxIdentities+11 {
		t.Errorf("an address met again after the table restarted got %d, want the next number %d", id, maxIdentities+11)
	}
}

// TestHandoff checks that a goroutine numbers the literals of one function
// it hands over in the order it evaluated them, and that only the first
// orphan to enter one takes its number.
func TestHandoff(t *testing.T) {
	g := &G{}
	a, b, c := g.Handoff(7), g.Handoff(7), g.Handoff(9)
	if got := []uint32{b.take(), a.take(), c.take(), a.take()}; !reflect.DeepEqual(got, []uint32{2, 1, 1, 0}) {
		t.Errorf("numbers taken %v, want [2 1 1 0]", got)
	}
	var none *Handoff
	if n := none.take(); n != 0 || offG.Handoff(7) != nil {
		t.Errorf("a nil handoff gave %d, or the off recorder numbered a literal", n)
	}
}

// BenchmarkHash is what an outcome of a key holding an address costs: by
// identity (Hash), and as it was hashed before, the HashString of its %#v
// text (which printed the address).
func BenchmarkHash(b *testing.B) {
	type conn struct{ n int }
	type key struct {
		c    *conn
		name string
	}
	conns := make([]*conn, 64)
	for i := range conns {
		conns[i] = &conn{i}
	}
	for _, bc := range []struct {
		name string
		v    func(i int) any
	}{
		{"pointer", func(i int) any { return conns[i%64] }},
		{"struct", func(i int) any { return key{conns[i%64], "conn"} }},
	} {
		b.Run(bc.name+"/identity", func(b *testing.B) {
			g := &G{}
			for i := 0; b.Loop(); i++ {
				g.Hash(reflect.ValueOf(bc.v(i)))
			}
		})
		b.Run(bc.name+"/sprintf", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				HashString(fmt.Sprintf("%#v", bc.v(i)))
			}
		})
	}
}

// BenchmarkHandoff is what numbering a function literal handed to another
// package costs its creator.
func BenchmarkHandoff(b *testing.B) {
	g := &G{}
	for b.Loop() {
		g.Handoff(7)
	}
}
