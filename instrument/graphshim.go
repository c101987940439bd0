package instrument

import (
	"go/token"
	"path/filepath"
	"sort"

	"github.com/divergo/divergo/analyzer"
	"github.com/divergo/divergo/internal/tbb"
)

// TEMPORARY until analyzer.Graph lands: assigns ids and builds the graph.
func shimGraph(module, moduleDir string, fset *token.FileSet, results []*analyzer.Result) (*tbb.Graph, error) {
	g := &tbb.Graph{Version: tbb.Version, Module: module}
	rs := append([]*analyzer.Result(nil), results...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Pkg.Path() < rs[j].Pkg.Path() })
	pos := func(p token.Pos) tbb.Pos {
		q := fset.Position(p)
		f := q.Filename
		if r, err := filepath.Rel(moduleDir, f); err == nil {
			f = filepath.ToSlash(r)
		}
		return tbb.Pos{File: f, Line: q.Line, Col: q.Column}
	}
	for _, r := range rs {
		g.Packages = append(g.Packages, r.Pkg.Path())
		fgs := append([]*analyzer.FuncGraph(nil), r.Funcs...)
		sort.SliceStable(fgs, func(i, j int) bool {
			a, b := fset.Position(fgs[i].Node.Pos()), fset.Position(fgs[j].Node.Pos())
			if a.Filename != b.Filename {
				return a.Filename < b.Filename
			}
			return a.Offset < b.Offset
		})
		for _, fg := range fgs {
			for _, b := range fg.Flow.Blocks {
				b.ID = len(g.Blocks) + b.Index
			}
			fn := &tbb.Func{ID: len(g.Funcs), Name: fg.Name, Pkg: r.Pkg.Path(), Pos: pos(fg.Node.Pos()), Entry: fg.Flow.Blocks[0].ID}
			for _, b := range fg.Flow.Blocks {
				fn.Blocks = append(fn.Blocks, b.ID)
			}
			fg.Flow.ResolveCPs()
			for _, b := range fg.Flow.Blocks {
				tb := &tbb.Block{ID: b.ID, Func: fn.ID, Kind: b.Kind, Pos: pos(b.Pos), End: pos(b.End), Probe: b.Probed(), TCP: b.TCP, Also: b.Also, CP: b.IsCP, Exit: b.Exit, Succs: []int{}}
				for _, s := range b.Succs {
					tb.Succs = append(tb.Succs, s.ID)
				}
				g.Blocks = append(g.Blocks, tb)
			}
			g.Funcs = append(g.Funcs, fn)
		}
	}
	return g, nil
}
