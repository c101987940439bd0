package analyzer

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// pkgState runs the dependence analysis over all functions of a package:
// summaries to a fixpoint over the package's call graph, then calling
// contexts to a fixpoint.
type pkgState struct {
	pass   *analysis.Pass
	ssa    *ssaResult
	funcs  []*fstate
	byFn   map[*ssa.Function]*fstate
	byObj  map[*types.Func]*fstate
	isMain bool
	// initOnly holds the package variables that are read-only once the
	// package is initialized; flagGlobals those of them that point to a
	// flag's value (inputs.go).
	initOnly    map[*ssa.Global]bool
	flagGlobals map[*ssa.Global]bool
	// factCache holds the summaries read from facts, nil for none.
	factCache map[*types.Func]*calleeSummary
}

func newPkgState(pass *analysis.Pass, res *ssaResult) *pkgState {
	ps := &pkgState{
		pass:   pass,
		ssa:    res,
		byFn:   map[*ssa.Function]*fstate{},
		byObj:  map[*types.Func]*fstate{},
		isMain: pass.Pkg.Name() == "main",

		factCache: map[*types.Func]*calleeSummary{},
	}
	for _, fn := range res.Funcs {
		if _, dup := ps.byFn[fn]; dup {
			continue
		}
		s := &fstate{
			pkg:     ps,
			fn:      fn,
			val:     map[ssa.Value]taint{},
			content: map[loc]taint{},
			all:     map[ssa.Value]taint{},
			callRes: map[*ssa.Call][]taint{},
			srcs:    map[any]*source{},
		}
		s.nslots = 2*len(fn.Params) + len(fn.FreeVars)
		s.slotProv = make([]*source, min(s.nslots, maxSlots))
		ps.funcs = append(ps.funcs, s)
		ps.byFn[fn] = s
		if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil {
			ps.byObj[obj] = s
		}
	}
	return ps
}

// run computes every function's taints, summaries and contexts.
func (ps *pkgState) run() {
	ps.findInitOnly()
	ps.findFlagGlobals()
	ps.findCallers()
	// Closures before their parents, callees (mostly) before callers; the
	// escape of parameters and captured variables starts optimistic and
	// is recomputed until it no longer shrinks.
	for i := len(ps.funcs) - 1; i >= 0; i-- {
		ps.funcs[i].init()
	}
	for changed := true; changed; {
		changed = false
		for i := len(ps.funcs) - 1; i >= 0; i-- {
			if s := ps.funcs[i]; s.fn.Blocks != nil && s.computePtrs() {
				changed = true
			}
		}
	}
	ps.findFresh()
	ps.setContexts()
	// Summaries: analyse callees before callers where the order allows,
	// and re-analyse the callers of a function whose summary grew.
	work := make([]*fstate, 0, len(ps.funcs))
	for i := len(ps.funcs) - 1; i >= 0; i-- {
		s := ps.funcs[i]
		s.queued = true
		work = append(work, s)
	}
	for len(work) > 0 {
		s := work[0]
		work = work[1:]
		s.queued = false
		if s.fn.Blocks == nil {
			continue
		}
		s.solve()
		for _, t := range s.exchange() {
			if !t.queued {
				t.queued = true
				work = append(work, t)
			}
		}
		if s.summarize() {
			for _, c := range s.callers {
				if !c.queued {
					c.queued = true
					work = append(work, c)
				}
			}
		}
	}
	ps.contexts()
}

// init sets the taints of parameters and free variables and computes the
// per-function structures that do not depend on taint.
func (s *fstate) init() {
	s.summary = make([]taint, s.fn.Signature.Results().Len())
	s.paramLocal = make([]bool, len(s.fn.Params))
	for i, p := range s.fn.Params {
		s.paramLocal[i] = s.fn.Blocks != nil && paramRoot(p.Type())
	}
	if s.parent != nil {
		s.fvLocal = make([]bool, len(s.fn.FreeVars))
		for i := range s.fvLocal {
			s.fvLocal[i] = true
		}
	}
	if s.fn.Blocks == nil {
		s.bodyless()
		return
	}
	s.cd = newCdep(s.fn)
	s.loops = newLoopInfo(s.fn, s.cd)
	for i, p := range s.fn.Params {
		s.val[p] = taint{m: slotBit(i)}
	}
	for i, fv := range s.fn.FreeVars {
		s.val[fv] = taint{m: slotBit(len(s.fn.Params) + i)}
	}
}

