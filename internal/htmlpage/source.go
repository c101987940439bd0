package htmlpage

// The module's own source files, read for pages and text reports by the
// module-relative names a trace's graph gives them.
//
// A trace is input from anyone (a bug report, a CI artifact), and so is
// the graph embedded in it: a name like "../secret.txt" or
// "../../../../etc/services" must not make a page or a text report show a
// file of the machine that reads it. ReadSource resolves a name under the
// module root only: the name must be local (no "..", not absolute), the
// file must stay under the root once symbolic links are followed (an
// [os.Root] refuses any link out), and it must be a regular file of
// bounded size (a FIFO would block the report, /dev/zero never end).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// MaxSource bounds the files ReadSource returns: Go's largest generated sources
// are a few megabytes, and a report holds what it reads in memory.
const MaxSource = 64 << 20

// ReadSource returns the file named by name, a module-relative path with
// forward slashes, under the module root. It fails for a name that is not
// local, a file out of the root (through a symbolic link too), one that is
// not a regular file, and one larger than MaxSource.
func ReadSource(root, name string) ([]byte, error) {
	if root == "" {
		return nil, errors.New("no module root")
	}
	rel := filepath.FromSlash(name)
	if !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("%q is not a path inside the module", name)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// Stat before opening: opening a FIFO for reading blocks until a
	// writer comes.
	st, err := r.Stat(rel)
	if err != nil {
		return nil, sourceErr(name, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%q is not a regular file", name)
	}
	f, err := r.Open(rel)
	if err != nil {
		return nil, sourceErr(name, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, sourceErr(name, err)
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%q is not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSource+1))
	if err != nil {
		return nil, sourceErr(name, err)
	}
	if len(data) > MaxSource {
		return nil, fmt.Errorf("%q is larger than %d MB", name, MaxSource>>20)
	}
	return data, nil
}

// sourceErr names the file of an error quoted, as the graph gave it: a
// name may hold any byte, and an error is one line.
func sourceErr(name string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("reading %q: %w", name, err)
}
