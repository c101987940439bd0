package load

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"go/types"
	"hash"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/divergo/divergo/analyzer"
)

// factsVersion changes when what the store holds changes shape.
const factsVersion = "divergo facts 1"

// factStore keeps the analyzer's facts of standard packages in the user's
// cache directory (DIVERGO_CACHE, by default divergo/ under
// os.UserCacheDir; DIVERGO_CACHE=off keeps none), one file a package,
// named by a key of everything the facts depend on: divergo's own binary,
// the analyzer's flags, the package's files (path, size, time) and the
// keys of its imports.
type factStore struct {
	dir  string
	keys map[*types.Package]string
}

// newFactStore is the store for the packages pkgs import, nil when there
// is no cache directory or no key for divergo's binary.
func newFactStore(pkgs []*packages.Package) *factStore {
	dir := cacheDir()
	self := SelfHash()
	if dir == "" || self == "" {
		return nil
	}
	s := &factStore{dir: filepath.Join(dir, "facts"), keys: map[*types.Package]string{}}
	var flags strings.Builder
	analyzer.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		fmt.Fprintf(&flags, "-%s=%q\n", f.Name, f.Value.String())
	})
	done := map[*packages.Package]string{}
	var key func(p *packages.Package) string
	key = func(p *packages.Package) string {
		if k, ok := done[p]; ok {
			return k
		}
		done[p] = "" // an import cycle keys nothing
		if p.PkgPath == "unsafe" {
			done[p] = "unsafe" // no files, no facts: the same in every Go
			return "unsafe"
		}
		if !standard(p) {
			return ""
		}
		h := sha256.New()
		fmt.Fprintf(h, "%s\n%s\n%s%s\n", factsVersion, self, flags.String(), p.ID)
		if !hashFiles(h, p.CompiledGoFiles) {
			return ""
		}
		for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
			k := key(p.Imports[path])
			if k == "" {
				return ""
			}
			fmt.Fprintf(h, "import %s %s\n", path, k)
		}
		k := hex.EncodeToString(h.Sum(nil))
		done[p] = k
		if p.Types != nil {
			s.keys[p.Types] = k
		}
		return k
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) { key(p) })
	return s
}

// standard reports whether p is a package of the standard library: no
// module, an import path without a dot in its first element, and files.
func standard(p *packages.Package) bool {
	first, _, _ := strings.Cut(p.PkgPath, "/")
	return p.Module == nil && len(p.CompiledGoFiles) > 0 && !strings.Contains(first, ".") &&
		p.PkgPath != "main" && p.PkgPath != "command-line-arguments" && p.ID == p.PkgPath
}

// hashFiles writes each file's path, size and modification time to h.
func hashFiles(h hash.Hash, files []string) bool {
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return false
		}
		fmt.Fprintf(h, "file %s %d %d\n", f, fi.Size(), fi.ModTime().UnixNano())
	}
	return true
}

func (s *factStore) Key(pkg *types.Package) string { return s.keys[pkg] }

func (s *factStore) path(key string) string { return filepath.Join(s.dir, key[:2], key) }

func (s *factStore) Get(key string) ([]byte, bool) {
	data, err := os.ReadFile(s.path(key))
	return data, err == nil
}

// Put writes the facts to a file of their own and renames it into place,
// so that divergo processes running side by side never read half a file.
func (s *factStore) Put(key string, facts []byte) {
	p := s.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(p), key+".tmp*")
	if err != nil {
		return
	}
	_, err = f.Write(facts)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
}

// cacheDir is where divergo keeps what outlives a run, "" for nowhere.
func cacheDir() string {
	switch d := os.Getenv("DIVERGO_CACHE"); d {
	case "off":
		return ""
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(base, "divergo")
	default:
		return d
	}
}

var self struct {
	once sync.Once
	hash string
}

// SelfHash identifies divergo's own executable, "" when it cannot be
// read: what it analyses and writes changes with it. It is the Go build
// ID the linker wrote into the binary, whose last half hashes the
// binary's content (the go command's own test of a stale binary), read
// from the ELF note in a few reads; else a hash of the whole file. Hashing
// the 17 MB binary took 20 to 80 ms of every warm start of divergo test
// (docs/PERFORMANCE.md).
func SelfHash() string {
	self.once.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		if id := elfBuildID(exe); id != "" {
			self.hash = "build " + id
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return
		}
		self.hash = hex.EncodeToString(h.Sum(nil))
	})
	return self.hash
}
