package analyzer

import (
	"golang.org/x/tools/go/ssa"
)

// A variable that a closure captures is the parent's memory, shared with
// the goroutine that runs the closure. But a variable that no one writes
// once a closure capturing it exists, and that the closures only read, is
// a value: every goroutine that reads it, the parent and those started
// after the closure was made, reads what the parent wrote before (the
// closure is made before the go statement that starts it, which happens
// before the goroutine begins). Such a variable is *frozen*: it stays the
// parent's local memory, and a closure started by go reads it as a value
// that its go statements pass, like a parameter (contexts). This needs no
// assumption about data races: no write can race with a read when there
// is no write after the closure is made.
//
// A write comes after a closure was made when some path leads from the
// MakeClosure to it without passing the variable's own allocation (which
// makes a new variable: Go 1.22's per-iteration loop variables are
// allocated again before the post statement copies and increments them).
// A write through anything but the allocation itself (a phi of several
// allocations) counts on every path. Calls given the variable's address
// count as writes, and closures that write it (or pass its address on)
// leave it shared.

// onlyRead reports whether every use of address v loads from it, or
// from a field or element of it.
func onlyRead(v ssa.Value) bool {
	rs := v.Referrers()
	if rs == nil {
		return true
	}
	for _, u := range *rs {
		switch u := u.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if u.X != v {
				return false
			}
		case *ssa.FieldAddr:
			if !onlyRead(u) {
				return false
			}
		case *ssa.IndexAddr:
			if u.X != v || !onlyRead(u) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// readOnlyBinding reports whether every free variable of the closure made
// by mc that is bound to v is only read by it.
func (s *fstate) readOnlyBinding(v ssa.Value, mc *ssa.MakeClosure) bool {
	c := s.pkg.lookup(mc.Fn.(*ssa.Function))
	if c == nil || len(c.fn.FreeVars) != len(mc.Bindings) {
		return false
	}
	for i, b := range mc.Bindings {
		if b == v && !onlyRead(c.fn.FreeVars[i]) {
			return false
		}
	}
	return true
}

// freeze decides which of the allocations published to read-only
// closures (pubs: root to the MakeClosures) are frozen, marks the others
// escaped, and records in each closure which of its free variables are
// bound to frozen variables.
func (s *fstate) freeze(ptrs map[ssa.Value]*ptrInfo, pubs map[ssa.Value][]*ssa.MakeClosure, escaped map[ssa.Value]bool) {
	for r, mcs := range pubs {
		if escaped[r] {
			continue
		}
		a, ok := r.(*ssa.Alloc)
		if !ok || s.writtenAfter(a, ptrs, mcs) {
			escaped[r] = true
		}
	}
	frozen := func(v ssa.Value) bool {
		p := ptrs[v]
		if p == nil || p.unknown || len(p.roots) == 0 {
			return false
		}
		for _, r := range p.roots {
			if escaped[r] || pubs[r] == nil {
				return false
			}
		}
		return true
	}
	seen := map[*fstate]bool{}
	for _, b := range s.fn.Blocks {
		for _, in := range b.Instrs {
			mc, ok := in.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			c := s.pkg.lookup(mc.Fn.(*ssa.Function))
			if c == nil || len(c.fn.FreeVars) != len(mc.Bindings) {
				continue
			}
			if !seen[c] {
				seen[c] = true
				c.fvFrozen = make([]bool, len(mc.Bindings))
				for i := range c.fvFrozen {
					c.fvFrozen[i] = true
				}
			}
			for i, v := range mc.Bindings {
				if !frozen(v) || !onlyRead(c.fn.FreeVars[i]) {
					c.fvFrozen[i] = false
				}
			}
		}
	}
}

// writtenAfter reports whether allocation a may be written once one of
// the closures mcs exists.
func (s *fstate) writtenAfter(a *ssa.Alloc, ptrs map[ssa.Value]*ptrInfo, mcs []*ssa.MakeClosure) bool {
	for v, p := range ptrs {
		if !hasRoot(p, a) || v.Referrers() == nil {
			continue
		}
		var avoid ssa.Instruction
		if base(v) == ssa.Value(a) {
			avoid = a
		}
		for _, u := range *v.Referrers() {
			if !writes(v, u) {
				continue
			}
			if mc, ok := u.(*ssa.MakeClosure); ok && s.readOnlyBinding(v, mc) {
				continue
			}
			if _, ok := u.(*ssa.MakeClosure); ok {
				return true // a closure that writes it, whenever it runs
			}
			for _, mc := range mcs {
				if reachesAvoiding(mc, u, avoid) {
					return true
				}
			}
		}
	}
	return false
}

func hasRoot(p *ptrInfo, r ssa.Value) bool {
	for _, x := range p.roots {
		if x == r {
			return true
		}
	}
	return false
}

// writes reports whether u may write through address v.
func writes(v ssa.Value, u ssa.Instruction) bool {
	switch u := u.(type) {
	case *ssa.Store:
		return u.Addr == v
	case *ssa.MakeClosure:
		return true
	case ssa.CallInstruction:
		if b, ok := u.Common().Value.(*ssa.Builtin); ok {
			switch b.Name() {
			case "len", "cap", "print", "println", "min", "max", "ssa:wrapnilchk":
				return false
			}
		}
		return true
	case *ssa.MapUpdate:
		return u.Map == v
	}
	return false
}

// reachesAvoiding reports whether some path leads from instruction from
// to instruction to without passing avoid (nil: avoid nothing).
func reachesAvoiding(from, to, avoid ssa.Instruction) bool {
	// scan looks through b from instruction k: 1 found, -1 blocked, 0 on.
	scan := func(b *ssa.BasicBlock, k int) int {
		for ; k < len(b.Instrs); k++ {
			switch b.Instrs[k] {
			case to:
				return 1
			case avoid:
				return -1
			}
		}
		return 0
	}
	fb := from.Block()
	k := 0
	for fb.Instrs[k] != from {
		k++
	}
	switch scan(fb, k+1) {
	case 1:
		return true
	case -1:
		return false
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), fb.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		switch scan(b, 0) {
		case 1:
			return true
		case 0:
			work = append(work, b.Succs...)
		}
	}
	return false
}

// frozenFV reports whether addr is a free variable bound to a frozen
// variable, or a field or element of one: what it reads is the slot of
// the free variable, which its calling contexts fill.
func (s *fstate) frozenFV(addr ssa.Value) bool {
	fv, ok := base(addr).(*ssa.FreeVar)
	if !ok {
		return false
	}
	for i, x := range s.fn.FreeVars {
		if x == fv {
			return i < len(s.fvFrozen) && s.fvFrozen[i]
		}
	}
	return false
}
