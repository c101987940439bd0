package analyzer

import (
	"bytes"
	"encoding/gob"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// Options tune the analyzer for a driver that loads a whole program at
// once (divergo instrument, vet, graph and check). Under go vet, where
// each package is a process of its own, and in analysistest, the analyzer
// runs without them: every package gets the whole analysis.
type Options struct {
	// Root reports whether a package is one the driver was asked about.
	// The others are dependencies, analysed for the facts their importers
	// take and for nothing else: no change points, no graph. Nil: every
	// package is a root.
	Root func(*types.Package) bool
	// Facts keeps the facts of dependencies between runs, nil for none.
	Facts FactStore
}

// A FactStore keeps the facts of dependencies whose analysis cannot
// change between two runs of one divergo binary with the same flags: the
// standard library of one Go installation. Every divergo instrument would
// otherwise build the SSA of, and summarize, each standard package its
// program imports (most of its analysis time on a small program:
// docs/PERFORMANCE.md, "Instrumenting: facts of the standard library").
type FactStore interface {
	// Key is what names pkg's facts in the store: it changes whenever
	// they could, "" when they are not to be kept.
	Key(pkg *types.Package) string
	// Get returns the facts Put stored under key.
	Get(key string) ([]byte, bool)
	// Put stores facts under key. A store that fails to keep them loses
	// nothing but time.
	Put(key string, facts []byte)
}

// Driven returns the analyzer with o: a copy of [Analyzer], with its
// flags, for one run of a driver.
func Driven(o Options) *analysis.Analyzer {
	a := *Analyzer
	a.Run = func(pass *analysis.Pass) (any, error) {
		if o.Root != nil && !o.Root(pass.Pkg) {
			return dependency(pass, o.Facts), nil
		}
		return run(pass)
	}
	return &a
}

// dependency works out the facts of a package that is no root, from the
// store when it has them.
func dependency(pass *analysis.Pass, store FactStore) *Result {
	key := ""
	if store != nil {
		key = store.Key(pass.Pkg)
	}
	if key != "" {
		if data, ok := store.Get(key); ok && importFacts(pass, data) {
			return &Result{Pkg: pass.Pkg}
		}
	}
	ps := newPkgState(pass, buildSSA(pass))
	ps.run()
	facts := ps.exportFacts()
	if key != "" {
		if data, err := encodeFacts(facts); err == nil {
			store.Put(key, data)
		}
	}
	return &Result{Pkg: pass.Pkg}
}

// storedFact is a fact of the store: the object's path in its package.
type storedFact struct {
	Path string
	Fact funcFact
}

func encodeFacts(facts map[*types.Func]*funcFact) ([]byte, error) {
	var enc objectpath.Encoder
	var out []storedFact
	for obj, f := range facts {
		p, err := enc.For(obj)
		if err != nil {
			return nil, err
		}
		out = append(out, storedFact{Path: string(p), Fact: *f})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// importFacts exports the stored facts data as the package's own, and
// reports whether it could: data that does not decode, or names an object
// the package lacks, exports nothing, and the package is analysed.
func importFacts(pass *analysis.Pass, data []byte) bool {
	var stored []storedFact
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&stored); err != nil {
		return false
	}
	objs := make([]types.Object, len(stored))
	for i, s := range stored {
		obj, err := objectpath.Object(pass.Pkg, objectpath.Path(s.Path))
		if err != nil {
			return false
		}
		if _, ok := obj.(*types.Func); !ok {
			return false
		}
		objs[i] = obj
	}
	for i := range stored {
		pass.ExportObjectFact(objs[i], &stored[i].Fact)
	}
	return true
}
