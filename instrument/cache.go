package instrument

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/divergo/divergo/analyzer"
	"github.com/divergo/divergo/internal/tbb"
)

// Instrumenting loads and analyses every package the patterns name, with
// their dependencies: seconds on a module of a few thousand lines, paid
// again by every divergo run, test and check. The copies depend only on
// the sources of the module (and of the modules it replaces with local
// directories, or shares a workspace with), its go.mod, go.sum, go.work
// and vendor/modules.txt, the patterns, the analyzer's flags, the go
// command and its environment, and divergo itself; when none of them changed since .divergo
// was written, Instrument takes what is there (docs/INSTRUMENT.md, "Reuse").

// keyFile holds the key of what .divergo was written from, written last:
// a run stopped while writing leaves no key, and the next one writes again.
const keyFile = "key"

// resultFile holds the Result of the run that wrote .divergo, without its
// graph, which graphFile holds.
const (
	resultFile = "result.json"
	graphFile  = "graph.json"
)

// goEnv is what instrumenting reads of the go command's environment: the
// module, the workspace, and whatever selects files or changes types.
var goEnv = []string{"GOMOD", "GOWORK", "GOVERSION", "GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOROOT"}

// packagesFile lists the import paths .divergo holds copies of, a line
// each: a run that names them, or (Config.Linked) some of them, takes
// .divergo as it is.
const packagesFile = "packages"

// cacheKey hashes what the copies of cfg depend on but the packages; env
// is the go command's values of goEnv. It also returns the packages the
// patterns name. "" means it cannot tell, and the module is instrumented
// again.
func cacheKey(cfg Config, env map[string]string) (key string, pkgs []string) {
	self, err := os.Executable()
	if err != nil {
		return "", nil
	}
	h := sha256.New()
	if err := hashSelf(h, self); err != nil {
		return "", nil
	}
	// The packages the patterns name, not the patterns, and outside the
	// key: go generate's ./... holds what run, test and check want of the
	// packages their target links, and a package's copy does not depend
	// on which other packages were instrumented with it (its analysis
	// takes facts of its dependencies only).
	cmd := exec.Command("go", append([]string{"list", "-e", "-f", "{{.ImportPath}}"}, patterns(cfg)...)...)
	cmd.Dir, cmd.Env = cfg.Dir, cfg.Env
	out, err := cmd.Output()
	if err != nil {
		return "", nil
	}
	pkgs = strings.Fields(string(out))
	fmt.Fprintf(h, "nopack %v\n", cfg.NoPack)
	// The analyzer's flags (check -disable plants holes with one).
	analyzer.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		fmt.Fprintf(h, "-%s=%q\n", f.Name, f.Value.String())
	})
	for _, k := range goEnv {
		fmt.Fprintf(h, "%s=%q\n", k, env[k])
	}
	root := filepath.Dir(env["GOMOD"])
	dirs, err := sourceDirs(cfg, root, env)
	if err != nil {
		return "", nil
	}
	for _, d := range dirs {
		if err := hashTree(h, d); err != nil {
			return "", nil
		}
	}
	return hex.EncodeToString(h.Sum(nil)), pkgs
}

// sourceDirs lists the trees whose files the copies depend on: the
// module's root, the directories of the other modules of its workspace and
// of the modules its go.mod replaces with a local directory.
func sourceDirs(cfg Config, root string, env map[string]string) ([]string, error) {
	dirs := []string{root}
	var mod struct {
		Replace []struct {
			New struct{ Path, Version string }
		}
	}
	if err := goJSON(cfg, &mod, "mod", "edit", "-json"); err != nil {
		return nil, err
	}
	for _, r := range mod.Replace {
		if r.New.Version == "" { // a directory, not a module version
			p := r.New.Path
			if !filepath.IsAbs(p) {
				p = filepath.Join(root, p)
			}
			dirs = append(dirs, p)
		}
	}
	if w := env["GOWORK"]; w != "" && w != "off" {
		var work struct{ Use []struct{ DiskPath string } }
		if err := goJSON(cfg, &work, "work", "edit", "-json"); err != nil {
			return nil, err
		}
		for _, u := range work.Use {
			p := u.DiskPath
			if !filepath.IsAbs(p) {
				p = filepath.Join(filepath.Dir(w), p)
			}
			dirs = append(dirs, p)
		}
		dirs = append(dirs, w, w+".sum")
	}
	for i, d := range dirs {
		dirs[i] = filepath.Clean(d)
	}
	slices.Sort(dirs)
	return slices.Compact(dirs), nil
}

