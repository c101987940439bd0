package perfetto

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// FuzzWriteTrace: any file the trace reader accepts is drawn without a
// panic, and what is drawn follows the format's rules. Seeded with the real
// traces in testdata.
func FuzzWriteTrace(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.dvt"))
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := trace.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, Options{MinFrame: -1}, Run{Reader: r}); err != nil {
			return // a chunk that does not decode: an error, not a panic
		}
		if _, err := Validate(buf.Bytes()); err != nil {
			t.Fatalf("output does not validate: %v", err)
		}
	})
}
