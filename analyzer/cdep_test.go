package analyzer

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const cdepSrc = `package p

func early(a, b int) int {
	if a > 0 {
		return 1
	}
	if b > 0 {
		b++
	}
	return b
}

func endless(a int) {
	for {
		if a > 0 {
			a--
		}
	}
}

func panics(a int) int {
	if a > 0 {
		panic("a")
	}
	return a
}

func loop(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			continue
		}
		s += i
	}
	return s
}
`

// buildFuncs builds the SSA of cdepSrc.
func buildFuncs(t *testing.T) map[string]*ssa.Function {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", cdepSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset,
		types.NewPackage("p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ssa.Function{}
	for name, m := range pkg.Members {
		if fn, ok := m.(*ssa.Function); ok {
			out[name] = fn
		}
	}
	return out
}

// ifBlocks returns the indices of the blocks that end in an If, in order.
func ifBlocks(fn *ssa.Function) []int {
	var out []int
	for _, b := range fn.Blocks {
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			out = append(out, b.Index)
		}
	}
	return out
}

func TestPostDominators(t *testing.T) {
	fns := buildFuncs(t)
	for _, tc := range []struct {
		fn string
		// check is given the cdep and the If blocks in order.
		check func(t *testing.T, c *cdep, ifs []int)
	}{
		{"early", func(t *testing.T, c *cdep, ifs []int) {
			// An early return: the first if converges at return (the
			// virtual exit); the second at the final return's block.
			exit := len(c.fn.Blocks)
			if got := c.ipdom[ifs[0]]; got != exit {
				t.Errorf("ipdom of first if = %d, want the exit %d", got, exit)
			}
			if got := c.ipdom[ifs[1]]; got == exit || !returns(c.fn.Blocks[got]) {
				t.Errorf("ipdom of second if = %d, want the final return's block", got)
			}
			// The second if's block is control dependent on the first.
			if !dependsOn(c, ifs[1], ifs[0]) {
				t.Errorf("second if does not depend on the first: %v", c.ctrl[ifs[1]])
			}
		}},
		{"endless", func(t *testing.T, c *cdep, ifs []int) {
			// No path to exit: every block still has a post-dominator.
			for b, d := range c.ipdom {
				if d < 0 || d > len(c.fn.Blocks) {
					t.Errorf("block %d has post-dominator %d", b, d)
				}
			}
			// a-- runs only when the if says so.
			then := c.fn.Blocks[ifs[0]].Succs[0].Index
			if !dependsOn(c, then, ifs[0]) {
				t.Errorf("then block does not depend on its if: %v", c.ctrl[then])
			}
		}},
		{"panics", func(t *testing.T, c *cdep, ifs []int) {
			// The panic block exits: the block after the if depends on it.
			var ret int
			for _, b := range c.fn.Blocks {
				if returns(b) {
					ret = b.Index
				}
			}
			if !dependsOn(c, ret, ifs[0]) {
				t.Errorf("return block does not depend on the if guarding a panic: %v", c.ctrl[ret])
			}
		}},
		{"loop", func(t *testing.T, c *cdep, ifs []int) {
			// The loop header depends on itself; the body's if depends
			// on the header.
			head := ifs[0]
			if !dependsOn(c, head, head) {
				t.Errorf("loop header does not depend on itself: %v", c.ctrl[head])
			}
			if !dependsOn(c, ifs[1], head) {
				t.Errorf("body if does not depend on the loop header: %v", c.ctrl[ifs[1]])
			}
			// Transitively, s += i depends on both.
			conds := c.conds(ifs[1], -1)
			if len(conds) == 0 {
				t.Errorf("no transitive control dependences")
			}
		}},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			fn := fns[tc.fn]
			if fn == nil {
				t.Fatalf("no function %s", tc.fn)
			}
			tc.check(t, newCdep(fn), ifBlocks(fn))
		})
	}
}

func returns(b *ssa.BasicBlock) bool {
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
	return ok
}

func dependsOn(c *cdep, b, on int) bool {
	return slices.ContainsFunc(c.ctrl[b], func(e cdEdge) bool { return e.c == on })
}
