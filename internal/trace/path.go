package trace

import (
	"fmt"
	"strings"

	"github.com/divergo/divergo/internal/tbb"
)

// namePaths gives every goroutine its spawn path (see the package comment).
func (r *Reader) namePaths() {
	done := map[uint64]string{}
	var name func(e *indexEntry, depth int) string
	name = func(e *indexEntry, depth int) string {
		if p, ok := done[e.ID]; ok {
			return p
		}
		var p string
		switch {
		case e.ID == 1:
			p = "main"
		case e.Parent == 0:
			// Started by code divergo did not instrument.
			p = fmt.Sprintf("?/%s#%d", r.funcName(e), e.GoID)
		default:
			parent := fmt.Sprintf("?g%d", e.Parent)
			if pe := r.byID[e.Parent]; pe != nil && depth < 10000 && pe != e {
				parent = name(pe, depth+1)
			}
			p = fmt.Sprintf("%s/%s@%s#%d", parent, r.funcName(e), SiteName(r.graph, e.Site), e.Ordinal)
		}
		done[e.ID] = p
		return p
	}
	for _, e := range r.gs {
		e.Path = name(e, 0)
	}
}

// funcName is the short name of the function e started in.
func (r *Reader) funcName(e *indexEntry) string {
	if !e.HasFirst {
		return "?"
	}
	b := r.graph.Block(int(e.FirstBlock))
	if b == nil {
		return "?"
	}
	if f := r.graph.Func(b.Func); f != nil {
		return ShortFuncName(f.Name)
	}
	return "?"
}

// ShortFuncName drops the package path from a full function name:
// "example.com/m/pool.worker" becomes "worker", "pkg.(*T).M" becomes "(*T).M".
func ShortFuncName(full string) string {
	if i := strings.LastIndexByte(full, '/'); i >= 0 {
		full = full[i+1:]
	}
	if strings.HasPrefix(full, "(") {
		return full
	}
	if i := strings.IndexByte(full, '.'); i >= 0 {
		return full[i+1:]
	}
	return full
}

// SiteName is the file:line of the go statement held by block site: the
// position of its spawn TCP, or the block's own position.
func SiteName(g *tbb.Graph, site uint32) string {
	b := g.Block(int(site))
	if b == nil {
		return fmt.Sprintf("block%d", site)
	}
	for _, t := range append([]*tbb.TCP{b.TCP}, b.Also...) {
		if t != nil && t.Kind == tbb.Spawn && t.Pos.IsValid() {
			return t.Pos.FileLine()
		}
	}
	return b.Pos.FileLine()
}
