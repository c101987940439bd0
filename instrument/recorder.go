package instrument

import (
	"bytes"
	"fmt"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"go/version"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/divergo/divergo"
)

// The recorder that instrumented code calls is a package of the
// instrumented module itself, added through the overlay like the copies:
// RecorderDir below the module root, its sources taken from the divergo
// binary (divergo.RecorderSources). A module that required divergo's
// runtime instead would need its go.mod edited, and so its build list
// changed (divergo's own dependencies are far newer than many modules'),
// often its go line too, and the network to fetch it; a package of the
// module needs none of that, works with a vendor directory and in a
// workspace, and leaves go.mod, go.sum and go list -m all as they are
// (docs/INSTRUMENT.md, "What divergo adds to a build").

// RecorderDir is the directory, below the module root, that the recorder's
// package takes in the overlay. Its sources are all in .divergo, but the
// directories themselves must exist: the go command runs the assembler
// (the recorder reads the goroutine and the clock through assembly) and go
// vet in a package's directory. So divergo makes them, empty, which git does
// not see; the leading underscore keeps them out of the go command's ./...
// patterns. The module must not have one with files of its own.
const RecorderDir = "_divergo"

// ownModule is divergo's module path, which the recorder's sources import
// their own packages by.
const ownModule = "github.com/divergo/divergo"

// RecorderPath is the import path of the recorder in the module modPath.
func RecorderPath(modPath string) string { return path.Join(modPath, RecorderDir) }

// recorderLang is the language version the recorder's sources are written
// in: each copy says so in its build constraint, which sets that file's
// version whatever the module's go line (Go 1.21 and later honour a file's
// //go:build go1.N over the module's version).
const recorderLang = "go1.24"

// writeRecorder puts a copy of the recorder's packages below moduleDir,
// importing one another by their paths below recorder.
func writeRecorder(moduleDir, recorder string, put func(orig string, data []byte) error) error {
	root := filepath.Join(moduleDir, RecorderDir)
	if hasFiles(root) {
		return fmt.Errorf("the module has a directory %s with files of its own, where divergo puts its recorder; rename it to instrument this module", RecorderDir)
	}
	for i, dir := range divergo.RecorderDirs {
		ents, err := fs.ReadDir(divergo.RecorderSources, dir)
		if err != nil {
			return fmt.Errorf("reading the recorder's sources: %w", err)
		}
		dst := root
		if i > 0 {
			dst = filepath.Join(root, filepath.FromSlash(dir))
		}
		// go vet too runs in a package's directory.
		if err := os.MkdirAll(dst, 0o777); err != nil {
			return fmt.Errorf("making the recorder's directory: %w", err)
		}
		for _, e := range ents {
			name := e.Name()
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := fs.ReadFile(divergo.RecorderSources, dir+"/"+name)
			if err != nil {
				return fmt.Errorf("reading the recorder's sources: %w", err)
			}
			if strings.HasSuffix(name, ".go") {
				if src, err = recorderFile(name, src, recorder); err != nil {
					return err
				}
			}
			if err := put(filepath.Join(dst, name), src); err != nil {
				return err
			}
		}
	}
	return nil
}

// renamePushed gives the symbols the recorder pushes into the Go runtime's
// namespace (hidden.go: its goroutines' start functions, which the Go
// runtime then counts as its own) other names in the copy, so that a
// program that links divergo's runtime package as well (divergo itself,
// whose commands complete a dead run's trace with it) does not define them
// twice.
func renamePushed(src []byte) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte("//go:linkname ")) {
			lines[i] = bytes.Replace(l, []byte(" runtime.divergo"), []byte(" runtime.divergoCopy"), 1)
		}
	}
	return bytes.Join(lines, nil)
}

