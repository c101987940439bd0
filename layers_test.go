package divergo_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/divergo/divergo"

// TestLayers keeps the layers of docs/ARCHITECTURE.md ("Layers"): every
// package of the module is in one, and imports only packages of the
// layers below its own. The table in that file is the only statement of
// the layers: this test reads it, so the two cannot drift. Test files are
// left out: a package's tests may use any package to check it against the
// real thing (the Perfetto export's tests take their marks from compare, as
// the command does).
func TestLayers(t *testing.T) {
	doc, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	layers, err := readLayers(string(doc))
	if err != nil {
		t.Fatalf("docs/ARCHITECTURE.md: %v", err)
	}
	imports, err := goList()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range violations(layers, imports) {
		t.Error(v)
	}
	// The runtime is linked into every instrumented program.
	for _, imp := range imports["runtime"] {
		if imp != "internal/trace" {
			t.Errorf("runtime imports %s: it imports nothing of the module but internal/trace (docs/ARCHITECTURE.md, \"Layers\")", imp)
		}
	}
}

// TestLayersCatches: the rule fails an import from a layer's own or one
// above, and a package in no layer.
func TestLayersCatches(t *testing.T) {
	layers := map[string]int{"internal/tbb": 1, "internal/trace": 2, "compare": 5, "internal/perfetto": 5, "cmd/divergo": 6}
	imports := map[string][]string{
		"internal/tbb":      nil,
		"internal/trace":    {"internal/tbb"},
		"compare":           {"internal/trace"},
		"internal/perfetto": {"internal/trace", "compare"},
		"cmd/divergo":       {"compare", "internal/perfetto"},
		"internal/new":      nil,
	}
	got := violations(layers, imports)
	want := []string{
		`internal/new is in no layer: add it to the table of docs/ARCHITECTURE.md, "Layers"`,
		"internal/perfetto (layer 5) imports compare (layer 5): a package imports only packages of lower layers",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	imports["internal/tbb"] = []string{"cmd/divergo"}
	up := "internal/tbb (layer 1) imports cmd/divergo (layer 6): a package imports only packages of lower layers"
	if got := violations(layers, imports); len(got) != 3 || !slices.Contains(got, up) {
		t.Errorf("an import up five layers: %q", got)
	}
}

// violations lists what breaks the rule, sorted. Packages are named
// relative to the module.
func violations(layers map[string]int, imports map[string][]string) []string {
	var out []string
	for pkg, imps := range imports {
		l, ok := layers[pkg]
		if !ok {
			out = append(out, fmt.Sprintf(`%s is in no layer: add it to the table of docs/ARCHITECTURE.md, "Layers"`, pkg))
			continue
		}
		for _, imp := range imps {
			if li, ok := layers[imp]; ok && li >= l {
				out = append(out, fmt.Sprintf("%s (layer %d) imports %s (layer %d): a package imports only packages of lower layers", pkg, l, imp, li))
			}
		}
	}
	for pkg := range layers {
		if _, ok := imports[pkg]; !ok {
			out = append(out, fmt.Sprintf(`%s is in the table of docs/ARCHITECTURE.md, "Layers", but not in the module`, pkg))
		}
	}
	slices.Sort(out)
	return out
}

var (
	layerRow = regexp.MustCompile(`^\|\s*([0-9]+)\s*\|([^|]*)\|`)
	pkgName  = regexp.MustCompile("`([^`]+)`")
)

// readLayers reads the table of the section "## Layers": one row per
// layer, its number first, then its packages in backquotes.
func readLayers(doc string) (map[string]int, error) {
	_, rest, ok := strings.Cut(doc, "\n## Layers\n")
	if !ok {
		return nil, errors.New(`no section "## Layers"`)
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	layers := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(rest))
	for sc.Scan() {
		m := layerRow.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		for _, p := range pkgName.FindAllStringSubmatch(m[2], -1) {
			if prev, dup := layers[p[1]]; dup {
				return nil, fmt.Errorf("%s is in layers %d and %d", p[1], prev, n)
			}
			layers[p[1]] = n
		}
	}
	if len(layers) == 0 {
		return nil, errors.New(`the section "Layers" has no table of layers`)
	}
	return layers, nil
}

// goList returns, for every package of the module, the packages of the
// module its own (non-test) files import, all named relative to the
// module. Packages with test files only (this one) have no place in the
// layers and are left out.
// relPackage names a package of the module as the table does: its path
// below the module, "." for the module's root package.
func relPackage(path string) string {
	if path == module {
		return "."
	}
	return strings.TrimPrefix(path, module+"/")
}

func goList() (map[string][]string, error) {
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,GoFiles,Error", "./...")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	imports := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			ImportPath string
			Imports    []string
			GoFiles    []string
			Error      *struct{ Err string }
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		if len(p.GoFiles) == 0 {
			continue
		}
		name := relPackage(p.ImportPath)
		imports[name] = []string{}
		for _, imp := range p.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				imports[name] = append(imports[name], relPackage(imp))
			}
		}
	}
	return imports, nil
}

