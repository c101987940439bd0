package perfetto

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/divergo/divergo/compare"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden keeps the exact output for the synthetic traces in testdata,
// so that a change of format shows in review. The schema tests are what
// say the output is right; this says it did not move.
func TestGolden(t *testing.T) {
	tests := []struct {
		file  string
		write func(t *testing.T) []byte
	}{
		{"one.golden.json", func(t *testing.T) []byte {
			_, data := render(t, Options{MinFrame: -1}, Run{Reader: oneRun(t)})
			return data
		}},
		{"diff.golden.json", func(t *testing.T) []byte {
			a, b := twoRuns(t)
			var buf bytes.Buffer
			if _, err := writeDiff(&buf, Run{Reader: a}, Run{Reader: b}, compare.Options{}, Options{MinFrame: -1}); err != nil {
				t.Fatal(err)
			}
			if _, err := Validate(buf.Bytes()); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got := tt.write(t)
			path := filepath.Join("testdata", tt.file)
			if *update {
				if err := os.WriteFile(path, got, 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (go test -update rewrites it):\n%s", path, got)
			}
		})
	}
}
