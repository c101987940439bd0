package analyzer

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// ptrInfo says which local allocations a pointer-like value (pointer, slice,
// map) may point into. A value points to goroutine-local memory only when it
// is derived from allocations of this function that never escape; anything
// else (parameters, globals, loaded pointers, call results, escaped
// allocations) is unknown, and reading through it reads shared data.
type ptrInfo struct {
	roots   []ssa.Value // Alloc, MakeSlice, MakeMap, or append calls
	unknown bool
	// field is the field of the roots' outermost struct that the value
	// points into, or wholeRoot: one level of field sensitivity, so that
	// shared data stored in one field of a local struct does not taint the
	// others.
	field int
}

const (
	wholeRoot = -1
	noField   = -2 // not yet known (during the fixpoint)
)

// addField merges field f into p.
func (p *ptrInfo) addField(f int) bool {
	switch {
	case p.field == f || p.field == wholeRoot:
		return false
	case p.field == noField:
		p.field = f
	default:
		p.field = wholeRoot
	}
	return true
}

func (p *ptrInfo) add(q *ptrInfo) bool {
	changed := false
	if q != nil && !q.unknown && len(q.roots) > 0 && p.addField(q.field) {
		changed = true
	}
	if q == nil || q.unknown {
		if !p.unknown {
			p.unknown = true
			changed = true
		}
		return changed
	}
	for _, r := range q.roots {
		found := false
		for _, x := range p.roots {
			if x == r {
				found = true
				break
			}
		}
		if !found {
			p.roots = append(p.roots, r)
			changed = true
		}
	}
	return changed
}

// computePtrs fills s.ptrs: derivation from local roots, then escape. It
// reports whether the locality of a parameter or free variable changed.
func (s *fstate) computePtrs() bool {
	ptrs := map[ssa.Value]*ptrInfo{}
	get := func(v ssa.Value) *ptrInfo {
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			return &ptrInfo{field: noField}
		}
		return ptrs[v]
	}
	derive := func(v ssa.Value, from ...ssa.Value) bool {
		p := ptrs[v]
		if p == nil {
			p = &ptrInfo{field: noField}
			ptrs[v] = p
		}
		changed := false
		for _, f := range from {
			if p.add(get(f)) {
				changed = true
			}
		}
		return changed
	}
	for _, b := range s.fn.Blocks {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap:
				v := in.(ssa.Value)
				ptrs[v] = &ptrInfo{roots: []ssa.Value{v}, field: wholeRoot}
			case *ssa.Call:
				if b, ok := in.Call.Value.(*ssa.Builtin); (ok && b.Name() == "append") || seededRoot(in) {
					ptrs[in] = &ptrInfo{roots: []ssa.Value{in}, field: wholeRoot}
				}
			}
		}
	}
	s.localFreeVars(ptrs)
	s.holders = s.findHolders()
	// Pointer parameters are roots too: what the function stores through
	// them is its effect on the caller's memory, and whether they escape
	// tells callers whether passing local memory publishes it.
	for _, p := range s.fn.Params {
		if paramRoot(p.Type()) {
			ptrs[p] = &ptrInfo{roots: []ssa.Value{p}, field: wholeRoot}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, b := range s.fn.Blocks {
			for _, in := range b.Instrs {
				var c bool
				switch in := in.(type) {
				case *ssa.FieldAddr:
					// A field of the root itself selects a field; deeper
					// fields stay within the outer one.
					if x := get(in.X); x != nil && !x.unknown && len(x.roots) > 0 {
						p := ptrs[in]
						if p == nil {
							p = &ptrInfo{field: noField}
							ptrs[in] = p
						}
						f := x.field
						if f == wholeRoot {
							f = in.Field
						}
						c = p.addField(f)
						for _, r := range x.roots {
							if p.add(&ptrInfo{roots: []ssa.Value{r}, field: p.field}) {
								c = true
							}
						}
					} else {
						c = derive(in, in.X)
					}
				case *ssa.UnOp:
					// Loading a holder yields a value stored into it
					// (frozen.go).
					if a, ok := in.X.(*ssa.Alloc); ok && in.Op == token.MUL {
						if vals, ok := s.holders[a]; ok {
							c = derive(in, vals...)
						}
					}
				case *ssa.IndexAddr:
					c = derive(in, in.X)
				case *ssa.Slice:
					c = derive(in, in.X)
				case *ssa.SliceToArrayPointer:
					c = derive(in, in.X)
				case *ssa.ChangeType:
					c = derive(in, in.X)
				case *ssa.Convert:
					if !isUnsafe(in.Type()) && !isUnsafe(in.X.Type()) {
						c = derive(in, in.X)
					}
				case *ssa.Phi:
					if pointerLike(in.Type()) {
						c = derive(in, in.Edges...)
					}
				case *ssa.Call:
					if b, ok := in.Call.Value.(*ssa.Builtin); ok {
						switch b.Name() {
						case "append":
							c = derive(in, in.Call.Args[0])
						case "ssa:wrapnilchk":
							c = derive(in, in.Call.Args[0])
						}
					}
				}
				if c {
					changed = true
				}
			}
		}
	}
	// Escape: a root escapes when any value derived from it is used in a
	// way that can publish it.
	escaped := map[ssa.Value]bool{}
	pubs := map[ssa.Value][]ssa.Instruction{} // roots published to read-only closures and go statements (frozen.go)
	for v, p := range ptrs {
		if len(p.roots) == 0 || v.Referrers() == nil {
			continue
		}
		for _, u := range *v.Referrers() {
			if g, ok := u.(*ssa.Go); ok && s.readOnlyGoArg(v, g) {
				for _, r := range p.roots {
					pubs[r] = append(pubs[r], g)
				}
				continue
			}
			if mc, ok := u.(*ssa.MakeClosure); ok {
				if !s.bindingEscapes(v, mc) {
					continue
				}
				if s.readOnlyBinding(v, mc) {
					for _, r := range p.roots {
						pubs[r] = append(pubs[r], mc)
					}
					continue
				}
			}
			if s.escapingUse(v, u) {
				for _, r := range p.roots {
					escaped[r] = true
				}
				break
			}
		}
	}
	s.freeze(ptrs, pubs, escaped)
	for _, p := range ptrs {
		if p.field == noField {
			p.field = wholeRoot
		}
		for _, r := range p.roots {
			if escaped[r] {
				p.unknown = true
				break
			}
		}
	}
	changed := false
	if s.parent != nil {
		for i, fv := range s.fn.FreeVars {
			if l := !escaped[fv]; l != s.fvLocal[i] {
				s.fvLocal[i] = l
				changed = true
			}
		}
	}
	for i, p := range s.fn.Params {
		if l := paramRoot(p.Type()) && !escaped[p]; l != s.paramLocal[i] {
			s.paramLocal[i] = l
			changed = true
		}
	}
	s.ptrs = ptrs
	if changed {
		s.version++ // summaryOf caches the locality
	}
	return changed
}