// hasFiles says whether the tree at dir holds anything but directories (the
// empty ones an earlier run made).
func hasFiles(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// recorderFile is one source file of the recorder as the module's copy: its
// imports of divergo's packages moved below recorder, and its language
// version set by its build constraint.
func recorderFile(name string, src []byte, recorder string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("parsing the recorder's %s: %w", name, err)
	}
	buf := newEditBuffer(src)
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil || !strings.HasPrefix(p, ownModule+"/") {
			continue
		}
		rest := strings.TrimPrefix(p, ownModule+"/")
		buf.replace(fset.Position(im.Path.Pos()).Offset, fset.Position(im.Path.End()).Offset, strconv.Quote(path.Join(recorder, rest)))
	}
	out, err := buf.bytes()
	if err != nil {
		return nil, fmt.Errorf("rewriting the recorder's %s: %w", name, err)
	}
	out = renamePushed(out)
	out, head, err := langConstraint(out, recorderLang)
	if err != nil {
		return nil, fmt.Errorf("the recorder's %s: %w", name, err)
	}
	return append([]byte(head), out...), nil
}

// copyLang is the language version that the code divergo adds to a
// module's packages needs: _dvg_hash is generic, and its calls infer
// their type arguments. Between go1.16 and go1.21 the language only grew, so
// raising an older file to go1.21 changes nothing its code means; go1.22
// would (per-iteration loop variables).
const copyLang = "go1.21"

// moduleLang is the language version of a go line ("1.16"), go1.16 for
// none, as the go command takes it.
func moduleLang(goLine string) string {
	if goLine == "" {
		return "go1.16"
	}
	return version.Lang("go" + goLine)
}

// glueConstraint is the build constraint that starts a glue file: go1.21
// in an older module.
func glueConstraint(oldLang bool) string {
	if !oldLang {
		return ""
	}
	return "//go:build " + copyLang + "\n\n"
}

// langConstraint requires lang in src's build constraint, which makes lang
// the file's language version (Go 1.21 and later honour a file's //go:build
// go1.N over the module's version). An existing //go:build line (or,
// lacking one, its // +build lines) becomes "//go:build go1.N && (expr)" in
// place, so that no line moves; a file without any gets head, a new
// constraint for the caller to put before the file's //line directive.
func langConstraint(src []byte, lang string) (out []byte, head string, err error) {
	lines := bytes.SplitAfter(src, []byte("\n"))
	expr, at, plus, err := leadingConstraint(lines)
	if err != nil {
		return nil, "", err
	}
	if at < 0 {
		return src, "//go:build " + lang + "\n\n", nil
	}
	for _, i := range plus {
		lines[i] = []byte("//\n") // folded into the //go:build line
	}
	lines[at] = []byte("//go:build " + lang + " && (" + expr + ")\n")
	return bytes.Join(lines, nil), "", nil
}

// leadingConstraint finds the build constraint in the lines before the
// package clause: the //go:build expression and its line, or, without one,
// the // +build lines joined into one expression, at the first of them.
// plus lists the // +build lines, which the caller blanks: with the
// //go:build line changed they would no longer match it. at is -1 when the
// file has no constraint.
func leadingConstraint(lines [][]byte) (expr string, at int, plus []int, err error) {
	at = -1
	var plusExpr constraint.Expr
	for i, l := range lines {
		s := strings.TrimSpace(string(l))
		if s != "" && !strings.HasPrefix(s, "//") {
			break
		}
		if !constraint.IsGoBuild(s) && !constraint.IsPlusBuild(s) {
			continue
		}
		x, err := constraint.Parse(s)
		if err != nil {
			return "", -1, nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		if constraint.IsGoBuild(s) {
			expr, at = x.String(), i
			continue
		}
		plus = append(plus, i)
		if plusExpr == nil {
			plusExpr = x
		} else {
			plusExpr = &constraint.AndExpr{X: plusExpr, Y: x}
		}
	}
	if at < 0 && plusExpr != nil {
		expr, at = plusExpr.String(), plus[0]
	}
	return expr, at, plus, nil
}
