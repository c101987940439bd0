package analyzer

import (
	"go/token"
	"go/types"

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
	return loadsOnly(v, func(*ssa.UnOp) bool { return true })
}

// onlyReadDeep is onlyRead where the loaded values are only read through
// as well.
func onlyReadDeep(v ssa.Value) bool {
	return loadsOnly(v, func(ld *ssa.UnOp) bool { return readOnlyValue(ld, 0) })
}

// loadsOnly reports whether every use of address v loads from it, or from
// a field or element of it, with loads that ok accepts.
func loadsOnly(v ssa.Value, ok func(*ssa.UnOp) bool) bool {
	rs := v.Referrers()
	if rs == nil {
		return true
	}
	for _, u := range *rs {
		switch u := u.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if u.X != v || u.Op != token.MUL || !ok(u) {
				return false
			}
		case *ssa.FieldAddr:
			if !loadsOnly(u, ok) {
				return false
			}
		case *ssa.IndexAddr:
			if u.X != v || !loadsOnly(u, ok) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// readOnlyGoArg reports whether go statement g passes pointer v only as
// arguments that its statically known callee only reads through: a
// publication like a read-only closure's (freeze decides whether the
// memory is frozen). The go statement evaluates its arguments before the
// goroutine begins, so what the parent wrote before it is what the
// goroutine reads, unless someone writes the memory after.
func (s *fstate) readOnlyGoArg(v ssa.Value, g *ssa.Go) bool {
	c := g.Common()
	if c.IsInvoke() || c.Value == v {
		return false
	}
	fn := c.StaticCallee()
	if fn == nil || len(fn.Blocks) == 0 || len(fn.Params) != len(c.Args) || s.pkg.lookup(fn) == nil {
		return false
	}
	if mc, ok := c.Value.(*ssa.MakeClosure); ok {
		for _, b := range mc.Bindings {
			if b == v {
				return false
			}
		}
	}
	passed := false
	for k, a := range c.Args {
		if a != v {
			continue
		}
		if !paramRoot(fn.Params[k].Type()) || !readOnlyValue(fn.Params[k], 0) {
			return false
		}
		passed = true
	}
	return passed
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
// closures and go statements (pubs: root to the MakeClosures and Gos) are
// frozen, marks the others escaped, and records in each closure which of
// its free variables are bound to frozen variables. A frozen root passed
// to a go statement stays local: the go statement passes its content to
// the callee's memory slot like any call (contexts).
func (s *fstate) freeze(ptrs map[ssa.Value]*ptrInfo, pubs map[ssa.Value][]ssa.Instruction, escaped map[ssa.Value]bool) {
	for r, mcs := range pubs {
		if escaped[r] {
			continue
		}
		switch r.(type) {
		case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap:
		default:
			// Parameters, free variables, appends (whose array an older
			// slice may share): memory written where this does not see.
			escaped[r] = true
			continue
		}
		if relaxed(RuleFrozen) || s.writtenAfter(r, ptrs, mcs) {
			escaped[r] = true
		}
	}
	deep := s.freezeHeld(ptrs, pubs, escaped)
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
				c.fvDeep = make([]bool, len(mc.Bindings))
				c.fvInput = make([]bool, len(mc.Bindings))
				for i := range c.fvFrozen {
					c.fvFrozen[i], c.fvDeep[i], c.fvInput[i] = true, true, true
				}
			}
			for i, v := range mc.Bindings {
				if !frozen(v) || !onlyRead(c.fn.FreeVars[i]) {
					c.fvFrozen[i] = false
				}
				if !c.fvFrozen[i] || !deep(v) || !onlyReadDeep(c.fn.FreeVars[i]) {
					c.fvDeep[i] = false
				}
				if a, ok := v.(*ssa.Alloc); !ok || !s.inputMem(a) {
					c.fvInput[i] = false
				}
			}
		}
	}
}

