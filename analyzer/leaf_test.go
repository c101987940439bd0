package analyzer

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// leafSrc marks every call with what Leaf must say of it: a trailing
// comment "leaf" or "not leaf" on its line.
const leafSrc = `package p

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

type celsius float64

type rec struct {
	name string
	v    any
}

func user(int) int { return 0 }

func f(xs []int, s string, ch chan int, r rec, rs []rec) {
	var b strings.Builder
	var buf bytes.Buffer
	_ = len(xs)                     // leaf
	_ = min(len(xs), 3)             // leaf
	_ = celsius(2)                  // leaf
	b.WriteString(strconv.Itoa(3))  // leaf
	_ = strconv.Itoa(4)             // leaf
	b.WriteByte('x')                // leaf
	_ = math.Sqrt(2)                // leaf
	_ = strings.Fields(s)           // leaf
	slices.Sort(xs)                 // leaf
	_ = slices.Index(xs, 3)         // leaf
	_ = buf.Len()                   // leaf
	_ = strings.Map(nil, s)         // not leaf
	_ = slices.IndexFunc(xs, nil)   // not leaf
	_ = slices.Index(rs, r)         // not leaf
	_ = fmt.Sprint(3)               // not leaf
	sort.Ints(xs)                   // not leaf
	time.Sleep(1)                   // not leaf
	_ = user(3)                     // not leaf
	close(ch)                       // not leaf
	panic(s)                        // not leaf
	for c := (bytes.Buffer{}); c.Len() < 3; { // not leaf
		c.WriteByte('x') // not leaf
	}
	for i := 0; i < 3; i++ {
		buf.WriteByte('y') // leaf
	}
}
`

// TestLeaf checks which calls Leaf lets a packed loop make: builtins,
// conversions and calls of the leaf packages given nothing that carries
// code, and no method call that takes the address of a for statement's
// own variable.
func TestLeaf(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", leafSrc, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Uses:       map[*ast.Ident]types.Object{},
		Defs:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes:     map[ast.Node]*types.Scope{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	want := map[int]bool{}
	for _, cg := range f.Comments {
		switch text := strings.TrimSpace(cg.Text()); text {
		case "leaf", "not leaf":
			want[fset.Position(cg.Pos()).Line] = text == "leaf"
		}
	}
	o := &oracle{fset: fset, info: info}
	seen := map[int]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		line := fset.Position(call.Pos()).Line
		w, ok := want[line]
		if !ok || seen[line] {
			return true // an argument's call, or a line without a mark
		}
		seen[line] = true
		if got := o.Leaf(call); got != w {
			t.Errorf("line %d: Leaf(%s) = %v, want %v", line, types.ExprString(call), got, w)
		}
		return true
	})
	for line := range want {
		if !seen[line] {
			t.Errorf("line %d: marked, but no call found", line)
		}
	}
}
