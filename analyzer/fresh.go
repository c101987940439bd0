package analyzer

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Memory a goroutine allocates and never publishes is its own: in a
// data-race-free program no other goroutine can write it, since no other
// goroutine ever holds a pointer to it. Reading it then depends only on
// what this goroutine stored there, and on when, not on a schedule.
//
// Fresh memory comes from calls of functions that return only fresh
// memory (freshRet): every result is nil or an allocation of the call,
// the allocations' fields are set only in the call, and only to nil,
// pointer-free values (numbers, strings) or other fresh memory of the
// call (an allocation, or the result of another such call). Nothing else
// is done with the allocations: they are not loaded from, passed, stored
// anywhere else or converted. The set of such functions is a greatest
// fixpoint: every candidate is assumed fresh, and those whose body breaks
// the rule, given the current set, are dropped until none is.
//
// A function publishes a pointer when it stores it (into any memory, a
// global, through another pointer), sends it, returns it, converts it
// (to an interface, a number, another pointer type), captures it in a
// closure, passes it to a go or defer statement, to a builtin, to a call
// through a function value or an interface, or to a parameter of a
// static callee that publishes that parameter. Loading a pointer field of
// fresh memory yields the same fresh memory; so does a phi of fresh
// values and nil. A function that writes into fresh memory outside the
// call that made it counts as publishing it too, so that fresh memory
// holds only what its making call stored. Whether a callee publishes a
// parameter is the same greatest fixpoint (pubParam).
//
// In a function, the fresh values (results of freshRet calls, pointer
// parameters, and what is loaded through them) fall into components:
// values loaded from one another or joined by a phi. A component none of
// whose values is published is the function's own: loading through it
// reads fresh memory (freshMem), whose taint is what the making calls
// stored (freshContent, translated to the caller) and, for a parameter,
// the parameter's memory slot. That slot is the whole graph the parameter
// reaches only when every call site gives it fresh memory its caller does
// not publish (freshArg, a greatest fixpoint too): a caller's memOf of
// other memory, its own local variables included, is one level deep, so a
// component with a parameter of another kind is not fresh, and reading
// through it is what the rest of the analysis says. A function reached from
// unknown callers has every slot shared already (setContexts), so only
// functions called statically gain: no method value, no interface, no
// other package (docs/SOUNDNESS.md, "Memory a goroutine never publishes").

// freshCand reports whether fn can return only fresh memory: one pointer
// result, a body, no captured variables.
func freshCand(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	if fn.Blocks == nil || len(fn.FreeVars) > 0 || res.Len() != 1 {
		return false
	}
	_, ok := coreType(res.At(0).Type()).(*types.Pointer)
	return ok
}

