package analyzer

import (
	"go/token"
	"go/types"
	"math/bits"

	"golang.org/x/tools/go/ssa"
)

// A mask says what a value depends on: bit 0 is shared data (something
// another goroutine or the environment can change between runs); bit i+1 is
// the function's i-th slot (parameters, then free variables). Masks are
// symbolic in the slots so that one pass over a function serves both its
// summary (which parameters reach which results) and every calling context.
type mask uint64

const (
	shared   mask = 1
	maxSlots      = 63
	allSlots mask = ^mask(0)
)

func slotBit(i int) mask {
	if i >= maxSlots {
		i = maxSlots - 1 // the last slot stands for all the rest
	}
	return 1 << uint(i+1)
}

// A source is where shared data was first read: the provenance that Why
// reports.
type source struct {
	desc string // "package variable x read"
	pos  token.Pos
}

// taint is a mask with the provenance of its shared bit.
type taint struct {
	m mask
	p *source
}

func (t *taint) or(u taint) bool {
	n := t.m | u.m
	if n == t.m {
		return false
	}
	if t.m&shared == 0 && u.m&shared != 0 {
		t.p = u.p
	}
	t.m = n
	return true
}

func sharedFrom(p *source) taint { return taint{m: shared, p: p} }

// fstate is the dependence state of one function.
type fstate struct {
	pkg *pkgState
	fn  *ssa.Function
	cd  *cdep

	val     map[ssa.Value]taint
	ptrs    map[ssa.Value]*ptrInfo
	content map[loc]taint       // per local root and field: what was stored there
	all     map[ssa.Value]taint // per local root: what was stored anywhere in it
	callRes map[*ssa.Call][]taint
	srcs    map[any]*source // by instruction, or by (instruction, address) for loads

	loops     *loopInfo
	exitCache map[int]cachedTaint
	version   int             // counts changes of val and content, for exitCache
	at        *ssa.BasicBlock // the block whose instruction is being evaluated: uses outside a loop see its exits

	nslots   int
	summary  []taint // per result
	ctx      mask    // slots that are tainted in some calling context, plus shared
	slotProv []*source
	// paramLocal says which pointer parameters do not escape this
	// function; effectsGrew that a call stored into local memory during
	// the current step.
	paramLocal  []bool
	lastWrites  []mask
	sumCache    *calleeSummary // summaryOf, valid while version is sumVersion
	sumVersion  int
	effectsGrew bool
	callers     []*fstate
	escapes     bool // used as a value: called from unknown places
	// spawned says a go statement starts the function: it runs in a
	// goroutine of its own, so a literal's captured variables are shared
	// with the goroutine that made it, while its parameters are still the
	// arguments the go statement evaluated (escapes stays false).
	spawned bool
	// unsteady says the function's calls in a goroutine may come a
	// different number of times, or with other arguments, before a given
	// one from run to run (steady.go).
	unsteady bool
	queued   bool

	// A closure that does not escape runs in its parent's goroutine, when
	// the parent calls it (directly or deferred). Its captured variables
	// are then the parent's local memory: the parent's stores are seen by
	// the closure's loads and the other way round.
	parent  *fstate
	mc      *ssa.MakeClosure  // the only MakeClosure of this closure
	sites   []ssa.Instruction // the parent's calls of it
	fvLocal []bool            // free variable i stays local in the closure
	// fvFrozen says free variable i is bound to a variable that no one
	// writes once the closure is made (frozen.go).
	fvFrozen []bool
	// fvDeep says what free variable i holds (a slice's elements, a
	// pointee) is frozen as well; holders are the function's variables
	// that hold pointers only it stores (frozen.go).
	fvDeep  []bool
	holders map[*ssa.Alloc][]ssa.Value
	// fvInput says free variable i is bound to a holder of pointers to
	// the program's input (inputs.go).
	fvInput  []bool
	closures []*fstate // non-escaping closures of this function

	// freshRet says the function returns only fresh memory, and
	// freshContent what that memory holds; pubParam says it does not
	// publish pointer parameter i, freshArg that moreover every call site
	// gives it fresh memory its caller does not publish; freshComp maps its fresh values that it
	// does not publish to their component, and freshSrcs each component to
	// the calls and parameters it comes from (fresh.go).
	freshRet     bool
	freshContent taint
	pubParam     []bool
	freshArg     []bool
	freshComp    map[ssa.Value]ssa.Value
	freshSrcs    map[ssa.Value][]ssa.Value
	freshBusy    map[ssa.Value]bool
}

