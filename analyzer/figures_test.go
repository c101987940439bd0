package analyzer_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/divergo/divergo/analyzer"
	"github.com/divergo/divergo/internal/load"
	"github.com/divergo/divergo/internal/tbb"
)

// labels maps the paper's statement labels in a figure's comments ("// B4")
// to their lines.
func labels(t *testing.T, file string) map[string]int {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	re := regexp.MustCompile(`// ([A-D][0-9]|CP of [A-D][0-9])\b`)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			if _, dup := out[m[1]]; !dup {
				out[m[1]] = n
			}
		}
	}
	return out
}

// TestFigures checks that the ports of the paper's figures get exactly the
// paper's TCPs, with their CPs, and that their graph encodes.
func TestFigures(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	res, err := load.Load(load.Config{Dir: root, Patterns: []string{"./testdata/fig1a", "./testdata/fig2"}}, analyzer.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string][]string{
		// kind@label -> cp label ("next" = the next line, "return")
		"fig1a": {"begin@main->return", "spawn@A1->next", "spawn@A1+1->next",
			"lock@B0->next", "branch@B4->CP of B4", "lock@C0->next", "loop@C4->CP of C4"},
		"fig2": {"begin@main->return", "spawn@A1->next", "spawn@A1+1->next", "spawn@A1+2->next",
			"lock@B0->next", "loop@B4->B7", "branch@B5->CP of B5", "lock@C0->next", "lock@D0->next"},
	}
	var results []*analyzer.Result
	for _, p := range res.Roots {
		results = append(results, p.Result.(*analyzer.Result))
		name := filepath.Base(p.Pkg.PkgPath)
		file := filepath.Join(root, "testdata", name, "main.go")
		lab := labels(t, file)
		line := func(l string) int {
			if l == "main" {
				return lab["main"]
			}
			base, off := l, 0
			if i := strings.Index(l, "+"); i > 0 {
				base = l[:i]
				fmt.Sscan(l[i+1:], &off)
			}
			n, ok := lab[base]
			if !ok {
				t.Fatalf("%s: no label %q", name, base)
			}
			return n + off
		}
		lab["main"] = mainLine(t, file)
		var want []string
		for _, w := range tests[name] {
			kind, rest, _ := strings.Cut(w, "@")
			at, cp, _ := strings.Cut(rest, "->")
			n := line(at)
			switch cp {
			case "return":
			case "next":
				cp = fmt.Sprintf("testdata/%s/main.go:%d", name, n+1)
			default:
				cp = fmt.Sprintf("testdata/%s/main.go:%d", name, line(cp))
			}
			want = append(want, fmt.Sprintf("%d %s %s", n, kind, cp))
		}
		var got []string
		re := regexp.MustCompile(`^trace change point \((\w+)\): .*; converges at (\S+)$`)
		for _, d := range p.Diagnostics {
			m := re.FindStringSubmatch(d.Message)
			if m == nil {
				t.Errorf("%s: malformed diagnostic %q", name, d.Message)
				continue
			}
			got = append(got, fmt.Sprintf("%d %s %s", res.Fset.Position(d.Pos).Line, m[1], m[2]))
		}
		sort.Strings(want)
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: TCPs\n got:\n\t%s\nwant:\n\t%s\ndiagnostics:\n%s", name, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"), messages(p.Diagnostics))
		}
	}
	g, err := analyzer.Graph(res.Module, res.ModuleDir, res.Fset, results)
	if err != nil {
		t.Fatal(err)
	}
	data, err := tbb.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := tbb.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	f := back.FuncByName("github.com/divergo/divergo/testdata/fig1a.task0")
	if f == nil {
		t.Fatalf("no task0 in graph; funcs %d", len(back.Funcs))
	}
	var kinds []string
	for _, id := range f.Blocks {
		b := back.Block(id)
		if b.Instrs < 1 {
			t.Errorf("block %d has %d instructions", id, b.Instrs)
		}
		if b.TCP != nil {
			kinds = append(kinds, fmt.Sprintf("%s@%d->%s", b.TCP.Kind, b.TCP.Pos.Line, b.TCP.Converges()))
			if b.TCP.Pos.File != "testdata/fig1a/main.go" {
				t.Errorf("TCP position %v is not module-relative", b.TCP.Pos)
			}
		}
	}
	if len(kinds) != 2 || !strings.HasPrefix(kinds[0], "lock@") || !strings.HasPrefix(kinds[1], "branch@") {
		t.Errorf("task0 TCP blocks: %v, want a lock then a branch", kinds)
	}
}

func mainLine(t *testing.T, file string) int {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "func main()") {
			return i + 1
		}
	}
	t.Fatal("no func main")
	return 0
}

func messages[D interface{ any }](ds []D) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "\t%v\n", d)
	}
	return b.String()
}