// pointerFree reports whether a value of type t reaches no mutable memory.
func pointerFree(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Array:
		return pointerFree(u.Elem())
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !pointerFree(u.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}

// findFresh computes freshRet, pubParam and freshArg of every function to
// their greatest fixpoint, then the unpublished fresh components of each.
func (ps *pkgState) findFresh() {
	if relaxed(RuleFresh) {
		return
	}
	for _, s := range ps.funcs {
		s.freshRet = freshCand(s.fn)
		s.pubParam = make([]bool, len(s.fn.Params))
		s.freshArg = make([]bool, len(s.fn.Params))
		for k, p := range s.fn.Params {
			_, ptr := coreType(p.Type()).(*types.Pointer)
			s.pubParam[k] = ptr && s.fn.Blocks != nil
			s.freshArg[k] = s.pubParam[k] && !s.escapes && !s.spawned
		}
	}
	for changed := true; changed; {
		changed = false
		for _, s := range ps.funcs {
			if s.freshRet && s.freshValues() == nil {
				s.freshRet = false
				changed = true
			}
			if s.fn.Blocks == nil {
				continue
			}
			s.freshComps()
			for k, p := range s.fn.Params {
				if _, own := s.freshComp[p]; s.pubParam[k] && !own {
					s.pubParam[k] = false
					changed = true
				}
			}
		}
		if ps.freshArgs() {
			changed = true
		}
	}
}

// freshArgs drops freshArg of the parameters that some call site does not
// give fresh memory its caller does not publish, and reports whether it
// dropped any.
func (ps *pkgState) freshArgs() bool {
	changed := false
	drop := func(t *fstate, k int) {
		if t.freshArg[k] {
			t.freshArg[k] = false
			changed = true
		}
	}
	for _, t := range ps.funcs {
		for k := range t.freshArg {
			if !t.pubParam[k] {
				drop(t, k)
			}
		}
	}
	for _, s := range ps.funcs {
		for _, b := range s.fn.Blocks {
			for _, in := range b.Instrs {
				ci, ok := in.(ssa.CallInstruction)
				if !ok || ci.Common().IsInvoke() {
					continue
				}
				fn := ci.Common().StaticCallee()
				if fn == nil {
					continue
				}
				t := ps.lookup(fn)
				if t == nil {
					continue
				}
				_, call := in.(*ssa.Call)
				for k := range t.freshArg {
					if !call || k >= len(ci.Common().Args) || !s.freshValue(ci.Common().Args[k]) {
						drop(t, k)
					}
				}
			}
		}
	}
	return changed
}

// freshValue reports whether v is fresh memory the function does not
// publish: in an unpublished component whose every source is a fresh call
// or a parameter that every caller gives such memory.
func (s *fstate) freshValue(v ssa.Value) bool {
	r, ok := s.freshComp[v]
	if !ok {
		return false
	}
	for _, src := range s.freshSrcs[r] {
		if p, ok := src.(*ssa.Parameter); ok {
			if k := paramIndex(s.fn, p); k < 0 || !s.freshArg[k] {
				return false
			}
		}
	}
	return true
}

// freshCallee returns the in-package function that call c statically
// calls, if it returns only fresh memory.
func (ps *pkgState) freshCallee(c *ssa.Call) *fstate {
	if c.Call.IsInvoke() {
		return nil
	}
	if _, ok := c.Call.Value.(*ssa.Function); !ok {
		return nil
	}
	if t := ps.lookup(c.Call.StaticCallee()); t != nil && t.freshRet {
		return t
	}
	return nil
}

// freshValues returns the fresh memory of a freshRet candidate: its
// allocations, fresh calls and phis that reach its results, or nil if its
// body breaks the rule.
func (s *fstate) freshValues() map[ssa.Value]bool {
	vals := map[ssa.Value]bool{}
	var work []ssa.Value
	// add accepts v as fresh memory of the call, or reports it cannot be.
	add := func(v ssa.Value) bool {
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			return true
		}
		if vals[v] {
			return true
		}
		switch v := v.(type) {
		case *ssa.Alloc, *ssa.Phi:
		case *ssa.Call:
			if s.pkg.freshCallee(v) == nil {
				return false
			}
		default:
			return false
		}
		vals[v] = true
		work = append(work, v)
		return true
	}
	for _, b := range s.fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && !add(ret.Results[0]) {
			return nil
		}
	}
	for len(work) > 0 {
		v := work[0]
		work = work[1:]
		if phi, ok := v.(*ssa.Phi); ok {
			for _, e := range phi.Edges {
				if !add(e) {
					return nil
				}
			}
		}
		for _, u := range *v.Referrers() {
			switch u := u.(type) {
			case *ssa.DebugRef, *ssa.Return:
			case *ssa.Phi:
				if !add(u) {
					return nil
				}
			case *ssa.Store:
				// Into a field of an allocation of the call.
				fa, ok := u.Addr.(*ssa.FieldAddr)
				if !ok || u.Val != v || !add(fa.X) {
					return nil
				}
				if _, ok := fa.X.(*ssa.Alloc); !ok {
					return nil
				}
			case *ssa.FieldAddr:
				// The allocation's fields are only set, and only to
				// fresh memory or pointer-free values.
				if _, ok := v.(*ssa.Alloc); !ok {
					return nil
				}
				for _, w := range *u.Referrers() {
					switch w := w.(type) {
					case *ssa.DebugRef:
					case *ssa.Store:
						if w.Addr != u || (!pointerFree(w.Val.Type()) && !add(w.Val)) {
							return nil
						}
					default:
						return nil
					}
				}
			default:
				return nil
			}
		}
	}
	return vals
}

