package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The functions sync.OnceFunc, OnceValue and OnceValues return run their
// argument in the first goroutine that calls them, like Once.Do: a call of
// such a value is a once TCP. The call is a call of a function value, so
// which calls those are is a question of where the value comes from: the
// result of one of the three, directly or through a phi, a closure's
// captured variable, or memory (a package variable, a local variable whose
// address is taken, a struct field) that some store of the package fills
// with one. A value stored in another package, passed as a parameter or
// returned by another function is not followed (docs/SOUNDNESS.md).

// onceFuncs answers "may this value be made by sync.OnceFunc & co.?" for
// one package.
type onceFuncs struct {
	ps *pkgState
	// stores holds, per memory location (a *ssa.Global, an *ssa.Alloc, or
	// a fieldKey), the values the package stores there; built on first use.
	stores map[any][]ssa.Value
	// closures maps a function literal to the MakeClosure instructions
	// that create it.
	closures map[*ssa.Function][]*ssa.MakeClosure
}

// fieldKey names field i of a struct type, wherever the struct is.
type fieldKey struct {
	st types.Type
	i  int
}

// fieldOf is the field a FieldAddr points to. The struct type is the
// pointer's element's underlying type (or core type, for a type
// parameter), or the pointer type itself when it has none.
func fieldOf(a *ssa.FieldAddr) fieldKey {
	if p, ok := coreType(a.X.Type()).(*types.Pointer); ok {
		if st := coreType(p.Elem()); st != nil {
			return fieldKey{st, a.Field}
		}
	}
	return fieldKey{a.X.Type(), a.Field}
}

// isOnceMaker reports whether fn is sync.OnceFunc, OnceValue or OnceValues.
func isOnceMaker(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	switch fn.Origin().Name() {
	case "OnceFunc", "OnceValue", "OnceValues":
		return true
	}
	return false
}

// onceCall reports whether call calls a function value that may have been
// made by sync.OnceFunc, OnceValue or OnceValues, and names the maker.
func (o *oracle) onceCall(call *ast.CallExpr) (string, bool) {
	tv, ok := o.info.Types[call.Fun]
	if !ok || tv.IsType() {
		return "", false
	}
	if _, ok := coreType(tv.Type).(*types.Signature); !ok {
		return "", false
	}
	if o.once == nil {
		o.once = &onceFuncs{ps: o.ps}
	}
	for _, ref := range o.ps.ssa.refs[ast.Unparen(call.Fun)] {
		v := ssa.Value(ref.X)
		if ref.IsAddr {
			if name, ok := o.once.fromMemory(v, map[ssa.Value]bool{}); ok {
				return name, true
			}
			continue
		}
		if name, ok := o.once.made(v, map[ssa.Value]bool{}); ok {
			return name, true
		}
	}
	return "", false
}

// made follows v back to a call of a once maker.
func (f *onceFuncs) made(v ssa.Value, seen map[ssa.Value]bool) (string, bool) {
	if seen[v] {
		return "", false
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Call:
		if callee := v.Call.StaticCallee(); callee != nil {
			if fn, ok := callee.Object().(*types.Func); ok && isOnceMaker(fn) {
				return "sync." + fn.Origin().Name(), true
			}
		}
	case *ssa.Phi:
		for _, e := range v.Edges {
			if name, ok := f.made(e, seen); ok {
				return name, true
			}
		}
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return f.fromMemory(v.X, seen)
		}
	case *ssa.Field:
		if st := coreType(v.X.Type()); st != nil {
			return f.stored(fieldKey{st, v.Field}, seen)
		}
	case *ssa.FreeVar:
		return f.captured(v, seen)
	}
	return "", false
}

// fromMemory reports whether the memory at addr may hold a once maker's
// function.
func (f *onceFuncs) fromMemory(addr ssa.Value, seen map[ssa.Value]bool) (string, bool) {
	switch a := addr.(type) {
	case *ssa.Global, *ssa.Alloc:
		return f.stored(a, seen)
	case *ssa.FieldAddr:
		return f.stored(fieldOf(a), seen)
	case *ssa.FreeVar:
		// A captured variable whose address the closure holds: the
		// parent's Alloc.
		return f.captured(a, seen)
	}
	return "", false
}

// stored reports whether some store of the package puts a once maker's
// function at loc.
func (f *onceFuncs) stored(loc any, seen map[ssa.Value]bool) (string, bool) {
	f.index()
	for _, v := range f.stores[loc] {
		if name, ok := f.made(v, seen); ok {
			return name, true
		}
	}
	return "", false
}

// captured follows a closure's free variable to what its creators bind to
// it: the value itself, or the address of the parent's variable.
func (f *onceFuncs) captured(fv *ssa.FreeVar, seen map[ssa.Value]bool) (string, bool) {
	f.index()
	fn := fv.Parent()
	i := -1
	for k, x := range fn.FreeVars {
		if x == fv {
			i = k
		}
	}
	if i < 0 {
		return "", false
	}
	for _, mc := range f.closures[fn] {
		b := mc.Bindings[i]
		if _, isPtr := fv.Type().Underlying().(*types.Pointer); isPtr {
			if name, ok := f.fromMemory(b, seen); ok {
				return name, true
			}
		}
		if name, ok := f.made(b, seen); ok {
			return name, true
		}
	}
	return "", false
}

// index collects the package's stores and closures, once.
func (f *onceFuncs) index() {
	if f.stores != nil {
		return
	}
	f.stores = map[any][]ssa.Value{}
	f.closures = map[*ssa.Function][]*ssa.MakeClosure{}
	for _, fn := range f.ps.ssa.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				switch in := in.(type) {
				case *ssa.Store:
					switch a := in.Addr.(type) {
					case *ssa.Global, *ssa.Alloc:
						f.stores[a] = append(f.stores[a], in.Val)
					case *ssa.FieldAddr:
						k := fieldOf(a)
						f.stores[k] = append(f.stores[k], in.Val)
					}
				case *ssa.MakeClosure:
					if c, ok := in.Fn.(*ssa.Function); ok {
						f.closures[c] = append(f.closures[c], in)
					}
				}
			}
		}
	}
}
