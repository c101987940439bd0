package analyzer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A math/rand generator made by the program with a seed of its own
// (rand.New(rand.NewSource(42)), rand.NewPCG(1, 2)) draws the same numbers
// in every run in which it is asked the same questions in the same order:
// it is local memory like an allocation, whose content is its seed. Each
// draw reads that content and writes it again, under the branches that
// decide whether the draw happens, so a draw that one run makes and the
// other does not makes every later draw differ. A generator that escapes
// (captured by a goroutine, stored, passed to go or to code that may keep
// it) is shared memory, and its draws stay nondeterministic input; so are
// the package's global functions (rand.Intn), seeded at random since Go
// 1.20.

// isGenerator reports the methods that draw from a generator's own state.
func isGenerator(fn *types.Func) bool {
	k := keyOf(fn)
	switch k.pkg {
	case "math/rand":
		return k.recv == "Rand"
	case "math/rand/v2":
		return k.recv == "Rand" || k.recv == "PCG" || k.recv == "ChaCha8"
	}
	return false
}

// isSeeder reports the functions that make a generator or a source from
// their arguments alone.
func isSeeder(fn *types.Func) bool {
	k := keyOf(fn)
	if k.recv != "" {
		return false
	}
	switch k.pkg {
	case "math/rand":
		return k.name == "New" || k.name == "NewSource"
	case "math/rand/v2":
		return k.name == "New" || k.name == "NewPCG" || k.name == "NewChaCha8"
	}
	return false
}

// seededRoot reports whether call c makes a generator of its own: NewPCG
// or NewChaCha8, or rand.New of a source made for it and used nowhere else
// (another user of the source would draw from the same state).
func seededRoot(c *ssa.Call) bool {
	if relaxed(RuleSeeded) {
		return false
	}
	fn := staticFunc(&c.Call)
	if fn == nil || !isSeeder(fn) {
		return false
	}
	switch fn.Name() {
	case "NewPCG", "NewChaCha8":
		return true
	case "New":
	default:
		return false
	}
	if len(c.Call.Args) != 1 {
		return false
	}
	src := c.Call.Args[0]
	if mi, ok := src.(*ssa.MakeInterface); ok {
		if uses(mi) != 1 {
			return false
		}
		src = mi.X
	}
	sc, ok := src.(*ssa.Call)
	if !ok || uses(sc) != 1 {
		return false
	}
	f := staticFunc(&sc.Call)
	return f != nil && isSeeder(f) && f.Name() != "New" && f.Pkg() == fn.Pkg()
}

// uses counts the referrers of v that are not debug information.
func uses(v ssa.Value) int {
	n := 0
	if rs := v.Referrers(); rs != nil {
		for _, r := range *rs {
			if _, ok := r.(*ssa.DebugRef); !ok {
				n++
			}
		}
	}
	return n
}

// generatorPtr reports whether t is a pointer to a math/rand generator.
func generatorPtr(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() {
	case "math/rand":
		return n.Obj().Name() == "Rand"
	case "math/rand/v2":
		switch n.Obj().Name() {
		case "Rand", "PCG", "ChaCha8":
			return true
		}
	}
	return false
}

// drawUse reports whether u draws from generator v: v is the receiver of
// one of its methods and no other argument, so that the call keeps it.
func drawUse(v ssa.Value, u ssa.Instruction) bool {
	c, ok := u.(*ssa.Call)
	if !ok {
		return false
	}
	fn := staticFunc(&c.Call)
	if fn == nil || !isGenerator(fn) || fn.Signature().Recv() == nil || len(c.Call.Args) == 0 || c.Call.Args[0] != v {
		return false
	}
	for _, a := range c.Call.Args[1:] {
		if a == v {
			return false
		}
	}
	return true
}

// localGenerator reports whether v is a generator of this function's own
// (a seeded root or a pointer parameter that stays local).
func (s *fstate) localGenerator(v ssa.Value) bool {
	pi := s.ptrs[v]
	return pi != nil && !pi.unknown && len(pi.roots) > 0
}

// draw is the taint of a draw from a local generator (the call's
// arguments and the generator's state) and records the draw as a write of
// that state. ok is false when the receiver is no local generator.
func (s *fstate) draw(in *ssa.Call, args []taint) (t taint, ok bool) {
	c := &in.Call
	if len(c.Args) == 0 || !s.localGenerator(c.Args[0]) {
		return taint{}, false
	}
	t = s.load(c.Args[0], in, in.Pos())
	var w taint
	for _, a := range args {
		t.or(a)
	}
	for _, a := range args[1:] {
		w.or(a)
	}
	if s.store(c.Args[0], w, in.Block()) {
		s.effectsGrew = true
	}
	// Read fills a slice with what was drawn.
	for _, a := range c.Args[1:] {
		if s.store(a, t, in.Block()) {
			s.effectsGrew = true
		}
	}
	return t, true
}

// passGenerators records that a call passed the local generators among
// its arguments under the branches that decide whether it runs: the callee
// may draw from them, and a draw made in one run only moves every later
// one.
func (s *fstate) passGenerators(in *ssa.Call) {
	for _, a := range in.Call.Args {
		if (generatorPtr(a.Type()) || builderPtr(a.Type())) && s.localGenerator(a) {
			if s.store(a, taint{}, in.Block()) {
				s.effectsGrew = true
			}
		}
	}
}

// drawsSeeded reports whether call x draws from a generator local to its
// function: no nondeterministic input, its numbers follow from the seed.
func (o *oracle) drawsSeeded(x *ast.CallExpr) bool {
	for _, ref := range o.ps.ssa.refs[x] {
		call, ok := ref.X.(*ssa.Call)
		if !ok {
			continue
		}
		s := o.ps.byFn[ref.Parent()]
		if s == nil || len(call.Call.Args) == 0 {
			return false
		}
		return s.localGenerator(call.Call.Args[0])
	}
	return false
}
