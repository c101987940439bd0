package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"sort"
	"strings"

	"github.com/divergo/divergo/internal/tbb"
)

// Graph joins the per-package results of the analyzer into one TBB graph.
// It assigns global block ids in order of package path, file and position
// (setting flow.Block.ID), makes positions relative to moduleDir (files
// outside it are named by import path and base name, "fmt/print.go"),
// attributes SSA instructions to blocks, resolves convergence points and
// lists the sites (recorded operations) with ids in the same order as
// blocks, setting flow.Site.ID.
func Graph(module, moduleDir string, fset *token.FileSet, results []*Result) (*tbb.Graph, error) {
	rs := make([]*Result, 0, len(results))
	for _, r := range results {
		if r != nil {
			rs = append(rs, r)
		}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Pkg.Path() < rs[j].Pkg.Path() })
	g := &tbb.Graph{Version: tbb.Version, Module: module, Packages: []string{}, Funcs: []*tbb.Func{}, Blocks: []*tbb.Block{}, Sites: []*tbb.Site{}}
	for i, r := range rs {
		if i > 0 && rs[i-1].Pkg.Path() == r.Pkg.Path() {
			return nil, fmt.Errorf("building graph: package %s given twice", r.Pkg.Path())
		}
		g.Packages = append(g.Packages, r.Pkg.Path())
	}
	for _, r := range rs {
		conv := func(pos token.Pos) tbb.Pos {
			if !pos.IsValid() {
				return tbb.Pos{}
			}
			p := fset.Position(pos)
			return tbb.Pos{File: graphFile(moduleDir, r.Pkg.Path(), p.Filename), Line: p.Line, Col: p.Column}
		}
		funcs := append([]*FuncGraph(nil), r.Funcs...)
		sort.SliceStable(funcs, func(i, j int) bool {
			pi, pj := fset.Position(funcs[i].Node.Pos()), fset.Position(funcs[j].Node.Pos())
			if pi.Filename != pj.Filename {
				return pi.Filename < pj.Filename
			}
			return pi.Offset < pj.Offset
		})
		// Ids first: successors and CPs refer forward.
		next := len(g.Blocks)
		for _, fg := range funcs {
			for _, b := range fg.Flow.Blocks {
				b.ID = next
				next++
			}
		}
		for _, fg := range funcs {
			f := &tbb.Func{ID: len(g.Funcs), Name: fg.Name, Pkg: r.Pkg.Path(), Pos: conv(fg.Node.Pos()), End: conv(fg.Node.End() - 1)}
			if len(fg.Flow.Blocks) == 0 {
				return nil, fmt.Errorf("building graph: function %s has no blocks", fg.Name)
			}
			f.Entry = fg.Flow.Blocks[0].ID
			fg.Flow.ResolveCPs()
			for _, b := range fg.Flow.Blocks {
				f.Blocks = append(f.Blocks, b.ID)
				tb := &tbb.Block{
					ID:     b.ID,
					Func:   f.ID,
					Kind:   b.Kind,
					Pos:    conv(b.Pos),
					End:    conv(b.End),
					Probe:  b.Probed(),
					Instrs: max(1, r.countInstrs(b.Nodes)),
					TCP:    b.TCP,
					Also:   b.Also,
					CP:     b.IsCP,
					Succs:  []int{},
					Exit:   b.Exit,
				}
				if b.Pack != nil {
					tb.Pack = b.Pack.ID
				}
				for _, s := range b.Succs {
					tb.Succs = append(tb.Succs, s.ID)
				}
				for _, t := range b.TCPs() {
					if p, ok := r.at[t]; ok {
						t.Pos = conv(p)
					}
					switch {
					case t.Kind == tbb.Begin || b.CP == nil:
						t.CP = tbb.Return
						t.CPPos = conv(bodyEnd(fg))
					default:
						t.CPPos = conv(b.CP.Pos)
					}
				}
				g.Blocks = append(g.Blocks, tb)
			}
			for _, s := range fg.Flow.Sites {
				if s.Block == nil || s.Block.ID < 0 {
					return nil, fmt.Errorf("building graph: function %s: %s at %s has no block", fg.Name, s.Op, conv(s.Pos))
				}
				s.ID = len(g.Sites)
				g.Sites = append(g.Sites, &tbb.Site{ID: s.ID, Block: s.Block.ID, Op: s.Op, Pos: conv(s.Pos)})
			}
			g.Funcs = append(g.Funcs, f)
		}
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("building graph: %w", err)
	}
	return g, nil
}

func bodyEnd(fg *FuncGraph) token.Pos {
	if fg.Flow.Body != nil {
		return fg.Flow.Body.Rbrace
	}
	return fg.Node.End()
}

// graphFile names file for the graph: relative to the module root, or by
// import path outside it.
func graphFile(moduleDir, pkgPath, file string) string {
	if moduleDir != "" {
		if rel, err := filepath.Rel(moduleDir, file); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return pkgPath + "/" + filepath.Base(file)
}

// countInstrs counts the SSA instructions whose position lies within the
// nodes. Instructions of function literals inside a node count for the
// enclosing block too: a cost estimate, not an exact partition.
func (r *Result) countInstrs(nodes []ast.Node) int {
	n := 0
	for _, nd := range nodes {
		lo := sort.Search(len(r.poss), func(i int) bool { return r.poss[i] >= nd.Pos() })
		for i := lo; i < len(r.poss) && r.poss[i] < nd.End(); i++ {
			n += r.instrs[r.poss[i]]
		}
	}
	return n
}
