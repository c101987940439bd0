package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// sendTypeArg returns "[E]" when `ch <- v` needs Send instantiated with the
// channel's element type E, and "" when inference finds it. Send's T is
// inferred from both ch and v, and inference does not use assignability: a
// *rat sent on a chan of interface item makes T both item and *rat
// (powser2.go in Go's test/chan). Naming E explicitly makes v an ordinary
// assignable argument again. When E cannot be written in this file (a type
// of a package the file does not import), the send is left to inference
// with a warning: the build will then name the line.
func (r *rewriter) sendTypeArg(n *ast.SendStmt) string {
	ct, vt := r.info.TypeOf(n.Chan), r.info.TypeOf(n.Value)
	if ct == nil || vt == nil {
		return ""
	}
	ch, ok := ct.Underlying().(*types.Chan)
	if !ok {
		return ""
	}
	if b, ok := vt.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		// Untyped constants and nil take the type inferred from ch.
		return ""
	}
	if types.Identical(vt, ch.Elem()) {
		return ""
	}
	names := r.importNames()
	writable := r.resolves(ch.Elem(), n.Pos(), names)
	s := types.TypeString(ch.Elem(), func(p *types.Package) string {
		if p == r.pkg {
			return ""
		}
		return names[p.Path()]
	})
	if !writable {
		r.warn(n.Pos(), "send of %s on a channel of %s: the element type is not nameable in this file, left to type inference", vt, ch.Elem())
		return ""
	}
	return "[" + s + "]"
}

// importNames maps the import paths of the file to the names the file uses
// for them ("" for a dot import). Blank imports name nothing.
func (r *rewriter) importNames() map[string]string {
	out := map[string]string{}
	for _, spec := range r.file.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		if spec.Name != nil {
			switch spec.Name.Name {
			case "_":
				continue
			case ".":
				out[path] = ""
				continue
			}
			out[path] = spec.Name.Name
			continue
		}
		if pn := r.info.PkgNameOf(spec); pn != nil {
			out[path] = pn.Name()
		}
	}
	return out
}

// resolves tells whether every name types.TypeString writes for t means,
// at pos, what it means in t: a type of this package not shadowed by a
// local declaration, a type of another package through an import name no
// local declaration hides.
func (r *rewriter) resolves(t types.Type, pos token.Pos, names map[string]string) bool {
	scope := r.pkg.Scope().Innermost(pos)
	if scope == nil {
		scope = r.pkg.Scope()
	}
	ok := true
	seen := map[types.Type]bool{}
	var visit func(t types.Type)
	object := func(obj types.Object) {
		switch {
		case obj.Pkg() == nil:
			// Universe types (error, comparable, any) can be shadowed too.
			if _, found := scope.LookupParent(obj.Name(), pos); found != obj {
				ok = false
			}
		case obj.Pkg() == r.pkg:
			if _, found := scope.LookupParent(obj.Name(), pos); found != obj {
				ok = false
			}
		default:
			name, imported := names[obj.Pkg().Path()]
			if !imported {
				ok = false
				return
			}
			if name == "" {
				return // a dot import: the name is the type's own
			}
			_, found := scope.LookupParent(name, pos)
			if pn, isPkg := found.(*types.PkgName); !isPkg || pn.Imported() != obj.Pkg() {
				ok = false
			}
		}
	}
	visit = func(t types.Type) {
		if !ok || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			object(t.Obj())
			for i := 0; i < t.TypeArgs().Len(); i++ {
				visit(t.TypeArgs().At(i))
			}
		case *types.Alias:
			object(t.Obj())
			for i := 0; i < t.TypeArgs().Len(); i++ {
				visit(t.TypeArgs().At(i))
			}
		case *types.TypeParam:
			object(t.Obj())
		case *types.Basic:
			if t.Kind() == types.UnsafePointer {
				ok = false // written unsafe.Pointer, whatever the file calls unsafe
				return
			}
			if obj := types.Universe.Lookup(t.Name()); obj != nil {
				object(obj)
			}
		case *types.Pointer:
			visit(t.Elem())
		case *types.Slice:
			visit(t.Elem())
		case *types.Array:
			visit(t.Elem())
		case *types.Chan:
			visit(t.Elem())
		case *types.Map:
			visit(t.Key())
			visit(t.Elem())
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				f := t.Field(i)
				if !f.Exported() && f.Pkg() != r.pkg {
					ok = false // another package's unexported field
					return
				}
				visit(f.Type())
			}
		case *types.Tuple:
			for i := 0; i < t.Len(); i++ {
				visit(t.At(i).Type())
			}
		case *types.Signature:
			visit(t.Params())
			visit(t.Results())
		case *types.Interface:
			for i := 0; i < t.NumEmbeddeds(); i++ {
				visit(t.EmbeddedType(i))
			}
			for i := 0; i < t.NumExplicitMethods(); i++ {
				visit(t.ExplicitMethod(i).Type())
			}
		case *types.Union:
			for i := 0; i < t.Len(); i++ {
				visit(t.Term(i).Type())
			}
		}
	}
	visit(t)
	return ok
}
