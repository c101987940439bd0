package instrument

import (
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/divergo/divergo/analyzer"
	"github.com/divergo/divergo/internal/load"
	"github.com/divergo/divergo/internal/tbb"
)

// Config says what to instrument.
type Config struct {
	Dir      string   // directory to resolve patterns in; "" means the current one
	Patterns []string // package patterns; none means "./..."
	Env      []string // environment for the go command; nil means os.Environ()
	// NoPack records every probe of a packed loop on its own instead of
	// as codes in a word (docs/FORMAT.md, "Packed loops"): the same
	// events, at the cost of a store per probe.
	NoPack bool
	// Linked says the patterns name every package of the main module
	// that the target to build links (run, test and check): copies of
	// more packages build the same binary, so a .divergo written for a
	// wider set (go generate's ./...) is taken as it is. Without it, only
	// copies of exactly the packages named are.
	Linked bool
}

// Instrument loads the packages of the main module that cfg names, runs
// the analyzer over them, builds the TBB graph and writes the instrumented
// copies and the overlay under the module root's .divergo directory.
// Packages of other modules are analysed (for facts) but not rewritten:
// the go command cannot overlay files of the module cache.
func Instrument(cfg Config) (*Result, error) { return instrument(cfg, "") }

// instrument is Instrument writing to out instead of the module's
// .divergo when out is not "" (the tests keep it out of the repository).
func instrument(cfg Config, out string) (*Result, error) {
	patterns := patterns(cfg)
	env, err := moduleEnv(cfg)
	if err != nil {
		return nil, err
	}
	var (
		key   string
		named []string
	)
	if env != nil && out == "" {
		key, named = cacheKey(cfg, env)
		if res := cached(filepath.Join(filepath.Dir(env["GOMOD"]), OutDir), key, named, cfg.Linked); res != nil {
			return res, nil
		}
	}
	lr, err := load.Load(load.Config{Dir: cfg.Dir, Patterns: patterns, Env: cfg.Env, Tests: true}, analyzer.Analyzer)
	if err != nil {
		return nil, err
	}
	if lr.ModuleDir == "" {
		return nil, fmt.Errorf("the packages are not in a module: instrumenting needs a main module to hold %s", OutDir)
	}
	var (
		results []*analyzer.Result
		roots   []*load.Package
	)
	for _, root := range testVariants(lr.Roots) {
		p := root.Pkg
		if p.Module == nil || !p.Module.Main {
			continue
		}
		ar, ok := root.Result.(*analyzer.Result)
		if !ok || ar == nil {
			return nil, fmt.Errorf("%s: the analyzer returned no result", p.PkgPath)
		}
		results = append(results, ar)
		roots = append(roots, root)
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("no package of the main module matches %v", patterns)
	}
	if cfg.NoPack {
		for _, ar := range results {
			for _, fg := range ar.Funcs {
				fg.Flow.Unpack()
			}
		}
	}
	g, err := analyzer.Graph(lr.Module, lr.ModuleDir, lr.Fset, results)
	if err != nil {
		return nil, fmt.Errorf("building the graph: %w", err)
	}
	graphJSON, err := tbb.Marshal(g)
	if err != nil {
		return nil, fmt.Errorf("encoding the graph: %w", err)
	}
	var pkgs []*Package
	for i, root := range roots {
		p := root.Pkg
		if len(p.GoFiles) == 0 {
			continue
		}
		files, cgo := ownFiles(p)
		pkg := &Package{
			Path: p.PkgPath, Name: p.Name, Dir: filepath.Dir(p.GoFiles[0]),
			Fset: p.Fset, Files: files, Cgo: cgo, Info: p.TypesInfo, Types: p.Types,
		}
		for _, f := range files {
			if strings.HasSuffix(p.Fset.File(f.Pos()).Name(), "_test.go") {
				pkg.Tests = true
				pkg.TestMain = pkg.TestMain || declaresTestMain(f)
			}
		}
		for _, fg := range results[i].Funcs {
			if fg.Flow.Silent {
				continue // records nothing: left as written
			}
			plan, err := FromFlow(p.Fset, fg.Node, fg.Flow, isMainMain(p.Name, fg.Node))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p.PkgPath, err)
			}
			pkg.Funcs = append(pkg.Funcs, plan)
		}
		pkgs = append(pkgs, pkg)
	}
	if out == "" {
		out = filepath.Join(lr.ModuleDir, OutDir)
	}
	m := Module{Dir: lr.ModuleDir, Path: lr.Module}
	var rootPkgs []*packages.Package
	for _, r := range roots {
		rootPkgs = append(rootPkgs, r.Pkg)
	}
	m.HTTPPprof = linkedFiles(rootPkgs, httpPprof)
	if mod := roots[0].Pkg.Module; mod != nil {
		m.GoVersion = mod.GoVersion
	}
	res, err := write(m, out, graphJSON, pkgs)
	if err != nil {
		return nil, err
	}
	res.ModuleDir, res.Packages, res.Graph = lr.ModuleDir, len(pkgs), g
	if err := keep(out, key, named, res, graphJSON); err != nil {
		return nil, err
	}
	return res, nil
}

