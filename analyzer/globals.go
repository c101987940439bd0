package analyzer

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// findInitOnly finds the package variables that are written only while the
// package initializes and whose address never leaves the package's loads
// and stores: after initialization, which runs in one goroutine in a fixed
// order, they are read-only, so reading them is not reading shared data.
//
// Only variables that no other package can write qualify: unexported ones,
// or any of package main. What is read-only is the variable's own memory: a
// slice's header, a pointer, an array's elements. Memory reached through a
// pointer loaded from it (a slice's elements, a map, a pointee) can be
// written through any copy of that pointer, so reading it still reads
// shared data: base stops at the load, which is not the variable.
func (ps *pkgState) findInitOnly() {
	ps.initOnly = map[*ssa.Global]bool{}
	if relaxed(RuleInitOnly) {
		return
	}
	for _, m := range ps.ssa.Pkg.Members {
		g, ok := m.(*ssa.Global)
		if !ok || g.Object() == nil {
			continue
		}
		if g.Object().Exported() && !ps.isMain {
			continue
		}
		ps.initOnly[g] = true
	}
	if len(ps.initOnly) == 0 {
		return
	}
	for _, fn := range ps.ssa.Funcs {
		inInit := fn.Parent() == nil && (fn.Name() == "init" || strings.HasPrefix(fn.Name(), "init#"))
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if _, ok := in.(*ssa.DebugRef); ok {
					continue
				}
				var buf [8]*ssa.Value
				for _, op := range in.Operands(buf[:0]) {
					g, ok := (*op).(*ssa.Global)
					if !ok || !ps.initOnly[g] {
						continue
					}
					if !readOnlyUse(g, in, inInit, 0) {
						delete(ps.initOnly, g)
					}
				}
			}
		}
	}
}

// readOnlyUse reports whether instruction u only reads through address v
// (or writes it during initialization, or makes it a flag's variable).
func readOnlyUse(v ssa.Value, u ssa.Instruction, inInit bool, depth int) bool {
	if depth > 8 {
		return false
	}
	switch u := u.(type) {
	case *ssa.DebugRef:
		return true
	case *ssa.UnOp:
		return true // a load
	case *ssa.Call:
		// flag.IntVar(&v, ...): the flag package writes v at Parse, from
		// the command line, which is the program's input (inputs.go).
		return flagVarUse(v, u)
	case *ssa.Store:
		return u.Addr == v && u.Val != v && inInit
	case *ssa.FieldAddr, *ssa.IndexAddr:
		x := u.(ssa.Value)
		if x.Referrers() == nil {
			return true
		}
		for _, w := range *x.Referrers() {
			if !readOnlyUse(x, w, inInit, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