// bodyless summarizes a function without a body (assembly, linkname): its
// results depend on every argument, and are shared when it is given a
// pointer it may read through.
func (s *fstate) bodyless() {
	var m mask
	var p *source
	sig := s.fn.Signature
	params := sig.Params()
	if sig.Recv() != nil && pointerLike(sig.Recv().Type()) {
		m |= shared
	}
	n := params.Len()
	if sig.Recv() != nil {
		n++
	}
	for i := 0; i < n; i++ {
		m |= slotBit(i)
	}
	for i := 0; i < params.Len(); i++ {
		if pointerLike(params.At(i).Type()) {
			m |= shared
		}
	}
	if m&shared != 0 {
		p = &source{desc: "memory read by " + s.fn.Name() + " (no Go body)", pos: s.fn.Pos()}
	}
	for i := range s.summary {
		s.summary[i] = taint{m: m, p: p}
	}
}

// findCallers records in-package static callers and marks functions used
// as values (whose parameters may come from anywhere).
func (ps *pkgState) findCallers() {
	var dyn map[*types.TypeName]bool
	if ps.isMain {
		dyn = ps.dynamicTypes()
	}
	for _, s := range ps.funcs {
		obj, _ := s.fn.Object().(*types.Func)
		switch {
		case s.fn.Parent() != nil:
			// literal: escapes unless only called directly (below)
		case s.fn.Signature.Recv() != nil:
			// Methods can be called through interfaces; in package main
			// only those of types that may be in one.
			if tn := recvTypeName(s.fn.Signature); !ps.isMain || tn == nil || dyn[tn] {
				s.escapes = true
			}
		case obj != nil && obj.Exported() && !ps.isMain:
			s.escapes = true
		}
		if relaxed(RuleCallers) && s.fn.Parent() == nil && s.fn.Name() != "main" && s.fn.Name() != "init" && !strings.HasPrefix(s.fn.Name(), "init#") {
			s.escapes = true // as if anything could call it
		}
	}
	for _, s := range ps.funcs {
		for _, b := range s.fn.Blocks {
			for _, in := range b.Instrs {
				if _, ok := in.(*ssa.DebugRef); ok {
					continue // not a use
				}
				var buf [8]*ssa.Value
				ops := in.Operands(buf[:0])
				if _, ok := in.(*ssa.MakeClosure); ok {
					ops = ops[1:] // the closure's own function is not a use; its uses are
				}
				var callee ssa.Value
				if c, ok := in.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
					callee = c.Common().Value
				}
				for _, op := range ops {
					v := *op
					if mc, ok := v.(*ssa.MakeClosure); ok {
						v = mc.Fn
					}
					fn, ok := v.(*ssa.Function)
					if !ok {
						continue
					}
					t := ps.lookup(fn)
					if t == nil {
						// A wrapper (method value, method expression)
						// lets its method be called from anywhere.
						if obj, ok := fn.Object().(*types.Func); ok && fn.Synthetic != "" {
							if m := ps.byObj[obj.Origin()]; m != nil {
								m.escapes = true
							}
						}
						continue
					}
					if *op == callee {
						if _, isGo := in.(*ssa.Go); isGo {
							// Its arguments are evaluated here, in this
							// goroutine, so this is a call site like any
							// other for the parameters; only the captured
							// variables are shared with the new goroutine
							// (setContexts).
							t.spawned = true
						}
						t.callers = append(t.callers, s)
						if mc, ok := (*op).(*ssa.MakeClosure); ok {
							t.noteClosure(s, mc, in)
						}
						continue
					}
					t.escapes = true
				}
			}
		}
	}
	for _, s := range ps.funcs {
		if s.escapes || s.spawned || s.mc == nil {
			// Not run by its parent's goroutine only: its captured
			// variables are not the parent's local memory.
			s.parent, s.mc, s.sites = nil, nil, nil
		} else {
			s.parent.closures = append(s.parent.closures, s)
		}
	}
}