// patterns are cfg's, "./..." when it names none.
func patterns(cfg Config) []string {
	if len(cfg.Patterns) == 0 {
		return []string{"./..."}
	}
	return cfg.Patterns
}

// testVariants keeps, of the packages loaded with their tests, the ones
// to instrument: a package's test variant ("p [p.test]": its files and its
// internal test files) in place of the package, its external test package
// ("p_test [p.test]"), and not the generated test main ("p.test"). One
// package is instrumented once, so that its blocks have one id whether a
// program or a test binary runs them.
func testVariants(roots []*load.Package) []*load.Package {
	variant := map[string]bool{}
	for _, r := range roots {
		if r.Pkg.ID != r.Pkg.PkgPath && strings.HasSuffix(r.Pkg.ID, "]") && !strings.HasSuffix(r.Pkg.PkgPath, "_test") {
			variant[r.Pkg.PkgPath] = true
		}
	}
	var out []*load.Package
	for _, r := range roots {
		p := r.Pkg
		switch {
		case strings.HasSuffix(p.ID, ".test"):
			continue // the generated test main, in the build cache
		case p.ID == p.PkgPath && variant[p.PkgPath]:
			continue // its test variant holds the same files and more
		}
		out = append(out, r)
	}
	return out
}

// declaresTestMain says whether f declares a TestMain function.
func declaresTestMain(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "TestMain" {
			return true
		}
	}
	return false
}

// ownFiles returns the parsed files of p that are the module's own, and
// the files that import "C". For a package using cgo the go command
// type-checks cgo's output, files of its build cache that hold the
// translated cgo files (with //line directives back to them) and glue: those
// are neither rewritten nor overlaid (an overlay of the cache would not be
// used, and cgo rewrites the originals itself at every build).
func ownFiles(p *packages.Package) (own []*ast.File, cgo []string) {
	gofiles := map[string]bool{}
	for _, f := range p.GoFiles {
		gofiles[f] = true
	}
	compiled := map[string]bool{}
	for _, f := range p.Syntax {
		name := p.Fset.File(f.Pos()).Name()
		compiled[name] = true
		if gofiles[name] {
			own = append(own, f)
		}
	}
	for _, f := range p.GoFiles {
		if !compiled[f] {
			cgo = append(cgo, f)
		}
	}
	return own, cgo
}

func isMainMain(pkg string, n ast.Node) bool {
	d, ok := n.(*ast.FuncDecl)
	return ok && pkg == "main" && d.Recv == nil && d.Name.Name == "main"
}

// moduleEnv reads the go command's environment in cfg.Dir and says in one
// line when cfg.Dir is not inside a module: the go command's own message
// ("directory outside main module or its selected dependencies") does not
// say what to do. A nil map with no error means the go command could not
// say, and the load will report why.
func moduleEnv(cfg Config) (map[string]string, error) {
	env, err := goEnvOf(cfg)
	if err != nil {
		return nil, nil
	}
	if gomod := env["GOMOD"]; gomod == "" || gomod == os.DevNull {
		dir := cfg.Dir
		if dir == "" {
			dir = "the current directory"
		}
		return nil, fmt.Errorf("%s is not in a Go module (no go.mod here or above): instrumenting writes %s at the module root; run go mod init first", dir, OutDir)
	}
	return env, nil
}
