package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// leafPackages are the standard packages whose functions and methods call
// no code but what they are handed: they keep no hooks a program can set,
// start no goroutine, block on nothing and do no I/O. A call of one, given
// no value that can carry code (inert), reaches no instrumented code and so
// records nothing, which lets the loop around it be packed (internal/flow,
// packLoops). time is not here (Sleep is a recorded wait), nor math/rand
// (its values are the program's input), nor fmt, errors or sort, whose
// parameters are interfaces anyway.
var leafPackages = map[string]bool{
	"bytes": true, "strings": true, "strconv": true,
	"unicode": true, "unicode/utf8": true, "unicode/utf16": true,
	"math": true, "math/bits": true, "math/cmplx": true,
	"slices": true, "cmp": true,
	"encoding/binary": true, "encoding/hex": true, "encoding/base64": true,
	"hash/crc32": true, "hash/crc64": true, "hash/adler32": true, "hash/fnv": true,
}

// Leaf implements flow.LeafOracle: call is a builtin other than panic and
// close (a recorded channel operation), a conversion, or a static call of
// a function or method of a leaf package whose receiver and parameters are
// all inert, on no address of a for statement's own variable.
func (o *oracle) Leaf(call *ast.CallExpr) bool {
	fun := ast.Unparen(call.Fun)
	if tv, ok := o.info.Types[fun]; ok && tv.IsType() {
		return true // a conversion runs no code
	}
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := o.info.Uses[id].(*types.Builtin); ok {
			return b.Name() != "panic" && b.Name() != "close"
		}
	}
	fn := typeutil.StaticCallee(o.info, call)
	if fn != nil && o.silent[fn.Origin()] {
		// A silent function of the package records nothing (silent.go).
		return !o.methodOnLoopVar(call, fn)
	}
	if fn == nil || fn.Pkg() == nil || !leafPackages[fn.Pkg().Path()] {
		return false
	}
	sig, ok := o.info.TypeOf(fun).(*types.Signature) // instantiated, without the receiver
	if !ok {
		return false
	}
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if s := o.info.Selections[sel]; s != nil && (!inert(s.Recv(), nil) || o.loopVarAddr(sel.X, fn)) {
			return false
		}
	}
	for i := range sig.Params().Len() {
		if !inert(sig.Params().At(i).Type(), nil) {
			return false
		}
	}
	return true
}

// inert reports whether no value of type t can carry code for a callee to
// run: t holds no function, interface, channel, unsafe.Pointer or type
// parameter, through pointers, slices, arrays, maps and struct fields.
// seen breaks the cycles of recursive types.
func inert(t types.Type, seen map[types.Type]bool) bool {
	switch t := t.(type) {
	case *types.Basic:
		return t.Kind() != types.UnsafePointer
	case *types.Named, *types.Alias:
		if seen[t] {
			return true
		}
		if seen == nil {
			seen = map[types.Type]bool{}
		}
		seen[t] = true
		return inert(t.Underlying(), seen)
	case *types.Pointer:
		return inert(t.Elem(), seen)
	case *types.Slice:
		return inert(t.Elem(), seen)
	case *types.Array:
		return inert(t.Elem(), seen)
	case *types.Map:
		return inert(t.Key(), seen) && inert(t.Elem(), seen)
	case *types.Struct:
		for i := range t.NumFields() {
			if !inert(t.Field(i).Type(), seen) {
				return false
			}
		}
		return true
	}
	return false // signatures, interfaces, channels, type parameters, tuples
}

// loopVarAddr reports whether calling method fn on x takes the address of a
// variable declared in a for statement's init (b.WriteByte with b a
// strings.Builder). A packed loop's init moves out of the for statement,
// which is the same program only while no iteration's variable outlives its
// iteration (Go 1.22 gives each its own); a pointer handed to a method is
// one it may keep (strings.Builder keeps its own address, to catch copies).
func (o *oracle) loopVarAddr(x ast.Expr, fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	if _, ptr := recv.Type().Underlying().(*types.Pointer); !ptr {
		return false
	}
	if _, ptr := o.info.TypeOf(x).Underlying().(*types.Pointer); ptr {
		return false
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return true // a field or element of something: do not look further
	}
	obj := o.info.Uses[id]
	if obj == nil {
		return true
	}
	if o.forScopes == nil {
		o.forScopes = map[*types.Scope]bool{}
		for n, sc := range o.info.Scopes {
			if _, ok := n.(*ast.ForStmt); ok {
				o.forScopes[sc] = true
			}
		}
	}
	return o.forScopes[obj.Parent()]
}

// PlainRange implements flow.LeafOracle: the operand of s is a slice, a
// pointer to an array or an integer (a constant only when the key, if
// any, is declared by the loop, which gives it the constant's type): what
// the instrumenter's loop over an index reads is then what the range
// reads, element by element, with the key's type. A string's range
// decodes runes, an array's copies the array, and a channel's, a map's
// and a function's run what their heads record.
func (o *oracle) PlainRange(s *ast.RangeStmt) bool {
	tv, ok := o.info.Types[s.X]
	if !ok || tv.Type == nil {
		return false
	}
	switch t := tv.Type.Underlying().(type) {
	case *types.Slice:
		return true
	case *types.Pointer:
		_, ok := t.Elem().Underlying().(*types.Array)
		return ok
	case *types.Basic:
		if t.Info()&types.IsInteger == 0 {
			return false
		}
		// A constant's type may be the key's, which the index copied
		// into a variable of its own would not have.
		return tv.Value == nil && t.Info()&types.IsUntyped == 0 || s.Key == nil || s.Tok == token.DEFINE
	}
	return false
}
