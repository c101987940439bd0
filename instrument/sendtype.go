package instrument

import (
	"go/ast"
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
	writable := true
	s := types.TypeString(ch.Elem(), func(p *types.Package) string {
		if p == r.pkg {
			return ""
		}
		name, ok := names[p.Path()]
		if !ok {
			writable = false
		}
		return name
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