func (s *fstate) get(v ssa.Value) taint {
	switch v.(type) {
	case *ssa.Const, *ssa.Function, *ssa.Global, *ssa.Builtin, nil:
		return taint{}
	}
	t := s.val[v]
	// A value used outside a loop that defines it depends on when the loop
	// ended.
	if s.loops != nil && s.at != nil {
		if in, ok := v.(ssa.Instruction); ok && in.Block() != nil && in.Block() != s.at {
			use := s.loops.chain[s.at.Index]
		outer:
			for _, h := range s.loops.chain[in.Block().Index] {
				for _, x := range use {
					if x == h {
						continue outer
					}
				}
				t.or(s.exitTaint(h))
			}
		}
	}
	return t
}

// exitTaint is the taint of the branches that can end loop h, cached until
// some taint changes.
func (s *fstate) exitTaint(h int) taint {
	if c, ok := s.exitCache[h]; ok && c.version == s.version {
		return c.t
	}
	t := s.condTaintAt(s.loops.exits[h], s.fn.Blocks[h])
	if s.exitCache == nil {
		s.exitCache = map[int]cachedTaint{}
	}
	s.exitCache[h] = cachedTaint{t, s.version}
	return t
}

type cachedTaint struct {
	t       taint
	version int
}

// condTaintAt is condTaint with the conditions read in block at.
func (s *fstate) condTaintAt(edges []cdEdge, at *ssa.BasicBlock) taint {
	saved := s.at
	s.at = at
	t := s.condTaint(edges)
	s.at = saved
	return t
}

// src returns the cached source for instruction in, creating it once.
func (s *fstate) src(key any, pos token.Pos, desc func() string) *source {
	if p, ok := s.srcs[key]; ok {
		return p
	}
	p := &source{desc: desc(), pos: pos}
	s.srcs[key] = p
	return p
}

// loadKey keys the source of a load through addr by instruction in (a call
// can read through several arguments).
type loadKey struct {
	in   ssa.Instruction
	addr ssa.Value
}

// condTaint ORs the conditions of the branch blocks listed.
func (s *fstate) condTaint(edges []cdEdge) taint {
	var t taint
	for _, e := range edges {
		b := e.c
		if in, ok := s.fn.Blocks[b].Instrs[len(s.fn.Blocks[b].Instrs)-1].(*ssa.If); ok {
			t.or(s.get(in.Cond))
		}
	}
	return t
}

// load is the taint of reading through addr (a pointer, slice or map).
func (s *fstate) load(addr ssa.Value, in ssa.Instruction, pos token.Pos) taint {
	t := s.get(addr)
	pi := s.ptrs[addr]
	if pi == nil || pi.unknown {
		if s.inputMem(addr) || s.frozenFV(addr) {
			return t
		}
		if m, ok := s.freshMem(addr); ok {
			t.or(m)
			return t
		}
		if g, ok := base(addr).(*ssa.Global); ok && s.pkg.initOnly[g] {
			return t
		}
		if !pos.IsValid() {
			pos = addr.Pos() // loads the builder made up (range) have no position
		}
		t.or(sharedFrom(s.src(loadKey{in, addr}, pos, func() string { return s.describe(addr) + " read" })))
		return t
	}
	for _, r := range pi.roots {
		t.or(s.readRoot(r, pi.field))
		if p, ok := r.(*ssa.Parameter); ok {
			t.or(s.paramMem(p, in, pos))
		}
	}
	return t
}

