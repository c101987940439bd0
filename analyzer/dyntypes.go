package analyzer

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// dynamicTypes finds the named types of package main whose methods may be
// called dynamically: types converted to an interface, passed as type
// arguments (generic code may convert them), and every type reachable from
// those through fields, elements and signatures (reflection and promotion
// reach them). Only package main can be treated this way: no other package
// can name its types.
func (ps *pkgState) dynamicTypes() map[*types.TypeName]bool {
	out := map[*types.TypeName]bool{}
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			out[t.Origin().Obj()] = true
			if ta := t.TypeArgs(); ta != nil {
				for i := 0; i < ta.Len(); i++ {
					walk(ta.At(i))
				}
			}
			walk(t.Underlying())
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				walk(t.Field(i).Type())
			}
		case *types.Signature:
			walk(t.Params())
			walk(t.Results())
		case *types.Tuple:
			for i := 0; i < t.Len(); i++ {
				walk(t.At(i).Type())
			}
		}
	}
	for _, inst := range ps.pass.TypesInfo.Instances {
		if inst.TypeArgs != nil {
			for i := 0; i < inst.TypeArgs.Len(); i++ {
				walk(inst.TypeArgs.At(i))
			}
		}
	}
	for _, s := range ps.funcs {
		for _, b := range s.fn.Blocks {
			for _, in := range b.Instrs {
				switch in := in.(type) {
				case *ssa.MakeInterface:
					walk(in.X.Type())
				case ssa.CallInstruction:
					if fn := in.Common().StaticCallee(); fn != nil {
						for _, ta := range fn.TypeArgs() {
							walk(ta)
						}
					}
				}
			}
		}
	}
	return out
}

// recvTypeName is the named type of a method's receiver.
func recvTypeName(sig *types.Signature) *types.TypeName {
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}
