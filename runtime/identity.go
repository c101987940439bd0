package runtime

import (
	"math"
	"reflect"
)

// What an outcome says of a value whose bits hold an address (a pointer, a
// channel, a map, a function, an unsafe.Pointer, or an interface, struct
// or array holding one; a uintptr): not the address, which differs between any two
// runs, but the value's identity among the values this goroutine's stream
// recorded, numbered in the order of their first use from 1. The k-th
// connection an accept loop puts into `open[c]` is then k in every run
// that accepted k connections, where its address (or the %#v text that
// printed it, as outcomes were hashed before) parted every pair of runs
// (docs/SOUNDNESS.md, "Identities").
//
// The table is per stream (per G), so that no goroutine's numbering
// depends on the schedule: goroutines that first meet a value in another
// order still agree on the identities each of them gave. It is keyed by
// address and does not keep the value alive: an object freed and another
// allocated at its address within one stream take one identity
// (docs/SOUNDNESS.md says when that can part two runs). It is bounded:
// past maxIdentities it starts again empty, and numbering continues.

// maxIdentities bounds a stream's identity table: a stream that indexes by
// more distinct addresses starts a new table (numbering goes on), so that a
// server indexing by each connection it ever had keeps a table of at most
// this many entries, 16 bytes each.
const maxIdentities = 1 << 16

// identity returns the identity of address p in g's stream: 0 for nil, else
// the order of its first use from 1.
func (g *G) identity(p uintptr) uint64 {
	if p == 0 {
		return 0
	}
	if id, ok := g.ids[p]; ok {
		return id
	}
	if g.ids == nil || len(g.ids) >= maxIdentities {
		g.ids = make(map[uintptr]uint64)
	}
	g.nextID++
	g.ids[p] = g.nextID
	return g.nextID
}

// Hash is the outcome of a map key or index value that is neither an
// integer nor a string (those take Outcome and OutcomeString): a hash of
// its parts, each address among them by its identity in this stream, so
// that the same value, or the same object, hashes the same in every run.
// It fits in one buffer word, as HashString's does.
func (g *G) Hash(v reflect.Value) uint64 {
	if g.off {
		return 0 // not recorded: keep the shared recorder unwritten
	}
	return g.hashValue(uint64(v.Kind())*hashMul, v) >> 34
}

// hashValue mixes v into h: scalars by their bits, strings by HashString,
// addresses by identity, composites part by part. It follows no pointer, so
// it ends on any value, cyclic ones included.
func (g *G) hashValue(h uint64, v reflect.Value) uint64 {
	if !v.IsValid() {
		return hashMix(h ^ 1)
	}
	h = hashMix(h ^ uint64(v.Kind()))
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return hashMix(h ^ 1)
		}
		return hashMix(h)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return hashMix(h ^ uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return hashMix(h ^ v.Uint())
	case reflect.Uintptr:
		// As often as not an address (a key of unsafe.Pointer turned
		// into a number): by identity too.
		return hashMix(h ^ g.identity(uintptr(v.Uint())))
	case reflect.Float32, reflect.Float64:
		return hashMix(h ^ math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		return hashMix(hashMix(h^math.Float64bits(real(c))) ^ math.Float64bits(imag(c)))
	case reflect.String:
		return hashMix(h ^ HashString(v.String()))
	case reflect.Pointer, reflect.Chan, reflect.Map, reflect.Func, reflect.UnsafePointer:
		return hashMix(h ^ g.identity(v.Pointer()))
	case reflect.Interface:
		if v.IsNil() {
			return hashMix(h)
		}
		// The dynamic type takes part by its name: two types of one
		// name and kind are rare among the keys of one map.
		e := v.Elem()
		return g.hashValue(hashMix(h^HashString(e.Type().String())), e)
	case reflect.Struct:
		for i := range v.NumField() {
			h = g.hashValue(h, v.Field(i))
		}
		return h
	case reflect.Array:
		for i := range v.Len() {
			h = g.hashValue(h, v.Index(i))
		}
		return h
	}
	// Slices and other kinds are not comparable: no key or index is one.
	return h
}