// freshComps finds the function's fresh values and their components, and
// keeps in freshComp those of components it does not publish.
func (s *fstate) freshComps() {
	parent := map[ssa.Value]ssa.Value{}
	var find func(v ssa.Value) ssa.Value
	find = func(v ssa.Value) ssa.Value {
		for parent[v] != v {
			parent[v] = parent[parent[v]]
			v = parent[v]
		}
		return v
	}
	var work []ssa.Value
	add := func(v, from ssa.Value) {
		if _, ok := parent[v]; !ok {
			parent[v] = v
			work = append(work, v)
		}
		if from != nil {
			parent[find(v)] = find(from)
		}
	}
	var srcs []ssa.Value
	for k, p := range s.fn.Params {
		if s.pubParam[k] {
			srcs = append(srcs, p)
			add(p, nil)
		}
	}
	for _, b := range s.fn.Blocks {
		for _, in := range b.Instrs {
			if c, ok := in.(*ssa.Call); ok && s.pkg.freshCallee(c) != nil {
				srcs = append(srcs, c)
				add(c, nil)
			}
		}
	}
	published := map[ssa.Value]bool{}
	var phis []*ssa.Phi
	for len(work) > 0 {
		v := work[0]
		work = work[1:]
		for _, u := range *v.Referrers() {
			if s.publishes(v, u, add, &phis) {
				published[v] = true
			}
		}
	}
	// A phi is fresh only if every edge is.
	for _, phi := range phis {
		for _, e := range phi.Edges {
			if c, ok := e.(*ssa.Const); ok && c.IsNil() {
				continue
			}
			if _, ok := parent[e]; !ok {
				published[phi] = true
			}
		}
	}
	bad := map[ssa.Value]bool{}
	for v := range published {
		bad[find(v)] = true
	}
	s.freshComp = map[ssa.Value]ssa.Value{}
	for v := range parent {
		if r := find(v); !bad[r] {
			s.freshComp[v] = r
		}
	}
	s.freshSrcs = map[ssa.Value][]ssa.Value{}
	for _, v := range srcs {
		if r, ok := s.freshComp[v]; ok {
			s.freshSrcs[r] = append(s.freshSrcs[r], v)
		}
	}
}

// publishes reports whether use u of fresh value v can publish it; values
// u derives from v that are fresh too go to add.
func (s *fstate) publishes(v ssa.Value, u ssa.Instruction, add func(v, from ssa.Value), phis *[]*ssa.Phi) bool {
	switch u := u.(type) {
	case *ssa.DebugRef, *ssa.BinOp:
		return false
	case *ssa.FieldAddr:
		add(u, v)
		return false
	case *ssa.UnOp:
		if u.Op != token.MUL {
			return true
		}
		if _, ok := coreType(u.Type()).(*types.Pointer); ok {
			add(u, v)
			return false
		}
		return !pointerFree(u.Type())
	case *ssa.Phi:
		add(u, v)
		*phis = append(*phis, u)
		return false
	case *ssa.Call:
		if u.Call.IsInvoke() || u.Call.Value == v {
			return true
		}
		if _, ok := u.Call.Value.(*ssa.Function); !ok {
			return true // builtins, closures, function values
		}
		t := s.pkg.lookup(u.Call.StaticCallee())
		if t == nil {
			return true
		}
		for k, a := range u.Call.Args {
			if a == v && (k >= len(t.pubParam) || !t.pubParam[k]) {
				return true
			}
		}
		return false
	}
	return true
}
