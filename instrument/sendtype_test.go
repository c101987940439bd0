package instrument

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestSendTypeArg type-checks a file and asks, for every send in it, which
// type argument Send gets; the comment ending the send's line says what it
// should be ("none" for inference, "warn" for a type the file cannot name
// at the send).
func TestSendTypeArg(t *testing.T) {
	const src = `package p

import (
	"errors"
	str "strings"
	"fmt"
)

type item interface{ pr() string }
type rat struct{}

func (*rat) pr() string { return "" }

type named chan item
type box[T any] struct{ v T }

func f[T any](ch chan T, v T, w chan any) {
	ch <- v // none
	w <- v // [any]
}

func g() {
	ch := make(chan item, 9)
	ch <- &rat{} // [item]
	ch <- nil // none
	var n named
	n <- &rat{} // [item]
	errs := make(chan error, 1)
	errs <- errors.New("x") // none
}

func h() {
	bs := make(chan fmt.Stringer, 1)
	bs <- &str.Builder{} // [fmt.Stringer]
	bx := make(chan box[item], 1)
	bx <- box[item]{} // none
	ms := make(chan map[string][]item, 1)
	ms <- nil // none
	outer := make(chan item, 1)
	{
		type item int
		outer <- &rat{} // warn
	}
}

func shadowed(ch chan item) {
	item := 3
	_ = item
	ch <- &rat{} // warn
}

func shadowedPkg(bs chan fmt.Stringer) {
	fmt := 1
	_ = fmt
	bs <- &str.Builder{} // warn
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}, Scopes: map[ast.Node]*types.Scope{}}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	r := &rewriter{fileJob: fileJob{fset: fset, file: f, src: []byte(src), info: info, pkg: pkg}}
	lines := strings.Split(src, "\n")
	sends := 0
	ast.Inspect(f, func(n ast.Node) bool {
		s, ok := n.(*ast.SendStmt)
		if !ok {
			return true
		}
		sends++
		line := fset.Position(s.Pos()).Line
		want := strings.TrimSpace(lines[line-1][strings.LastIndex(lines[line-1], "//")+2:])
		warned := len(r.res.warnings)
		got := r.sendTypeArg(s)
		switch {
		case want == "warn":
			if got != "" || len(r.res.warnings) != warned+1 {
				t.Errorf("line %d: got %q and %d warnings, want a warning", line, got, len(r.res.warnings)-warned)
			}
		case want == "none":
			if got != "" || len(r.res.warnings) != warned {
				t.Errorf("line %d: got %q, want inference", line, got)
			}
		default:
			if got != want || len(r.res.warnings) != warned {
				t.Errorf("line %d: got %q, want %q", line, got, want)
			}
		}
		return true
	})
	if sends != 12 {
		t.Errorf("%d sends checked, want 12", sends)
	}
}
