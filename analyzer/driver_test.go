package analyzer

import (
	"fmt"
	"go/types"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// memStore is a FactStore in memory that keys every standard package by
// its path.
type memStore struct {
	mu         sync.Mutex
	facts      map[string][]byte
	gets, hits int
}

func (s *memStore) Key(pkg *types.Package) string {
	if strings.Contains(strings.Split(pkg.Path(), "/")[0], ".") || pkg.Path() == "factstore" {
		return ""
	}
	return pkg.Path()
}

func (s *memStore) Get(key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gets++
	data, ok := s.facts[key]
	if ok {
		s.hits++
	}
	return data, ok
}

func (s *memStore) Put(key string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.facts[key] = data
}

// errors records what analysistest reports instead of failing the test.
type errors []string

func (e *errors) Errorf(format string, args ...any) { *e = append(*e, fmt.Sprintf(format, args...)) }

// TestFactStore: the facts of dependencies taken from a store give the
// analysis the store's facts exactly (testdata/src/factstore's branch on
// strings.HasPrefix stays clean), a store that holds garbage is no store,
// and facts that are not the package's are taken as they are (so the
// store is what the analysis used: with strings' facts emptied, the branch
// is a change point).
func TestFactStore(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the standard library four times")
	}
	store := &memStore{facts: map[string][]byte{}}
	driven := Driven(Options{Root: func(p *types.Package) bool { return p.Path() == "factstore" }, Facts: store})
	analysistest.Run(t, analysistest.TestData(), driven, "factstore")
	if store.facts["strings"] == nil || store.hits != 0 {
		t.Fatalf("first run: stored %d packages (strings: %v), %d hits", len(store.facts), store.facts["strings"] != nil, store.hits)
	}

	gets := store.gets
	analysistest.Run(t, analysistest.TestData(), driven, "factstore")
	if store.hits != store.gets-gets || store.hits == 0 {
		t.Errorf("second run: %d of %d gets hit", store.hits, store.gets-gets)
	}

	for k := range store.facts {
		store.facts[k] = []byte("not facts")
	}
	analysistest.Run(t, analysistest.TestData(), driven, "factstore")

	empty, err := encodeFacts(nil)
	if err != nil {
		t.Fatal(err)
	}
	store.facts["strings"] = empty
	var errs errors
	analysistest.Run(&errs, analysistest.TestData(), driven, "factstore")
	if len(errs) != 1 || !strings.Contains(errs[0], "factstore.go:20") || !strings.Contains(errs[0], "strings.HasPrefix") {
		t.Errorf("with strings' facts emptied in the store, analysistest reported %q, want the branch on strings.HasPrefix at line 20 alone", errs)
	}
}
