package analyzer

import (
	"go/types"
	"strings"
)

// funcKey names a function or method for the tables below by package path,
// receiver type name (pointer or not) and name, so that generic and
// pointer receivers need no special spelling.
type funcKey struct{ pkg, recv, name string }

func keyOf(fn *types.Func) funcKey {
	k := funcKey{name: fn.Name()}
	if fn.Pkg() != nil {
		k.pkg = fn.Pkg().Path()
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			k.recv = n.Obj().Name()
		}
	}
	return k
}

// isLock reports whether fn acquires a sync.Mutex or sync.RWMutex.
func isLock(fn *types.Func) bool {
	k := keyOf(fn)
	if k.pkg != "sync" {
		return false
	}
	switch k.recv {
	case "Mutex":
		return k.name == "Lock" || k.name == "TryLock"
	case "RWMutex":
		return k.name == "Lock" || k.name == "RLock" || k.name == "TryLock" || k.name == "TryRLock"
	}
	return false
}

// isOnceDo reports whether fn is sync.(*Once).Do: which of the goroutines
// calling Do on one Once runs its function is up to the schedule, and the
// others skip it (or wait for it).
func isOnceDo(fn *types.Func) bool {
	k := keyOf(fn)
	return k.pkg == "sync" && k.recv == "Once" && k.name == "Do"
}

// isInput reports whether fn returns nondeterministic input: the clock or
// random numbers.
func isInput(fn *types.Func) bool {
	k := keyOf(fn)
	switch k.pkg {
	case "time":
		return k.recv == "" && (k.name == "Now" || k.name == "Since" || k.name == "Until")
	case "math/rand", "math/rand/v2":
		return !isSeeder(fn) // a generator's draws are input unless it is local (seeded.go)
	case "crypto/rand":
		return true
	}
	return false
}

// sharedResult reports functions whose results are shared by nature,
// whatever their body says: atomic loads, sync.Map loads, try-locks.
func sharedResult(fn *types.Func) (string, bool) {
	k := keyOf(fn)
	switch k.pkg {
	case "sync/atomic":
		return "atomic operation " + strings.TrimPrefix(fnName(fn), "sync/"), true
	case "reflect":
		if k.recv == "Value" && (k.name == "Pointer" || k.name == "UnsafeAddr") {
			return "a pointer's address (reflect.Value." + k.name + ")", true
		}
	case "sync":
		switch k.recv {
		case "Map":
			switch k.name {
			case "Load", "LoadOrStore", "LoadAndDelete", "Swap", "CompareAndSwap", "CompareAndDelete":
				return "sync.Map " + k.name, true
			}
		case "Mutex", "RWMutex":
			if strings.HasPrefix(k.name, "Try") {
				return "sync." + k.recv + "." + k.name + " result", true
			}
		}
	}
	return "", false
}

// fnName is a short name for messages: "time.Now", "sync.(*Mutex).Lock".
func fnName(fn *types.Func) string {
	k := keyOf(fn)
	pkg := k.pkg
	if fn.Pkg() != nil {
		pkg = fn.Pkg().Name()
		if k.pkg == "sync/atomic" {
			pkg = "sync/atomic"
		}
	}
	if k.recv != "" {
		return pkg + "." + k.recv + "." + k.name
	}
	return pkg + "." + k.name
}