// goJSON runs the go command with args in cfg's directory and decodes its
// output into v.
func goJSON(cfg Config, v any, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = cfg.Dir, cfg.Env
	out, err := cmd.Output()
	if err != nil {
		return err
	}
	return json.Unmarshal(out, v)
}

// hashTree hashes the name and content of every file below root that a
// build can read: Go and assembly sources, C for cgo, the module files
// and vendor/modules.txt. It skips what the go command skips (directories
// starting with . or _, testdata) and nested modules. root may be a file.
func hashTree(h io.Writer, root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root && os.IsNotExist(err) {
				return nil // go.work.sum need not exist
			}
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			if p != root {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		switch filepath.Ext(name) {
		case ".go", ".s", ".c", ".h", ".mod", ".sum", ".work":
		default:
			if name != "modules.txt" && p != root {
				return nil
			}
		}
		fmt.Fprintf(h, "file %q\n", p)
		return hashFile(h, p)
	})
}

func hashFile(h io.Writer, p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	s := sha256.New()
	if _, err := io.Copy(s, f); err != nil {
		return err
	}
	fmt.Fprintf(h, "%x\n", s.Sum(nil))
	return nil
}

// cached is the Result of the run that wrote out from key, or nil when
// out was written from something else or is not whole, or holds copies of
// other packages than pkgs (when wider is false) or of fewer.
func cached(out, key string, pkgs []string, wider bool) *Result {
	if key == "" {
		return nil
	}
	if k, err := os.ReadFile(filepath.Join(out, keyFile)); err != nil || string(k) != key {
		return nil
	}
	held, err := os.ReadFile(filepath.Join(out, packagesFile))
	if err != nil {
		return nil
	}
	have := strings.Fields(string(held))
	if !wider && len(have) != len(pkgs) {
		return nil
	}
	for _, p := range pkgs {
		if !slices.Contains(have, p) {
			return nil
		}
	}
	data, err := os.ReadFile(filepath.Join(out, resultFile))
	if err != nil {
		return nil
	}
	var res Result
	if json.Unmarshal(data, &res) != nil {
		return nil
	}
	gdata, err := os.ReadFile(filepath.Join(out, graphFile))
	if err != nil {
		return nil
	}
	if res.Graph, err = tbb.Unmarshal(gdata); err != nil {
		return nil
	}
	var ov struct{ Replace map[string]string }
	if data, err = os.ReadFile(res.Overlay); err != nil || json.Unmarshal(data, &ov) != nil {
		return nil
	}
	for _, c := range ov.Replace {
		if _, err := os.Stat(c); err != nil {
			return nil
		}
	}
	res.Reused = true
	return &res
}

// keep writes res, the packages it holds and key into out, so that the
// next run with the same key and some of those packages takes them.
func keep(out, key string, pkgs []string, res *Result, graphJSON []byte) error {
	if key == "" {
		return nil
	}
	g := res.Graph
	res.Graph = nil
	data, err := json.Marshal(res)
	res.Graph = g
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{resultFile, data}, {graphFile, graphJSON}, {packagesFile, []byte(strings.Join(pkgs, "\n") + "\n")}, {keyFile, []byte(key)}} {
		if err := os.WriteFile(filepath.Join(out, f.name), f.data, 0o666); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(out, f.name), err)
		}
	}
	return nil
}

// goEnvOf reads goEnv from the go command in cfg's directory.
func goEnvOf(cfg Config) (map[string]string, error) {
	cmd := exec.Command("go", append([]string{"env"}, goEnv...)...)
	cmd.Dir, cmd.Env = cfg.Dir, cfg.Env
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	lines := bytes.Split(bytes.TrimRight(out, "\n"), []byte("\n"))
	if len(lines) != len(goEnv) {
		return nil, fmt.Errorf("go env printed %d lines for %d variables", len(lines), len(goEnv))
	}
	env := map[string]string{}
	for i, k := range goEnv {
		env[k] = string(lines[i])
	}
	return env, nil
}