// TestPackages holds the table of docs/ARCHITECTURE.md, "Packages", to the
// module: a row for every package, and in its last column exactly the
// packages of the module that the package's own files import. Names in
// backquotes that are not packages of the module (std, x/tools) are the
// reader's, and left alone.
func TestPackages(t *testing.T) {
	doc, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := readPackages(string(doc))
	if err != nil {
		t.Fatalf("docs/ARCHITECTURE.md: %v", err)
	}
	imports, err := goList()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range packageDrift(rows, imports) {
		t.Error(d)
	}
}

// TestPackagesCatches: the rule fails a package the table lacks, a row of
// a package that is gone, and an import missing from a row or added to it.
func TestPackagesCatches(t *testing.T) {
	rows := map[string][]string{"a": nil, "b": {"a"}, "gone": nil, "c": {"a", "b"}}
	imports := map[string][]string{"a": {}, "b": {"a"}, "c": {"a"}, "new": {}, "d": {"c"}}
	rows["d"] = []string{"a"}
	got := packageDrift(rows, imports)
	want := []string{
		`c: the table of docs/ARCHITECTURE.md, "Packages", says it imports b, which it does not`,
		`d imports c, which the table of docs/ARCHITECTURE.md, "Packages", does not list in its row`,
		`d: the table of docs/ARCHITECTURE.md, "Packages", says it imports a, which it does not`,
		`gone is in the table of docs/ARCHITECTURE.md, "Packages", but not in the module`,
		`new is not in the table of docs/ARCHITECTURE.md, "Packages": add its row`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("drift:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// packageDrift lists, sorted, where the table's rows (a package and the
// packages of the module it says it imports) and the module differ.
func packageDrift(rows, imports map[string][]string) []string {
	var out []string
	for pkg, imps := range imports {
		row, ok := rows[pkg]
		if !ok {
			out = append(out, fmt.Sprintf(`%s is not in the table of docs/ARCHITECTURE.md, "Packages": add its row`, pkg))
			continue
		}
		for _, imp := range imps {
			if !slices.Contains(row, imp) {
				out = append(out, fmt.Sprintf(`%s imports %s, which the table of docs/ARCHITECTURE.md, "Packages", does not list in its row`, pkg, imp))
			}
		}
		for _, imp := range row {
			if _, inModule := imports[imp]; inModule && !slices.Contains(imps, imp) {
				out = append(out, fmt.Sprintf(`%s: the table of docs/ARCHITECTURE.md, "Packages", says it imports %s, which it does not`, pkg, imp))
			}
		}
	}
	for pkg := range rows {
		if _, ok := imports[pkg]; !ok {
			out = append(out, fmt.Sprintf(`%s is in the table of docs/ARCHITECTURE.md, "Packages", but not in the module`, pkg))
		}
	}
	slices.Sort(out)
	return out
}

// packageRow is a row of the table "Packages": the package in backquotes
// in the first column, its imports in the last.
var packageRow = regexp.MustCompile("^\\|\\s*`([^`]+)`\\s*\\|.*\\|([^|]*)\\|\\s*$")

// readPackages reads the table of the section "## Packages": for each
// package, the names in backquotes of its imports column.
func readPackages(doc string) (map[string][]string, error) {
	_, rest, ok := strings.Cut(doc, "\n## Packages\n")
	if !ok {
		return nil, errors.New(`no section "## Packages"`)
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	rows := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(rest))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := packageRow.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if _, dup := rows[m[1]]; dup {
			return nil, fmt.Errorf("%s has two rows in the table of packages", m[1])
		}
		imps := []string{}
		for _, p := range pkgName.FindAllStringSubmatch(m[2], -1) {
			imps = append(imps, p[1])
		}
		rows[m[1]] = imps
	}
	if len(rows) == 0 {
		return nil, errors.New(`the section "Packages" has no table of packages`)
	}
	return rows, sc.Err()
}
