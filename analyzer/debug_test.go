package analyzer

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"
)

func TestDebugDump(t *testing.T) {
	fname := os.Getenv("DUMPFN")
	if fname == "" {
		t.Skip()
	}
	a := &analysis.Analyzer{Name: "dump", Doc: "dump", Requires: []*analysis.Analyzer{ssaAnalyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[ssaAnalyzer].(*ssaResult)
			ps := newPkgState(pass, res)
			ps.run()
			for _, s := range ps.funcs {
				if s.fn.Name() != fname {
					continue
				}
				s.fn.WriteTo(os.Stdout)
				fmt.Println("ipdom", s.cd.ipdom, "ctrl", s.cd.ctrl)
				for _, b := range s.fn.Blocks {
					for _, in := range b.Instrs {
						if v, ok := in.(interface{ Name() string }); ok {
							if t, ok := s.val[in.(interface{ Name() string }).(ssa.Value)]; ok {
								fmt.Println(v.Name(), t.m)
							}
						}
					}
				}
			}
			return nil, nil
		}}
	analysistest.Run(t, analysistest.TestData(), a, os.Getenv("DUMPPKG"))
}
