package analyzer

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A strings.Builder or bytes.Buffer that a function declares for itself
// is local memory like any variable, although its methods are in another
// package: what String, Len or a read returns follows from what the
// writes before it wrote, in their order, and from the branches that
// decided whether they happened. Its methods are summarized here once,
// the way a seeded generator's are (seeded.go): each call reads the
// builder's content and its arguments, and writes them into the content.
// So k-nucleotide's input, built byte by byte from a seeded generator and
// a flag, is as clean as they are, where it used to be shared memory
// because the builder's address went to a function of package strings.
//
// Only the methods below count, and only on the builder itself (a local
// variable of the builder's type, or a pointer parameter that stays
// local): a method that returns a slice of the buffer's own array (Bytes,
// Next, AvailableBuffer) counts only when that slice is only read, one
// that hands the buffer to an io.Writer or io.Reader (WriteTo, ReadFrom)
// publishes it as before, and so does a copy of the builder's value (a
// bytes.Buffer copy shares the array) or a builder inside another
// variable.

// builderMethods are the methods that touch only the builder and their
// arguments, by type name.
var builderMethods = map[string]map[string]bool{
	"strings.Builder": {
		"Cap": true, "Grow": true, "Len": true, "Reset": true, "String": true,
		"Write": true, "WriteByte": true, "WriteRune": true, "WriteString": true,
	},
	"bytes.Buffer": {
		"Available": true, "Cap": true, "Grow": true, "Len": true, "Reset": true,
		"String": true, "Truncate": true, "Write": true, "WriteByte": true,
		"WriteRune": true, "WriteString": true, "Read": true, "ReadByte": true,
		"ReadBytes": true, "ReadRune": true, "ReadString": true,
		"UnreadByte": true, "UnreadRune": true,
		"Bytes": true, "Next": true, "AvailableBuffer": true,
	},
}

// aliasing are the methods whose result is a slice of the buffer's own
// array: a builder use only when that slice is only read, since a write
// through it would change the content where no method call shows it.
// Reading through the slice reads memory that a call returned, shared as
// for any such call.
var aliasing = map[string]bool{"Bytes": true, "Next": true, "AvailableBuffer": true}

// isBuilderMethod reports whether fn is one of builderMethods.
func isBuilderMethod(fn *types.Func) bool {
	k := keyOf(fn)
	return builderMethods[k.pkg+"."+k.recv][k.name]
}

// builderPtr reports whether t is a pointer to a strings.Builder or a
// bytes.Buffer.
func builderPtr(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return builderMethods[n.Obj().Pkg().Path()+"."+n.Obj().Name()] != nil
}

// builderUse reports whether u calls a method of builder v that keeps it
// (v is the receiver and no other argument), with v the builder variable
// itself or a parameter.
func builderUse(v ssa.Value, u ssa.Instruction) bool {
	if relaxed(RuleBuilder) {
		return false
	}
	switch v.(type) {
	case *ssa.Alloc, *ssa.Parameter:
	default:
		return false
	}
	c, ok := u.(*ssa.Call)
	if !ok || c.Call.IsInvoke() {
		return false
	}
	fn := staticFunc(&c.Call)
	if fn == nil || !isBuilderMethod(fn) || len(c.Call.Args) == 0 || c.Call.Args[0] != v {
		return false
	}
	for _, a := range c.Call.Args[1:] {
		if a == v {
			return false
		}
	}
	return !aliasing[fn.Name()] || readOnlyValue(c, 0)
}

// builderCopy reports whether u copies builder v's value out, which a
// bytes.Buffer shares its array with.
func builderCopy(v ssa.Value, u ssa.Instruction) bool {
	ld, ok := u.(*ssa.UnOp)
	return ok && ld.X == v && builderPtr(v.Type())
}

// builderOut reports whether u gives builder v to a function of another
// package other than through builderMethods: Bytes and the like return
// its array, and a summary of the function (its fact) cannot tell that
// a slice it returns is the builder's memory.
func (s *fstate) builderOut(v ssa.Value, u ssa.Instruction) bool {
	c, ok := u.(ssa.CallInstruction)
	if !ok || !builderPtr(v.Type()) || builderUse(v, u) {
		return false
	}
	fn := c.Common().StaticCallee()
	return fn == nil || fn.Pkg != s.fn.Pkg
}