// paramMem is the taint of the caller's memory that parameter p points to:
// a slot of its own, or shared if the function has too many slots.
func (s *fstate) paramMem(p *ssa.Parameter, in ssa.Instruction, pos token.Pos) taint {
	k := paramIndex(s.fn, p)
	if i, ok := memSlot(s.memBase(), k); ok && k >= 0 {
		return taint{m: slotBit(i)}
	}
	return sharedFrom(s.src(loadKey{in, p}, pos, func() string { return "memory through parameter " + p.Name() + " read" }))
}

func paramIndex(fn *ssa.Function, p *ssa.Parameter) int {
	for i, q := range fn.Params {
		if q == p {
			return i
		}
	}
	return -1
}

// loc is a field of a local root, or the whole root.
type loc struct {
	r ssa.Value
	f int
}

// readRoot is what a load from field f (or wholeRoot) of root r can see.
func (s *fstate) readRoot(r ssa.Value, f int) taint {
	if f == wholeRoot {
		return s.all[r]
	}
	t := s.content[loc{r, f}]
	t.or(s.content[loc{r, wholeRoot}])
	return t
}

// writeRoot records t stored into field f (or wholeRoot) of root r.
func (s *fstate) writeRoot(r ssa.Value, f int, t taint) bool {
	c := s.content[loc{r, f}]
	if !c.or(t) {
		return false
	}
	s.content[loc{r, f}] = c
	s.version++
	a := s.all[r]
	a.or(t)
	s.all[r] = a
	return true
}

// store records that t was written into the roots of addr by instruction
// in of block b, also recording the conditions under which the write
// happens.
func (s *fstate) store(addr ssa.Value, t taint, b *ssa.BasicBlock) bool {
	pi := s.ptrs[addr]
	if pi == nil || pi.unknown {
		return false
	}
	changed := false
	for _, r := range pi.roots {
		x := t
		x.or(s.get(addr))
		x.or(s.condTaint(s.cd.conds(b.Index, rootBlock(r))))
		if s.writeRoot(r, pi.field, x) {
			changed = true
		}
	}
	return changed
}

func (s *fstate) set(v ssa.Value, t taint) bool {
	old := s.val[v]
	if old.or(t) {
		s.val[v] = old
		s.version++
		return true
	}
	return false
}

// solve runs the dependence transfer functions to a fixpoint.
func (s *fstate) solve() {
	for changed := true; changed; {
		changed = false
		for _, b := range s.fn.Blocks {
			for _, in := range b.Instrs {
				if s.step(in) {
					changed = true
				}
			}
		}
	}
}

func (s *fstate) step(in ssa.Instruction) bool {
	s.at = in.Block()
	switch in := in.(type) {
	case *ssa.Store:
		return s.store(in.Addr, s.get(in.Val), in.Block())
	case *ssa.MapUpdate:
		t := s.get(in.Key)
		t.or(s.get(in.Value))
		return s.store(in.Map, t, in.Block())
	case *ssa.Alloc, *ssa.DebugRef:
		return false
	case *ssa.Phi:
		var t taint
		for _, e := range in.Edges {
			t.or(s.get(e))
		}
		t.or(s.phiCond(in))
		return s.set(in, t)
	case *ssa.UnOp:
		switch in.Op {
		case token.ARROW:
			return s.set(in, sharedFrom(s.src(in, in.Pos(), func() string { return "channel receive" })))
		case token.MUL:
			return s.set(in, s.load(in.X, in, in.Pos()))
		}
		return s.set(in, s.get(in.X))
	case *ssa.Select:
		return s.set(in, sharedFrom(s.src(in, in.Pos(), func() string { return "select" })))
	case *ssa.Lookup:
		t := s.get(in.Index)
		if isMap(in.X.Type()) {
			t.or(s.load(in.X, in, in.Pos()))
		} else {
			t.or(s.get(in.X))
		}
		return s.set(in, t)
	case *ssa.Next:
		t := s.get(in.Iter)
		if r, ok := in.Iter.(*ssa.Range); ok && isMap(r.X.Type()) {
			// The order of a map's iteration differs between runs: the
			// keys and values seen so far are shared-dependent, even if
			// the map is local (the maprange TCP records each outcome,
			// but a value can outlive the loop).
			t.or(sharedFrom(s.src(in, r.Pos(), func() string { return "map iteration order" })))
		}
		return s.set(in, t)
	case *ssa.Extract:
		if c, ok := in.Tuple.(*ssa.Call); ok {
			if rs := s.callRes[c]; in.Index < len(rs) {
				return s.set(in, rs[in.Index])
			}
		}
		return s.set(in, s.get(in.Tuple))
	case *ssa.Call:
		return s.call(in)
	case *ssa.Convert:
		if isAddress(in) {
			// Where the allocator put an object differs between runs:
			// an address used as a number is nondeterministic input.
			t := s.get(in.X)
			t.or(sharedFrom(s.src(in, in.Pos(), func() string { return "a pointer's address" })))
			return s.set(in, t)
		}
		return s.set(in, s.get(in.X))
	case ssa.Value:
		// Everything else computes its value from its operands.
		var t taint
		var buf [8]*ssa.Value
		for _, op := range in.(ssa.Instruction).Operands(buf[:0]) {
			if *op != nil {
				t.or(s.get(*op))
			}
		}
		return s.set(in, t)
	}
	return false
}

