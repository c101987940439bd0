package runtime

import (
	"os"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestInputsRecorded checks that the header records the process's command
// line, GOMAXPROCS, NumCPU and environment (names and hashes of values),
// without divergo's own variables, which differ from run to run by design.
func TestInputsRecorded(t *testing.T) {
	path := startSession(t)
	t.Setenv("DIVERGO_INPUTS_TEST", "left out")
	t.Setenv("INPUTS_TEST_VAR", "kept")
	g := Main(testGraphJSON(t), bMain)
	g.Exit(bMain)
	r, _ := readTrace(t, path)
	in, ok := r.Inputs()
	if !ok {
		t.Fatal("the header records no inputs")
	}
	if !slices.Equal(in.Args, os.Args[1:]) {
		t.Errorf("args %q, want %q", in.Args, os.Args[1:])
	}
	if in.GOMAXPROCS != goruntime.GOMAXPROCS(0) || in.NumCPU != goruntime.NumCPU() {
		t.Errorf("GOMAXPROCS %d NumCPU %d, want %d and %d", in.GOMAXPROCS, in.NumCPU, goruntime.GOMAXPROCS(0), goruntime.NumCPU())
	}
	if !slices.IsSortedFunc(in.Env, func(a, b trace.EnvVar) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("environment not sorted by name")
	}
	found := false
	for _, e := range in.Env {
		switch e.Name {
		case "INPUTS_TEST_VAR":
			found = e.Hash == trace.HashEnv("kept")
		case "DIVERGO_INPUTS_TEST", "DIVERGO_TRACE":
			t.Errorf("divergo's own variable %s recorded", e.Name)
		}
	}
	if !found {
		t.Error("INPUTS_TEST_VAR missing or recorded with another value's hash")
	}
}