// setContexts gives functions called from unknown places their full
// context, and closures that may run elsewhere shared free variables. A
// closure started by go keeps the context its go statements give its
// parameters (contexts), like a closure called directly.
func (ps *pkgState) setContexts() {
	for _, s := range ps.funcs {
		s.ctx = shared
		if s.escapes {
			s.ctx = allSlots
			for i, p := range s.fn.Params {
				if i < len(s.slotProv) {
					s.slotProv[i] = &source{desc: "parameter " + p.Name() + ", which unknown callers pass", pos: p.Pos()}
				}
				if j, ok := memSlot(s.memBase(), i); ok && j < len(s.slotProv) {
					s.slotProv[j] = &source{desc: "memory through parameter " + p.Name() + ", which unknown callers pass", pos: p.Pos()}
				}
			}
		}
		if s.escapes || s.spawned {
			for i, fv := range s.fn.FreeVars {
				if !s.escapes && i < len(s.fvFrozen) && s.fvFrozen[i] {
					// A value its go statements pass (frozen.go).
					s.val[fv] = taint{m: slotBit(len(s.fn.Params) + i)}
					continue
				}
				// Variables captured by a closure that may run elsewhere
				// are shared with whoever runs it.
				p := &source{desc: "captured variable " + fv.Name(), pos: fv.Pos()}
				s.val[fv] = taint{m: shared | slotBit(len(s.fn.Params)+i), p: p}
			}
		}
	}
}

// lookup finds the in-package state of fn, through generic origins.
func (ps *pkgState) lookup(fn *ssa.Function) *fstate {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if s := ps.byFn[fn]; s != nil {
		return s
	}
	if obj, ok := fn.Object().(*types.Func); ok && fn.Synthetic == "" {
		return ps.byObj[obj.Origin()]
	}
	return nil
}

// callResults returns the taint of each result of a non-builtin call.
func (ps *pkgState) callResults(s *fstate, in ssa.Instruction, c *ssa.CallCommon, args []taint) []taint {
	n := c.Signature().Results().Len()
	out := make([]taint, n)
	all := func(t taint) []taint {
		for i := range out {
			out[i] = t
		}
		return out
	}
	pos := in.Pos()
	if c.IsInvoke() {
		return all(sharedFrom(s.src(in, pos, func() string { return "result of dynamic call to " + c.Method.Name() })))
	}
	callee := c.StaticCallee()
	if callee == nil {
		return all(sharedFrom(s.src(in, pos, func() string { return "result of a call through a function value" })))
	}
	var bindings []ssa.Value
	if mc, ok := c.Value.(*ssa.MakeClosure); ok {
		bindings = mc.Bindings
	}
	obj, _ := callee.Object().(*types.Func)
	if obj != nil {
		obj = obj.Origin()
		if isSeeder(obj) {
			// Made from its arguments: a seeded generator's state is its
			// seed (seeded.go).
			var t taint
			for _, a := range args {
				t.or(a)
			}
			if call, ok := in.(*ssa.Call); ok && seededRoot(call) && s.writeRoot(call, wholeRoot, t) {
				s.effectsGrew = true
			}
			return all(t)
		}
		if call, ok := in.(*ssa.Call); ok && (isGenerator(obj) || isBuilderMethod(obj) && builderUse(call.Call.Args[0], call)) {
			if t, ok := s.draw(call, args); ok {
				return all(t)
			}
		}
		if isInput(obj) {
			return all(sharedFrom(s.src(in, pos, func() string { return "nondeterministic input " + fnName(obj) + "()" })))
		}
		if desc, ok := sharedResult(obj); ok {
			return all(sharedFrom(s.src(in, pos, func() string { return desc })))
		}
		if isProgramInput(obj) {
			var t taint
			for _, a := range args {
				t.or(a)
			}
			return all(t)
		}
	}
	if t := ps.lookup(callee); t != nil && t.fn.Blocks == nil {
		// Bodyless: the summary says all.
		return ps.apply(s, in, c, args, bindings, t.summaryOf(), nil)
	}
	cs := ps.calleeInfo(c)
	if cs == nil {
		return all(sharedFrom(s.src(in, pos, func() string { return "result of " + callee.Name() + " (not analysed)" })))
	}
	return ps.apply(s, in, c, args, bindings, cs, obj)
}

