package perfetto

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := WriteFile(good, func(w io.Writer) error { return WriteTrace(w, oneRun(t)) }); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Validate(data); err != nil {
		t.Errorf("%s: %v", good, err)
	}

	bad := filepath.Join(dir, "bad.json")
	boom := errors.New("boom")
	err = WriteFile(bad, func(w io.Writer) error {
		io.WriteString(w, `{"traceEvents":[`)
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("half-written %s left behind", bad)
	}
	if err := WriteFile(filepath.Join(dir, "no", "dir.json"), func(io.Writer) error { return nil }); err == nil {
		t.Error("no error creating a file in a missing directory")
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// A failing writer stops the drawing with its error.
func TestWriteError(t *testing.T) {
	for _, n := range []int{0, 100, 10000} {
		r := openFile(t, "contention.dvt")
		if err := WriteTrace(&failWriter{n: n}, r); err == nil || err.Error() != "disk full" {
			t.Errorf("after %d bytes: error %v, want disk full", n, err)
		}
	}
}
