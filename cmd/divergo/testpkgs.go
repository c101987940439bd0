package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/divergo/divergo/instrument"
)

// A testPackage is one package the patterns of divergo test name, and
// what became of it before its runs: its test binary, or why it has none.
type testPackage struct {
	Path  string // import path: records and reports name packages by it
	Dir   string // where go test runs its binary
	Tests bool   // it has test files
	// Broken says why the package does not build (go list, instrumenting
	// or go test -c said so), "" when it does.
	Broken string
	bin    string
}

// listTestPackages lists the packages that patterns name, in go list's
// order, each with its directory and whether it has tests. A package that
// go list cannot load (a missing import, a syntax error) is listed with
// Broken set rather than failing the whole list, as go test ./... goes on
// with the packages it can build; packages outside the main module at
// root are refused, as divergo overlays only the main module's files.
func listTestPackages(root string, patterns []string) ([]*testPackage, error) {
	args := append([]string{"list", "-e", "-json=ImportPath,Dir,TestGoFiles,XTestGoFiles,Error,DepsErrors,Module"}, patterns...)
	cmd := exec.Command("go", args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("listing %s: %s", strings.Join(patterns, " "), firstLine(errOut.String(), err))
	}
	type goErr struct{ Err string }
	var pkgs []*testPackage
	dec := json.NewDecoder(&out)
	for {
		var p struct {
			ImportPath, Dir           string
			TestGoFiles, XTestGoFiles []string
			Error                     *goErr
			DepsErrors                []*goErr
			Module                    *struct{ Dir string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading go list's packages: %w", err)
		}
		if p.Module == nil || filepath.Clean(p.Module.Dir) != filepath.Clean(root) {
			if p.Error != nil && p.Module == nil {
				return nil, fmt.Errorf("%s", oneLine(p.Error.Err))
			}
			return nil, fmt.Errorf("%s is not a package of the main module at %s: divergo test instruments only the main module", p.ImportPath, root)
		}
		tp := &testPackage{Path: p.ImportPath, Dir: p.Dir, Tests: len(p.TestGoFiles)+len(p.XTestGoFiles) > 0}
		switch {
		case p.Error != nil:
			tp.Broken = oneLine(p.Error.Err)
		case len(p.DepsErrors) > 0:
			tp.Broken = oneLine(p.DepsErrors[0].Err)
		}
		pkgs = append(pkgs, tp)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s: no packages to test", strings.Join(patterns, " "))
	}
	return pkgs, nil
}

// oneLine is the first line of a go command's message.
func oneLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// instrumentTests instruments, once, every package of the main module that
// the test binaries of pkgs link, under one reuse key: a second divergo
// test of the same suite, or of one of its packages, reuses it. When the
// whole set does not load (a package does not type-check), each package
// with tests is type-checked, the packages that fail are marked Broken,
// and the rest are instrumented together.
func instrumentTests(root string, pkgs []*testPackage, stderr io.Writer) (*instrument.Result, error) {
	var paths []string
	for _, p := range pkgs {
		if p.Tests && p.Broken == "" {
			paths = append(paths, p.Path)
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	linked, err := targetPackages(root, "", true, paths...)
	if err != nil {
		return nil, err
	}
	res, err := instrument.Instrument(instrument.Config{Dir: root, Patterns: linked, Linked: true})
	if err == nil {
		reportInstrument(res, stderr, stderr)
		return res, nil
	}
	if len(paths) == 1 {
		return nil, err
	}
	// Tell the packages that do not type-check from the rest with one
	// load that writes nothing (.divergo and its test binaries stay for
	// the next invocation), then instrument the rest.
	broken, lerr := brokenPackages(root, paths)
	if lerr != nil || len(broken) == 0 {
		return nil, err
	}
	var good []string
	for _, p := range pkgs {
		if why, ok := broken[p.Path]; ok {
			p.Broken = rel(root, why)
		} else if p.Tests && p.Broken == "" {
			good = append(good, p.Path)
		}
	}
	if len(good) == 0 {
		return nil, nil
	}
	if linked, err = targetPackages(root, "", true, good...); err != nil {
		return nil, err
	}
	if res, err = instrument.Instrument(instrument.Config{Dir: root, Patterns: linked, Linked: true}); err != nil {
		return nil, err
	}
	reportInstrument(res, stderr, stderr)
	return res, nil
}

// brokenPackages loads paths with their tests, in the module at root, and
// returns the first error of each that does not type-check (or whose
// dependencies do not), by import path.
func brokenPackages(root string, paths []string) (map[string]string, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir: root, Tests: true}
	roots, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, err
	}
	broken := map[string]string{}
	for _, r := range roots {
		path := strings.TrimSuffix(r.PkgPath, "_test")
		if _, done := broken[path]; done {
			continue
		}
		packages.Visit([]*packages.Package{r}, nil, func(p *packages.Package) {
			if _, done := broken[path]; !done && len(p.Errors) > 0 {
				broken[path] = oneLine(p.Errors[0].Error())
			}
		})
	}
	return broken, nil
}
