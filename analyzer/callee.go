package analyzer

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// calleeSummary is what a caller needs to know about a callee: its result
// taints, whether it keeps each pointer argument local, and what it stores
// through it. Masks are in the callee's slots: parameters, free variables,
// then the memory each pointer parameter points to (from memBase).
type calleeSummary struct {
	results []taint
	memBase int
	nparams int
	local   []bool // parameter i does not escape the callee
	writes  []mask // what the callee stores through parameter i
	wsrc    []*source
	obj     *types.Func
}

// memSlot returns the slot of the memory pointed to by parameter k of a
// function whose memory slots start at base, if it has one.
func memSlot(base, k int) (int, bool) {
	i := base + k
	return i, i < maxSlots-1
}

// summaryOf returns the summary of the in-package function s.
func (s *fstate) summaryOf() *calleeSummary {
	if s.sumCache != nil && s.sumVersion == s.version {
		return s.sumCache
	}
	cs := s.buildSummary()
	s.sumCache, s.sumVersion = cs, s.version
	return cs
}

func (s *fstate) buildSummary() *calleeSummary {
	cs := &calleeSummary{results: s.summary, memBase: s.memBase(), nparams: len(s.fn.Params), local: s.paramLocal}
	cs.writes = make([]mask, len(s.fn.Params))
	cs.wsrc = make([]*source, len(s.fn.Params))
	for k, p := range s.fn.Params {
		if s.paramLocal[k] {
			cs.writes[k] = s.all[p].m
			cs.wsrc[k] = s.all[p].p
		}
	}
	return cs
}

func (s *fstate) memBase() int { return len(s.fn.Params) + len(s.fn.FreeVars) }

// calleeInfo returns the summary of the static callee of c, from the
// package or from a fact, or nil.
func (ps *pkgState) calleeInfo(c *ssa.CallCommon) *calleeSummary {
	if c.IsInvoke() {
		return nil
	}
	callee := c.StaticCallee()
	if callee == nil {
		return nil
	}
	if t := ps.lookup(callee); t != nil {
		if t.fn.Blocks == nil {
			return nil // bodyless: may do anything with a pointer
		}
		return t.summaryOf()
	}
	obj, _ := callee.Object().(*types.Func)
	if obj == nil {
		return nil
	}
	obj = obj.Origin()
	if cs, ok := ps.factCache[obj]; ok {
		return cs
	}
	var f funcFact
	if !ps.pass.ImportObjectFact(obj, &f) {
		ps.factCache[obj] = nil
		return nil
	}
	cs := &calleeSummary{memBase: f.Params, nparams: f.Params, obj: obj, local: make([]bool, f.Params), writes: make([]mask, f.Params)}
	for _, m := range f.Results {
		cs.results = append(cs.results, taint{m: mask(m)})
	}
	for k := 0; k < f.Params && k < 64; k++ {
		cs.local[k] = f.Local&(1<<k) != 0
		if k < len(f.Writes) {
			cs.writes[k] = mask(f.Writes[k])
		}
	}
	ps.factCache[obj] = cs
	return cs
}

// memOf is the taint of the memory that pointer v reaches, in s.
func (s *fstate) memOf(v ssa.Value, in ssa.Instruction, pos token.Pos) taint {
	pi := s.ptrs[v]
	if pi == nil || pi.unknown {
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			return taint{}
		}
		if m, ok := s.freshMem(v); ok {
			return m
		}
		return s.load(v, in, pos)
	}
	var t taint
	for _, r := range pi.roots {
		t.or(s.readRoot(r, pi.field))
		if p, ok := r.(*ssa.Parameter); ok {
			// The caller's memory, as load reads it: passing a parameter
			// on passes what the caller's callers put there.
			t.or(s.paramMem(p, in, pos))
		}
	}
	return t
}

// translate turns a mask of the callee's slots into a taint of the caller:
// parameters become the arguments' taints, memory slots the taint of the
// memory the arguments point to.
func (s *fstate) translate(m mask, p *source, cs *calleeSummary, slots []taint, mem func(k int) taint) taint {
	var t taint
	if m&shared != 0 {
		t.or(taint{m: shared, p: p})
	}
	for i, a := range slots {
		if i >= cs.memBase {
			break
		}
		if m&slotBit(i) != 0 {
			t.or(a)
		}
	}
	for k := 0; k < cs.nparams; k++ {
		if i, ok := memSlot(cs.memBase, k); ok && m&slotBit(i) != 0 {
			t.or(mem(k))
		}
	}
	return t
}

// callEffects records what a call stores through the local memory it is
// given, and returns whether that grew.
func (s *fstate) callEffects(in *ssa.Call, cs *calleeSummary, slots []taint, mem func(k int) taint) bool {
	changed := false
	for k, a := range in.Call.Args {
		if k >= len(cs.writes) || cs.writes[k] == 0 || !cs.local[k] {
			continue
		}
		pi := s.ptrs[a]
		if pi == nil || pi.unknown {
			continue
		}
		var p *source
		if k < len(cs.wsrc) {
			p = cs.wsrc[k]
		}
		if p == nil {
			p = s.src(writeKey{in, k}, in.Pos(), func() string {
				if cs.obj != nil {
					return "memory written by " + fnName(cs.obj)
				}
				return "memory written by the call"
			})
		}
		w := s.translate(cs.writes[k], p, cs, slots, mem)
		if s.store(a, w, in.Block()) {
			changed = true
		}
	}
	return changed
}

type writeKey struct {
	in ssa.Instruction
	k  int
}
