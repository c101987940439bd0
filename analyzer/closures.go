package analyzer

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// noteClosure records that parent calls this closure, created by mc, at
// instruction site. A closure created by several MakeClosures is treated as
// escaping.
func (s *fstate) noteClosure(parent *fstate, mc *ssa.MakeClosure, site ssa.Instruction) {
	if s.mc != nil && s.mc != mc {
		s.escapes = true
		return
	}
	s.parent, s.mc = parent, mc
	s.sites = append(s.sites, site)
}

// localFreeVars makes the free variables of a non-escaping closure roots of
// its local memory, and records which of them stay local.
func (s *fstate) localFreeVars(ptrs map[ssa.Value]*ptrInfo) {
	if s.parent == nil {
		return
	}
	for _, fv := range s.fn.FreeVars {
		ptrs[fv] = &ptrInfo{roots: []ssa.Value{fv}, field: wholeRoot}
	}
}

// bindingEscapes reports whether passing v to the closure made by mc lets v
// escape: it does unless the closure is one of s's non-escaping closures
// and keeps every free variable bound to v local.
func (s *fstate) bindingEscapes(v ssa.Value, mc *ssa.MakeClosure) bool {
	c := s.pkg.lookup(mc.Fn.(*ssa.Function))
	if c == nil || c.parent != s || c.mc != mc || len(c.fvLocal) != len(mc.Bindings) {
		return true
	}
	for i, b := range mc.Bindings {
		if b == v && !c.fvLocal[i] {
			return true
		}
	}
	return false
}

// exchange moves what was stored into captured variables between a
// function and its non-escaping closures after s was solved, and returns
// the functions whose state grew. Masks do not translate between the two
// functions' slots, so anything non-clean crosses as shared.
func (s *fstate) exchange() []*fstate {
	var grew []*fstate
	// Parent to closures.
	for _, c := range s.closures {
		changed := false
		for i, fv := range c.fn.FreeVars {
			if c.writeRoot(fv, wholeRoot, s.bound(c.mc.Bindings[i], fv.Name())) {
				changed = true
			}
		}
		if changed {
			grew = append(grew, c)
		}
	}
	// Closure to parent.
	if p := s.parent; p != nil {
		changed := false
		for i, fv := range s.fn.FreeVars {
			t := asShared(s.readRoot(fv, wholeRoot), "captured variable "+fv.Name(), fv.Pos())
			pi := p.ptrs[s.mc.Bindings[i]]
			if pi == nil || pi.unknown {
				continue
			}
			for _, r := range pi.roots {
				x := t
				for _, site := range s.sites {
					x.or(p.condTaint(p.cd.conds(site.Block().Index, rootBlock(r))))
				}
				if x.m == 0 {
					continue
				}
				if p.writeRoot(r, pi.field, x) {
					changed = true
				}
			}
		}
		if changed {
			grew = append(grew, p)
		}
	}
	return grew
}

// bound is what a closure reads through a free variable bound to v.
func (s *fstate) bound(v ssa.Value, name string) taint {
	pi := s.ptrs[v]
	if pi == nil || pi.unknown {
		return sharedFrom(&source{desc: "captured variable " + name, pos: v.Pos()})
	}
	var t taint
	for _, r := range pi.roots {
		t.or(s.readRoot(r, pi.field))
	}
	return asShared(t, "captured variable "+name, v.Pos())
}

func asShared(t taint, desc string, pos token.Pos) taint {
	if t.m == 0 {
		return taint{}
	}
	if t.p == nil || t.m&shared == 0 {
		return sharedFrom(&source{desc: desc, pos: pos})
	}
	return taint{m: shared, p: t.p}
}

// rootBlock is the block of a root: an instruction of the function, or the
// entry for a free variable.
func rootBlock(r ssa.Value) int {
	if in, ok := r.(ssa.Instruction); ok && in.Block() != nil {
		return in.Block().Index
	}
	return 0
}
