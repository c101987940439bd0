package perfetto

import (
	"fmt"
	"io"
	"os"
)

// WriteFile creates path and fills it with what write writes, removing it
// again if write or the close fails, so that a command never leaves half a
// timeline behind:
//
//	err := perfetto.WriteFile(out, func(w io.Writer) error { return perfetto.WriteTrace(w, r) })
func WriteFile(path string, write func(w io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("writing %s: %w", path, cerr)
	}
	if err != nil {
		os.Remove(path)
		return err
	}
	return nil
}
