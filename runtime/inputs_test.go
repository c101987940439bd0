package runtime

import (
	"bytes"
	"encoding/binary"
	"fmt"
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
	key, err := trace.LoadEnvKey()
	if err != nil {
		t.Fatal(err)
	}
	if in.EnvScheme != trace.EnvKeyed || in.EnvKeyID != trace.EnvKeyID(key) {
		t.Errorf("environment hashed by scheme %d under key %x, want keyed under %x", in.EnvScheme, in.EnvKeyID, trace.EnvKeyID(key))
	}
	found := false
	for _, e := range in.Env {
		switch e.Name {
		case "INPUTS_TEST_VAR":
			found = e.Hash == trace.HashEnvKeyed(key, "kept")
		case "DIVERGO_INPUTS_TEST", "DIVERGO_TRACE":
			t.Errorf("divergo's own variable %s recorded", e.Name)
		}
	}
	if !found {
		t.Error("INPUTS_TEST_VAR missing or recorded with another value's hash")
	}
}

// TestEnvNotRecoverable: a value cannot be found again from the trace by
// trying values against its hash. PIN=4821 came back from an unkeyed
// FNV-1a hash by trying all 10,000 PINs in 18 ms; now the trace holds a
// keyed hash and the key's id, and no PIN hashed without the key (FNV-1a,
// HMAC under no key, under the id, under the trace's bytes around it)
// gives it, while the same value under the user's key does, which is what
// lets diff tell "same" from "changed". The key is not in the trace, and
// a run without a key records no value at all.
func TestEnvNotRecoverable(t *testing.T) {
	path := startSession(t)
	t.Setenv("PIN", "4821")
	g := Main(testGraphJSON(t), bMain)
	g.Exit(bMain)
	r, _ := readTrace(t, path)
	in, _ := r.Inputs()
	i := slices.IndexFunc(in.Env, func(e trace.EnvVar) bool { return e.Name == "PIN" })
	if i < 0 {
		t.Fatal("PIN not recorded")
	}
	hash := in.Env[i].Hash
	id := binary.LittleEndian.AppendUint64(nil, in.EnvKeyID)
	for pin := range 10000 {
		v := fmt.Sprintf("%04d", pin)
		for _, h := range []uint64{trace.HashEnv(v), trace.HashEnvKeyed(nil, v), trace.HashEnvKeyed(id, v), trace.HashEnvKeyed([]byte("PIN"), v)} {
			if h == hash {
				t.Fatalf("PIN=%s found from the trace's hash without the key", v)
			}
		}
	}
	key, err := trace.LoadEnvKey()
	if err != nil {
		t.Fatal(err)
	}
	if trace.HashEnvKeyed(key, "4821") != hash {
		t.Error("the user's key does not give the recorded hash")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, key) || bytes.Contains(data, []byte("4821")) {
		t.Error("the trace holds the key or the value")
	}

	// No key to be had: names only.
	path = startSession(t)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", "")
	g = Main(testGraphJSON(t), bMain)
	g.Exit(bMain)
	r, _ = readTrace(t, path)
	in, _ = r.Inputs()
	if in.EnvScheme != trace.EnvNames || !slices.ContainsFunc(in.Env, func(e trace.EnvVar) bool { return e.Name == "PIN" && e.Hash == 0 }) {
		t.Errorf("without a key: scheme %d, env %v; want names only", in.EnvScheme, in.Env)
	}
}
