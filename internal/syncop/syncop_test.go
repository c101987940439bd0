package syncop

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

const src = `package p

import (
	"sync"
	"time"
)

type T struct{ sync.Mutex }

func f(mu *sync.Mutex, t *T, wg *sync.WaitGroup, ch chan int, c *sync.Cond, o *sync.Once) {
	x := 1
	time.Sleep(time.Millisecond)
	ch <- x
	mu.Lock()
	t.Lock()
	defer mu.Unlock()
	go func() { mu.Lock() }()
	go g(<-ch)
	wg.Go(func() {})
	for v := range ch {
		_ = v
	}
	select {
	case v := <-ch:
		ch <- v
	default:
	}
	c.Wait()
	o.Do(func() {})
	close(ch)
	wg.Wait()
	_ = mu.TryLock
}

func g(int) {}
`

// TestFind lists the operations of f with their own lines: function
// literals are left to themselves, a go statement's call runs in the
// child but its arguments in the parent, a select's communications are
// not wrapped but its cases' bodies are, and a method value is no call.
func TestFind(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{},
		Defs: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: importer.ForCompiler(fset, "source", nil)}).Check("p", fset, []*ast.File{file}, info)
	if err != nil {
		t.Fatal(err)
	}
	body := file.Decls[2].(*ast.FuncDecl).Body
	var got []string
	for _, op := range Find(body, info, pkg) {
		p, at := fset.Position(op.Pos), fset.Position(op.At)
		s := fmt.Sprintf("%d:%d %s", p.Line, p.Column, op.Op)
		if at != p {
			s += fmt.Sprintf(" (block at %d:%d)", at.Line, at.Column)
		}
		got = append(got, s)
	}
	want := []string{
		"12:2 sleep", "13:2 send", "14:2 lock", "15:2 lock", "16:8 unlock", "17:2 go",
		"18:2 go", "18:7 recv", "19:2 wg.go", "20:17 recv",
		"23:2 select (block at 24:7)", "25:3 send",
		"28:2 cond.wait", "29:2 once", "30:2 close", "31:2 wg.wait",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Find:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
