// Package load loads Go packages and runs the divergo analyzer over them, for
// the commands that need the analysis of a whole set of packages at once
// (vet, graph, instrument).
//
// It uses go/packages and the go/analysis checker, so facts flow from
// dependencies to the packages named, exactly as under "go vet".
package load

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/divergo/divergo/analyzer"
)

// Config says what to load.
type Config struct {
	Dir      string   // directory to resolve patterns in; "" means the current one
	Patterns []string // package patterns; none means "."
	Tests    bool     // include test files and test packages
	Env      []string // environment for the go command; nil means os.Environ()
}

// Result is what Load returns.
type Result struct {
	Fset      *token.FileSet
	Module    string // main module path ("std" for the standard library)
	ModuleDir string // main module root directory
	Roots     []*Package
}

// Package is one analysed package named by the patterns.
type Package struct {
	Pkg         *packages.Package
	Result      any // the analyzer's result for the package
	Diagnostics []analysis.Diagnostic
}

// Load loads the packages and runs a over them. Packages that do not parse or
// type-check are an error that names the first few problems.
func Load(cfg Config, a *analysis.Analyzer) (*Result, error) {
	l, err := Packages(cfg)
	if err != nil {
		return nil, err
	}
	return l.Analyze(a)
}

// Loaded is a set of packages loaded once, to be analysed more than once:
// divergo check analyses a package again with rules of the analyzer
// switched off, to see which one a divergence relied on.
type Loaded struct {
	cfg  Config
	pkgs []*packages.Package
}

// Packages loads the packages cfg names, for [Loaded.Analyze].
func Packages(cfg Config) (*Loaded, error) {
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	defer lessGC()()
	pcfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Dir:   cfg.Dir,
		Tests: cfg.Tests,
		Env:   cfg.Env,
	}
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	if err := packageErrors(pkgs); err != nil {
		return nil, err
	}
	return &Loaded{cfg: cfg, pkgs: pkgs}, nil
}

// Analyze runs a over the loaded packages, from their syntax: each call
// builds its own SSA and facts, so the analyzer's flags may change between
// calls.
func (l *Loaded) Analyze(a *analysis.Analyzer) (*Result, error) {
	pkgs := l.pkgs
	if a == analyzer.Analyzer {
		a = analyzer.Driven(l.options())
	}
	opts := &checker.Options{Sequential: runtime.GOMAXPROCS(0) == 1}
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, opts)
	if err != nil {
		return nil, fmt.Errorf("analysing packages: %w", err)
	}
	res := &Result{Fset: pkgs[0].Fset}
	res.Module, res.ModuleDir = mainModule(pkgs, l.cfg.Dir)
	var errs []error
	for _, act := range graph.Roots {
		if act.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", act.Package.PkgPath, act.Err))
			continue
		}
		res.Roots = append(res.Roots, &Package{Pkg: act.Package, Result: act.Result, Diagnostics: act.Diagnostics})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sort.Slice(res.Roots, func(i, j int) bool { return res.Roots[i].Pkg.ID < res.Roots[j].Pkg.ID })
	return res, nil
}

// options are the analyzer's options for the packages loaded: the
// packages named are its roots, and the facts of standard packages come
// from the cache directory when they are there.
func (l *Loaded) options() analyzer.Options {
	roots := map[*types.Package]bool{}
	for _, p := range l.pkgs {
		roots[p.Types] = true
	}
	o := analyzer.Options{Root: func(p *types.Package) bool { return roots[p] }}
	if s := newFactStore(l.pkgs); s != nil {
		o.Facts = s
	}
	return o
}

// lessGC lets the heap grow to five times what is live while packages
// load and the analyzer runs, unless the user set GOGC, and returns what
// puts the setting back. Loading makes mostly garbage that lives as long
// as the load (syntax, types, SSA of every dependency): with Go's default
// the collector took a third of divergo instrument's CPU on a one-file
// program (2.8 s of user time against 1.8 s with GOGC=400, RSS 460 MB
// against 560 MB; docs/PERFORMANCE.md, "Instrumenting").
func lessGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(old) }
}

// packageErrors reports the load and type errors of pkgs and their
// dependencies, at most a few, so that a package that does not type-check
// gets a clear message instead of an analysis of half a program.
func packageErrors(pkgs []*packages.Package) error {
	var msgs []string
	n := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			n++
			if len(msgs) < 5 {
				msg := e.Error()
				if e.Pos == "" || e.Pos == "-" {
					msg = e.Msg
				}
				msgs = append(msgs, msg)
			}
		}
	})
	if n == 0 {
		return nil
	}
	more := ""
	if n > len(msgs) {
		more = fmt.Sprintf(" (and %d more)", n-len(msgs))
	}
	return fmt.Errorf("packages do not build: %s%s", strings.Join(msgs, "; "), more)
}

// mainModule names the module of the root packages; for the standard library
// it is "std" rooted at GOROOT/src.
func mainModule(pkgs []*packages.Package, dir string) (path, root string) {
	for _, p := range pkgs {
		if m := p.Module; m != nil {
			for m.Replace != nil {
				m = m.Replace
			}
			if m.Main || m.Dir != "" {
				return p.Module.Path, m.Dir
			}
		}
	}
	// Standard library packages have no module: their root is the directory
	// that holds the import path (GOROOT/src).
	for _, p := range pkgs {
		if len(p.GoFiles) > 0 {
			d := filepath.Dir(p.GoFiles[0])
			if suffix := string(filepath.Separator) + filepath.FromSlash(p.PkgPath); strings.HasSuffix(d, suffix) {
				return "std", strings.TrimSuffix(d, suffix)
			}
		}
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return "", dir
}

// Rel returns file relative to the module root with forward slashes, or the
// file unchanged when it is outside.
func (r *Result) Rel(file string) string {
	if r.ModuleDir != "" {
		if rel, err := filepath.Rel(r.ModuleDir, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return file
}
