package analyzer

import (
	"os"
	"path/filepath"
	"sync"
)

// modRoots caches, per directory, the module root above it ("" if none).
var modRoots sync.Map

func moduleRoot(dir string) string {
	if r, ok := modRoots.Load(dir); ok {
		return r.(string)
	}
	root := ""
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		root = dir
	} else if parent := filepath.Dir(dir); parent != dir {
		root = moduleRoot(parent)
	}
	modRoots.Store(dir, root)
	return root
}

// relFile names file relative to the root of the module that holds it, with
// forward slashes; outside a module, its base name.
func relFile(file string) string {
	if file == "" {
		return ""
	}
	root := moduleRoot(filepath.Dir(file))
	if root == "" {
		return filepath.Base(file)
	}
	rel, err := filepath.Rel(root, file)
	if err != nil {
		return filepath.Base(file)
	}
	return filepath.ToSlash(rel)
}
