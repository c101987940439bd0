package e2e

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBlankTestParam: tests whose *testing.T is named _ or not named at
// all (testdata/blanktest.txtar) are named in the recorded runs' traces,
// as a test that names it is: the instrumented copy names the parameter
// for TestEnter. Before, such a test's goroutine was no test's, and
// scripts/equivalence.go could not compare client_golang's TestNil.
func TestBlankTestParam(t *testing.T) {
	t.Parallel()
	dir := extract(t, filepath.Join("testdata", "blanktest.txtar"))
	out := filepath.Join(dir, "out")
	status, stdout, stderr := divergo(t, dir, "test", "-n", "2", "-perturb=false", "-o", out, ".")
	expect(t, "status of divergo test", status, 0)
	got := map[string][]string{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), "run-") || !strings.HasSuffix(d.Name(), ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var rec struct{ Tests map[string]string }
		if err := json.Unmarshal(data, &rec); err != nil {
			return err
		}
		for name, res := range rec.Tests {
			got[name] = append(got[name], res)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"TestBlank", "TestUnnamed", "TestNamed", "TestNamed/sub"} {
		if !slices.Equal(got[name], []string{"pass", "pass"}) {
			t.Errorf("%s in the two runs' records: %v, want pass in both\nrecords: %v\n%s\n%s", name, got[name], got, stdout, stderr)
		}
	}
}