// apply computes a call's results from the callee's summary, and records
// what the callee stores through local memory passed to it.
func (ps *pkgState) apply(s *fstate, in ssa.Instruction, c *ssa.CallCommon, args []taint, bindings []ssa.Value, cs *calleeSummary, obj *types.Func) []taint {
	pos := in.Pos()
	slots := append(args, make([]taint, len(bindings))...)
	for i, b := range bindings {
		slots[len(args)+i] = s.get(b)
	}
	mem := func(k int) taint {
		if k >= len(c.Args) {
			return sharedFrom(nil)
		}
		return s.memOf(c.Args[k], in, pos)
	}
	n := c.Signature().Results().Len()
	out := make([]taint, n)
	for j := range out {
		if j >= len(cs.results) {
			out[j] = sharedFrom(nil)
			continue
		}
		p := cs.results[j].p
		if p == nil && obj != nil && cs.results[j].m&shared != 0 {
			p = s.src(in, pos, func() string { return "result of " + fnName(obj) })
		}
		out[j] = s.translate(cs.results[j].m, p, cs, slots, mem)
	}
	if call, ok := in.(*ssa.Call); ok {
		if s.callEffects(call, cs, slots, mem) {
			s.effectsGrew = true
		}
		s.passGenerators(call)
	}
	return out
}

// contexts propagates taint into parameters: a function whose every static
// call site in the package passes clean data keeps clean parameters. A go
// or defer statement passes clean data only if the goroutines or deferred
// calls it makes line up by count in both runs (steady.go).
func (ps *pkgState) contexts() {
	work := append([]*fstate(nil), ps.funcs...)
	for _, s := range work {
		s.queued = true
		s.unsteady = s.escapes
	}
	for len(work) > 0 {
		s := work[0]
		work = work[1:]
		s.queued = false
		for _, b := range s.fn.Blocks {
			for _, in := range b.Instrs {
				ci, ok := in.(ssa.CallInstruction)
				if !ok || ci.Common().IsInvoke() {
					continue
				}
				c := ci.Common()
				fn := c.StaticCallee()
				if fn == nil {
					continue
				}
				t := ps.lookup(fn)
				if t == nil || t.escapes {
					continue
				}
				vals := c.Args
				if mc, ok := c.Value.(*ssa.MakeClosure); ok {
					vals = append(append([]ssa.Value(nil), vals...), mc.Bindings...)
				}
				grew := false
				mark := func(i int, tt taint) {
					bit := slotBit(i)
					if t.ctx&bit != 0 {
						return
					}
					if ok, src := s.eval(tt); ok {
						t.ctx |= bit
						if i < len(t.slotProv) && t.slotProv[i] == nil {
							t.slotProv[i] = src
						}
						grew = true
					}
				}
				s.at = in.Block()
				// Goroutines are matched by count, and deferred calls run
				// at the return in the order their statements ran.
				byCount := false
				switch in.(type) {
				case *ssa.Go, *ssa.Defer:
					byCount = true
				}
				var st siteCond
				if byCount || !t.unsteady {
					st = s.steadiness(in)
				}
				if (s.unsteady || st.shared) && !t.unsteady {
					t.unsteady = true
					grew = true
				}
				for i, a := range vals {
					tt := s.get(a)
					frozen := false
					if j := i - len(c.Args); j >= 0 && j < len(t.fvFrozen) && t.fvFrozen[j] {
						// What a frozen variable holds is passed like an
						// argument.
						tt.or(s.memOf(a, in, in.Pos()))
						if j < len(t.fvDeep) && t.fvDeep[j] {
							tt.or(s.heldContent(a))
						}
						frozen = true
					}
					if byCount && (i < len(c.Args) || frozen) {
						tt = s.orCounted(tt, st, t, i, a, in)
					}
					mark(i, tt)
				}
				for k, a := range c.Args {
					if j, ok := memSlot(t.memBase(), k); ok && k < len(t.fn.Params) && paramRoot(t.fn.Params[k].Type()) && t.ctx&slotBit(j) == 0 {
						tt := s.memOf(a, in, in.Pos())
						if byCount {
							tt = s.orCounted(tt, st, t, k, a, in)
						}
						mark(j, tt)
					}
				}
				if grew && !t.queued {
					t.queued = true
					work = append(work, t)
				}
			}
		}
	}
}