// phiCond is the taint of the branches that choose among the predecessors
// of a phi's block: the control dependences of the predecessors up to the
// block's immediate dominator (outer conditions decide whether the block
// runs, not which way it came), and of those only the branches that choose
// between predecessors bringing different values.
func (s *fstate) phiCond(phi *ssa.Phi) taint {
	b := phi.Block()
	limit := -1
	if d := b.Idom(); d != nil {
		limit = d.Index
	}
	// For each deciding branch and each of its sides, the values that
	// side leads to. A branch all of whose sides lead to the same single
	// value does not choose anything.
	type choice struct {
		vals  [2]ssa.Value
		multi bool
	}
	var order []int
	seen := map[int]*choice{}
	note := func(c int, sides uint8, v ssa.Value) {
		x := seen[c]
		if x == nil {
			x = &choice{}
			seen[c] = x
			order = append(order, c)
		}
		for k := 0; k < 2; k++ {
			if sides&(1<<k) == 0 {
				continue
			}
			if x.vals[k] == nil {
				x.vals[k] = v
			} else if x.vals[k] != v {
				x.multi = true
			}
		}
	}
	for i, p := range b.Preds {
		v := phi.Edges[i]
		if len(p.Succs) > 1 {
			var sides uint8
			for k, s := range p.Succs {
				if s == b {
					sides |= 1 << k
				}
			}
			note(p.Index, sides, v)
		}
		for _, e := range s.cd.conds(p.Index, limit) {
			note(e.c, e.sides, v)
		}
	}
	var t taint
	for _, c := range order {
		x := seen[c]
		// A side that reaches no predecessor leaves without coming here
		// (a loop exit, a return): it chooses nothing among the values.
		if x.multi || (x.vals[0] != nil && x.vals[1] != nil && x.vals[0] != x.vals[1]) {
			t.or(s.condTaint([]cdEdge{{c: c}}))
		}
	}
	return t
}

// call handles a call's result and the memory effects of append and copy.
func (s *fstate) call(in *ssa.Call) bool {
	c := &in.Call
	args := make([]taint, len(c.Args))
	for i, a := range c.Args {
		args[i] = s.get(a)
	}
	if b, ok := c.Value.(*ssa.Builtin); ok {
		return s.builtin(in, b.Name(), args)
	}
	s.effectsGrew = false
	res := s.pkg.callResults(s, in, c, args)
	changed := s.effectsGrew
	if len(res) > 1 {
		old := s.callRes[in]
		if old == nil {
			old = make([]taint, len(res))
			s.callRes[in] = old
		}
		for i := range res {
			if old[i].or(res[i]) {
				changed = true
			}
		}
	}
	var t taint
	for _, r := range res {
		t.or(r)
	}
	return s.set(in, t) || changed
}