// writtenAfter reports whether root r may be written once one of the
// closures mcs exists or one of the go statements among them ran.
func (s *fstate) writtenAfter(r ssa.Value, ptrs map[ssa.Value]*ptrInfo, mcs []ssa.Instruction) bool {
	for v, p := range ptrs {
		if !hasRoot(p, r) || v.Referrers() == nil {
			continue
		}
		var avoid ssa.Instruction
		if in, ok := r.(ssa.Instruction); ok && base(v) == r {
			avoid = in
		}
		for _, u := range *v.Referrers() {
			if !writes(v, u) {
				continue
			}
			if mc, ok := u.(*ssa.MakeClosure); ok && s.readOnlyBinding(v, mc) {
				continue
			}
			if g, ok := u.(*ssa.Go); ok && s.readOnlyGoArg(v, g) {
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
// variable, or a field or element of one, or memory reached through what
// such a variable holds when that is frozen too: what it reads is the
// slot of the free variable, which its calling contexts fill.
func (s *fstate) frozenFV(addr ssa.Value) bool {
	flags := s.fvFrozen
	b := base(addr)
	if ld, ok := b.(*ssa.UnOp); ok && ld.Op == token.MUL {
		flags, b = s.fvDeep, base(ld.X)
	}
	fv, ok := b.(*ssa.FreeVar)
	if !ok {
		return false
	}
	for i, x := range s.fn.FreeVars {
		if x == fv {
			return i < len(flags) && flags[i]
		}
	}
	return false
}

// A captured variable that holds a slice, map or pointer publishes what
// it points to as well. When the variable is a holder (only its own
// function stores into it, directly, and closures only read through it),
// loading it yields one of the values stored into it, so those values'
// roots are derived from the load; the roots escape when the variable
// does. When the
// variable is frozen, its roots are published to the closures with it: a
// root that no one writes once a closure is made (through the variable or
// otherwise), read by closures that only read through the variable, is
// frozen too, and the closures read it as their free variable's slot
// (fvDeep).

// findHolders finds the function's holders, with the values stored into
// each.
func (s *fstate) findHolders() map[*ssa.Alloc][]ssa.Value {
	holders := map[*ssa.Alloc][]ssa.Value{}
	for _, b := range s.fn.Blocks {
		for _, in := range b.Instrs {
			a, ok := in.(*ssa.Alloc)
			if !ok || a.Referrers() == nil {
				continue
			}
			switch coreType(a.Type().(*types.Pointer).Elem()).(type) {
			case *types.Slice, *types.Map, *types.Pointer:
			default:
				continue
			}
			var vals []ssa.Value
			ok = true
			for _, u := range *a.Referrers() {
				switch u := u.(type) {
				case *ssa.DebugRef:
				case *ssa.UnOp:
					ok = ok && u.Op == token.MUL
				case *ssa.Store:
					ok = ok && u.Addr == ssa.Value(a) && u.Val != ssa.Value(a)
					vals = append(vals, u.Val)
				case *ssa.MakeClosure:
					// A closure that writes through it, even one only
					// called here, would write the held roots unseen.
					ok = ok && deepBindings(a, []ssa.Instruction{u}, s)
				default:
					ok = false
				}
			}
			if ok {
				holders[a] = vals
			}
		}
	}
	return holders
}

// freezeHeld decides, after the holders' own escape, which roots the
// holders hold escape with them and which are frozen with them, and
// returns which bindings publish only frozen roots.
func (s *fstate) freezeHeld(ptrs map[ssa.Value]*ptrInfo, pubs map[ssa.Value][]ssa.Instruction, escaped map[ssa.Value]bool) func(ssa.Value) bool {
	held := func(a *ssa.Alloc, f func(r ssa.Value)) {
		for _, v := range s.holders[a] {
			if p := ptrs[v]; p != nil {
				for _, r := range p.roots {
					f(r)
				}
			}
		}
	}
	for a := range s.holders {
		mcs := pubs[a]
		switch {
		case escaped[a], mcs != nil && !deepBindings(a, mcs, s):
			held(a, func(r ssa.Value) { escaped[r] = true })
		case mcs != nil:
			held(a, func(r ssa.Value) {
				if s.writtenAfter(r, ptrs, mcs) {
					escaped[r] = true
				}
			})
		}
	}
	return func(v ssa.Value) bool {
		p := ptrs[v]
		if p == nil {
			return false
		}
		ok := true
		for _, r := range p.roots {
			a, isA := r.(*ssa.Alloc)
			if _, h := s.holders[a]; !isA || !h {
				return false
			}
			held(a, func(r ssa.Value) { ok = ok && !escaped[r] })
			for _, v := range s.holders[a] {
				if q := ptrs[v]; q == nil || q.unknown {
					ok = false
				}
			}
		}
		return ok
	}
}

// deepBindings reports whether every closure of mcs only reads through
// what the free variables bound to a hold.
func deepBindings(a *ssa.Alloc, pubs []ssa.Instruction, s *fstate) bool {
	for _, in := range pubs {
		mc, ok := in.(*ssa.MakeClosure)
		if !ok {
			return false // a holder's address passed to go is not a holder
		}
		c := s.pkg.lookup(mc.Fn.(*ssa.Function))
		if c == nil || len(c.fn.FreeVars) != len(mc.Bindings) {
			return false
		}
		for i, b := range mc.Bindings {
			if b == ssa.Value(a) && !onlyReadDeep(c.fn.FreeVars[i]) {
				return false
			}
		}
	}
	return true
}

// readOnlyValue reports whether pointer, slice or map h is only read
// through: indexed and loaded, measured, compared, sliced to be read.
func readOnlyValue(h ssa.Value, depth int) bool {
	rs := h.Referrers()
	if rs == nil {
		return true
	}
	if depth > 4 {
		return false
	}
	for _, u := range *rs {
		switch u := u.(type) {
		case *ssa.DebugRef, *ssa.BinOp, *ssa.If:
		case *ssa.Index:
		case *ssa.Lookup:
		case *ssa.IndexAddr:
			if u.X != h || !onlyRead(u) {
				return false
			}
		case *ssa.FieldAddr:
			if !onlyRead(u) {
				return false
			}
		case *ssa.UnOp:
			if u.Op != token.MUL {
				return false
			}
		case *ssa.Slice:
			if u.X != h || !readOnlyValue(u, depth+1) {
				return false
			}
		case *ssa.Call:
			if !readOnlyCall(h, u.Common(), depth) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// readOnlyCall reports whether call c only reads through h: len or cap,
// or a function with a body in this package whose parameters given h are
// only read through in turn. A worker that hands its frozen table to a
// helper of its own reads it no less than one that indexes it itself; the
// helper's parameter reads the memory its call sites pass (contexts).
func readOnlyCall(h ssa.Value, c *ssa.CallCommon, depth int) bool {
	if b, ok := c.Value.(*ssa.Builtin); ok {
		return b.Name() == "len" || b.Name() == "cap"
	}
	fn := c.StaticCallee()
	if c.IsInvoke() || c.Value == h || fn == nil || len(fn.Blocks) == 0 || len(fn.Params) != len(c.Args) {
		return false
	}
	if mc, ok := c.Value.(*ssa.MakeClosure); ok {
		for _, b := range mc.Bindings {
			if b == h {
				return false
			}
		}
	}
	for k, a := range c.Args {
		if a == h && !readOnlyValue(fn.Params[k], depth+1) {
			return false
		}
	}
	return true
}

// heldContent is what the roots held by the holders v points to contain.
func (s *fstate) heldContent(v ssa.Value) taint {
	var t taint
	p := s.ptrs[v]
	if p == nil {
		return sharedFrom(nil)
	}
	for _, r := range p.roots {
		a, _ := r.(*ssa.Alloc)
		for _, h := range s.holders[a] {
			q := s.ptrs[h]
			if q == nil || q.unknown {
				return sharedFrom(nil)
			}
			for _, x := range q.roots {
				t.or(s.readRoot(x, wholeRoot))
			}
		}
	}
	return t
}