// escapingUse reports whether instruction u can publish pointer v to code
// that this analysis does not see or to another goroutine.
func (s *fstate) escapingUse(v ssa.Value, u ssa.Instruction) bool {
	if builderCopy(v, u) || s.builderOut(v, u) {
		// Copied out, or given to a method that hands out its array or
		// to any other function: published (builder.go).
		return true
	}
	switch u := u.(type) {
	case *ssa.DebugRef, *ssa.UnOp, *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Slice, *ssa.Lookup,
		*ssa.Range, *ssa.Phi, *ssa.SliceToArrayPointer, *ssa.BinOp, *ssa.If, *ssa.ChangeType,
		*ssa.Field, *ssa.Index, *ssa.TypeAssert, *ssa.Extract:
		return false
	case *ssa.Store:
		if a, ok := u.Addr.(*ssa.Alloc); ok && u.Val == v {
			// Into a holder, it escapes when the holder does (frozen.go).
			_, held := s.holders[a]
			return !held
		}
		return u.Val == v
	case *ssa.MapUpdate:
		return u.Map != v
	case *ssa.Convert:
		return isUnsafe(u.Type())
	case *ssa.Call:
		if flagVarUse(v, u) || drawUse(v, u) || builderUse(v, u) {
			// The flag package writes a flag's variable at Parse, from the
			// command line; a generator's method keeps its receiver.
			return false
		}
		if b, ok := u.Call.Value.(*ssa.Builtin); ok {
			switch b.Name() {
			case "len", "cap", "append", "copy", "delete", "clear", "print", "println", "ssa:wrapnilchk", "min", "max":
				return false
			}
			return true
		}
		// A callee that keeps the argument local does not publish it.
		info := s.pkg.calleeInfo(&u.Call)
		if info == nil || u.Call.Value == v {
			return true
		}
		for k, a := range u.Call.Args {
			if a == v && (k >= len(info.local) || !info.local[k]) {
				return true
			}
		}
		return false
	}
	return true
}

// paramRoot reports whether a parameter of type t is tracked as a root of
// the caller's memory: pointers, slices and maps.
func paramRoot(t types.Type) bool {
	switch coreType(t).(type) {
	case *types.Pointer, *types.Slice, *types.Map:
		return true
	}
	return false
}

func pointerLike(t types.Type) bool {
	switch u := coreType(t).(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case nil:
		return true // a type parameter without a core type: anything
	}
	return false
}

func isUnsafe(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && (b.Kind() == types.UnsafePointer || b.Kind() == types.Uintptr)
}

// base strips address arithmetic to find where an address comes from.
func base(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Slice:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.SliceToArrayPointer:
			v = x.X
		default:
			return v
		}
	}
}

// describe names the shared memory that addr reaches, for Why.
func (s *fstate) describe(addr ssa.Value) string {
	switch b := base(addr).(type) {
	case *ssa.Global:
		name := b.Name()
		if b.Pkg != nil && b.Pkg != s.fn.Pkg && b.Pkg.Pkg != nil {
			name = b.Pkg.Pkg.Name() + "." + name
		}
		return "package variable " + name
	case *ssa.Parameter:
		return "memory through parameter " + b.Name()
	case *ssa.FreeVar:
		return "captured variable " + b.Name()
	case *ssa.Alloc:
		if b.Comment != "" {
			return "variable " + b.Comment + " (its address escapes)"
		}
		return "memory whose address escapes"
	case *ssa.MakeSlice, *ssa.MakeMap:
		return "memory whose address escapes"
	case *ssa.Call:
		return "memory through a pointer returned by a call"
	}
	return "memory through a pointer"
}