func (s *fstate) builtin(in *ssa.Call, name string, args []taint) bool {
	var t taint
	c := &in.Call
	switch name {
	case "len", "cap":
		a := c.Args[0]
		switch {
		case isChan(a.Type()):
			t = sharedFrom(s.src(in, in.Pos(), func() string { return "channel length" }))
		case isMap(a.Type()):
			t = s.load(a, in, in.Pos())
		default:
			t = args[0]
		}
		return s.set(in, t)
	case "append":
		// The length of the result depends on the slice and on how many
		// elements are appended; the elements go to memory.
		t = args[0]
		changed := false
		if len(c.Args) > 1 {
			el := args[1]
			if c.Signature().Variadic() || isSlice(c.Args[1].Type()) || isString(c.Args[1].Type()) {
				t.or(args[1])
				el.or(s.load(c.Args[1], in, in.Pos()))
			}
			changed = s.store(in, el, in.Block())
		}
		return s.set(in, t) || changed
	case "copy":
		t = args[0]
		t.or(args[1])
		el := args[1]
		if !isString(c.Args[1].Type()) {
			el.or(s.load(c.Args[1], in, in.Pos()))
		}
		changed := s.store(c.Args[0], el, in.Block())
		return s.set(in, t) || changed
	case "recover":
		return false // the panic value comes from this goroutine
	}
	for _, a := range args {
		t.or(a)
	}
	return s.set(in, t)
}

// summarize computes the taint of each result: the returned values and the
// branches that choose the return.
func (s *fstate) summarize() bool {
	n := s.fn.Signature.Results().Len()
	if s.summary == nil {
		s.summary = make([]taint, n)
	}
	changed := false
	// What is stored through parameters is part of the summary too.
	if s.lastWrites == nil {
		s.lastWrites = make([]mask, len(s.fn.Params))
	}
	for k, p := range s.fn.Params {
		if w := s.all[p].m; w != s.lastWrites[k] {
			s.lastWrites[k] = w
			changed = true
		}
	}
	for _, b := range s.fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		s.at = b
		ct := s.condTaint(s.cd.conds(b.Index, -1))
		for i, r := range ret.Results {
			if i >= n {
				break
			}
			t := s.get(r)
			t.or(ct)
			if s.summary[i].or(t) {
				changed = true
			}
		}
	}
	if s.summarizeFresh() {
		changed = true
	}
	return changed
}

// eval evaluates t in the function's calling contexts: it returns whether t
// is shared-dependent there, and the first source.
func (s *fstate) eval(t taint) (bool, *source) {
	x := t.m & (s.ctx | shared)
	if x == 0 {
		return false, nil
	}
	if x&shared != 0 {
		return true, t.p
	}
	// The highest slot: the memory a parameter points to says more than
	// the pointer.
	i := 63 - bits.LeadingZeros64(uint64(x)) - 1
	if i < len(s.slotProv) {
		return true, s.slotProv[i]
	}
	return true, nil
}

func isMap(t types.Type) bool   { _, ok := coreType(t).(*types.Map); return ok }
func isChan(t types.Type) bool  { _, ok := coreType(t).(*types.Chan); return ok }
func isSlice(t types.Type) bool { _, ok := coreType(t).(*types.Slice); return ok }
func isString(t types.Type) bool {
	b, ok := coreType(t).(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// coreType is the underlying type of t, or for a type parameter the single
// underlying type of its type set if there is one.
func coreType(t types.Type) types.Type {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return t.Underlying()
	}
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var core types.Type
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		var terms []types.Type
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			for j := 0; j < e.Len(); j++ {
				terms = append(terms, e.Term(j).Type())
			}
		default:
			terms = append(terms, e)
		}
		for _, term := range terms {
			u := coreType(term)
			if u == nil {
				return nil
			}
			if core == nil {
				core = u
			} else if !types.Identical(core, u) {
				return nil
			}
		}
	}
	return core
}

// isAddress reports whether c turns a pointer into an integer
// (uintptr(unsafe.Pointer(p))).
func isAddress(c *ssa.Convert) bool {
	from, ok := c.X.Type().Underlying().(*types.Basic)
	if !ok || from.Kind() != types.UnsafePointer {
		return false
	}
	to, ok := c.Type().Underlying().(*types.Basic)
	return ok && to.Info()&types.IsInteger != 0
}
