package flow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// TestMinimize checks which blocks Build leaves probed. Each case is a
// function f whose first line is line 3; probed lists the blocks that keep
// a probe, as kind@line.
func TestMinimize(t *testing.T) {
	for _, tc := range []struct {
		name   string
		all    bool // use allOracle (point TCPs on locks, indexes and go statements)
		src    string
		probed string
	}{
		{
			name: "collatz keeps one arm probe per iteration",
			src: `func f(n uint64) int {
	s := 0
	for n != 1 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		s++
	}
	return s
}`,
			probed: "entry@4 if.then@7 if.else@9",
		},
		{
			name: "if without else keeps the join",
			src: `func f(xs []int) (n int) {
	for i := 0; i < len(xs); i++ {
		if xs[i] > 0 {
			n++
		}
	}
	return n
}`,
			probed: "entry@4 if.then@6 if.done@7",
		},
		{
			name: "calls keep their block probed",
			src: `func f(xs []int) (n int) {
	for _, x := range xs {
		if x > 0 {
			g(x)
		} else {
			n--
		}
		n++
	}
	return n
}`,
			// if.then calls, and if.done, its only successor, would
			// be put back before g's events: both stay. The rest goes.
			probed: "entry@4 if.then@6 if.done@10",
		},
		{
			name: "eager successor of a block with calls stays",
			src: `func f(x int) int {
	if x > 0 {
		g(x)
	}
	x++
	return x
}`,
			// if.done follows if.then (which calls) through its only
			// edge: a reader would put it back before g's events.
			probed: "entry@4 if.then@5 if.done@7",
		},
		{
			name: "deferred calls record after the last block",
			src: `func f(x int) int {
	defer g(0)
	if x > 0 {
		return 1
	}
	return 2
}`,
			probed: "entry@4 if.then@6 if.done@8",
		},
		{
			name: "without defer a lazy exit is fine",
			src: `func f(x int) int {
	if x > 0 {
		return 1
	}
	return 2
}`,
			probed: "entry@4 if.done@7",
		},
		{
			name: "point TCPs keep their blocks",
			all:  true,
			src: `func f(a []int, i int) int {
	for j := 0; j < 3; j++ {
		mu.Lock()
		i++
		i += a[i]
		i--
	}
	return i
}`,
			// The split after the index stays too: it would be put
			// back before the index's outcome.
			probed: "entry@4 for.body@5 split@6 split@8",
		},
		{
			name: "a loop nest without change points records nothing",
			src: `func f(n int) (s int) {
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if j%3 == 0 {
				s++
			}
		}
	}
	return s
}`,
			probed: "entry@4",
		},
		{
			name: "a nest with a return out of it keeps its probes",
			src: `func f(n int) (s int) {
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if j == 7 {
				return j
			}
		}
	}
	return s
}`,
			probed: "entry@4 for.body@5 if.done@8 for.done@11",
		},
		{
			name: "a nest on one arm of a join records nothing: the arm's probe tells the arms apart",
			src: `func f(c bool, n int) (s int) {
	if c {
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				s++
			}
		}
	}
	return s
}`,
			probed: "entry@4 if.then@5",
		},
		{
			name: "a nest with a change point keeps its probes",
			all:  true,
			src: `func f(n int) (s int) {
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			s++
		}
	}
	return s
}`,
			probed: "entry@4 for.body@5 for.body@6",
		},
		{
			name: "map range body keeps its probe",
			all:  true,
			src: `func f(m map[int]int) (n int) {
	for k := range m {
		n += k
	}
	return n
}`,
			probed: "entry@4 range.body@5",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, "x.go", "package p\n\n"+src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			body := file.Decls[0].(*ast.FuncDecl).Body
			var o Oracle
			if tc.all {
				o = mapOracle{allOracle{fset}}
			}
			f := Build(fset, body, o, mayReturnTest)
			if err := Check(f); err != nil {
				t.Fatalf("check: %v\n%s", err, f.Format(fset))
			}
			var got []string
			for _, b := range f.Blocks {
				if b.Probed() {
					got = append(got, b.Kind+"@"+strconv.Itoa(fset.Position(b.Pos).Line))
				}
			}
			if g := strings.Join(got, " "); g != tc.probed {
				t.Errorf("probed %q, want %q\n%s", g, tc.probed, f.Format(fset))
			}
		})
	}
}

// mapOracle is allOracle, with every range a range over a map.
type mapOracle struct{ allOracle }

func (o mapOracle) Branch(s ast.Stmt) *tbb.TCP {
	t := o.allOracle.Branch(s)
	if _, ok := s.(*ast.RangeStmt); ok && t != nil {
		t.Kind = tbb.MapRange
	}
	return t
}
