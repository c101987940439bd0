package load

import (
	"go/types"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
)

// TestFactStoreKeys: standard packages get a key, which changes with
// their files (and so with their imports'), and what is put under it
// comes back, from a file of the cache directory; a package of a module
// gets none, and DIVERGO_CACHE=off is no store.
func TestFactStoreKeys(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("DIVERGO_CACHE", cache)
	src, src2 := filepath.Join(t.TempDir(), "a.go"), filepath.Join(t.TempDir(), "b.go")
	for _, f := range []string{src, src2} {
		if err := os.WriteFile(f, []byte("package a\n"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	unsafe := &packages.Package{ID: "unsafe", PkgPath: "unsafe", Types: types.Unsafe}
	lo := &packages.Package{ID: "internal/lo", PkgPath: "internal/lo", CompiledGoFiles: []string{src},
		Types: types.NewPackage("internal/lo", "lo"), Imports: map[string]*packages.Package{"unsafe": unsafe}}
	hi := &packages.Package{ID: "strings", PkgPath: "strings", CompiledGoFiles: []string{src2},
		Types: types.NewPackage("strings", "strings"), Imports: map[string]*packages.Package{"internal/lo": lo}}
	mod := &packages.Package{ID: "example.com/m", PkgPath: "example.com/m", CompiledGoFiles: []string{src},
		Types: types.NewPackage("example.com/m", "m"), Module: &packages.Module{Path: "example.com/m", Main: true},
		Imports: map[string]*packages.Package{"strings": hi}}

	s := newFactStore([]*packages.Package{mod})
	if s == nil {
		t.Fatal("no store with DIVERGO_CACHE set")
	}
	k := s.Key(hi.Types)
	if k == "" || s.Key(lo.Types) == "" || s.Key(lo.Types) == k {
		t.Fatalf("keys of the standard packages: %q, %q", k, s.Key(lo.Types))
	}
	if got := s.Key(mod.Types); got != "" {
		t.Errorf("a module's package has key %q", got)
	}
	if _, ok := s.Get(k); ok {
		t.Error("Get of an empty store found something")
	}
	s.Put(k, []byte("facts"))
	if data, ok := s.Get(k); !ok || string(data) != "facts" {
		t.Errorf("Get after Put: %q, %v", data, ok)
	}
	if _, err := os.Stat(filepath.Join(cache, "facts", k[:2], k)); err != nil {
		t.Errorf("the facts are not in the cache directory: %v", err)
	}

	// An edit of a file of lo changes both keys.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(src, later, later); err != nil {
		t.Fatal(err)
	}
	s2 := newFactStore([]*packages.Package{mod})
	if s2.Key(hi.Types) == k {
		t.Error("the key of strings did not change with its import's file")
	}

	t.Setenv("DIVERGO_CACHE", "off")
	if s := newFactStore([]*packages.Package{mod}); s != nil {
		t.Error("DIVERGO_CACHE=off made a store")
	}
}
