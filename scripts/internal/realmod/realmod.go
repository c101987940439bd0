// Package realmod brings a published module's source into a directory of
// its own, for the scripts that run real modules' test suites
// (scripts/equivalence.go, scripts/benchsuite.go): fetched by version
// through the module proxy with the go command, copied out of the module
// cache writable, never into the repository.
package realmod

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Env is the environment the scripts run a copied module's go commands
// in: outside any workspace, its go.sum completed as needed.
func Env() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
}

// Fetch downloads mv (module@version) and copies it into a directory
// named after it below dir, replacing what was there, with its
// dependencies downloaded. It returns the copy's directory.
func Fetch(dir, mv string) (string, error) {
	src, err := download(mv)
	if err != nil {
		return "", err
	}
	mod := filepath.Join(dir, strings.ReplaceAll(mv, "/", "_"))
	if err := os.RemoveAll(mod); err != nil {
		return "", err
	}
	if err := copyTree(src, mod); err != nil {
		return "", fmt.Errorf("copying %s out of the module cache: %w", mv, err)
	}
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir, cmd.Env = mod, Env()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go mod download in %s: %v\n%s", mv, err, out)
	}
	return mod, nil
}

// download fetches mv through the module proxy and returns its directory
// in the module cache.
func download(mv string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", mv).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %v", mv, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		return "", fmt.Errorf("go mod download %s: %s", mv, m.Error)
	}
	return m.Dir, nil
}

// copyTree copies the module cache's read-only tree src to dst, writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o777)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o666)
	})
}
