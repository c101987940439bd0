package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestEnvKey: the key is made on first use, readable by the user only, in
// a directory of the user's only; it is the same on every later use and
// for runs that start at once; a file that is not a key is an error that
// says what to do.
func TestEnvKey(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	path, err := EnvKeyFile()
	if err != nil {
		t.Skipf("no configuration directory here: %v", err)
	}
	keys := make([][]byte, 16)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := LoadEnvKey()
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if len(k) != envKeySize || !bytes.Equal(k, keys[0]) {
			t.Fatalf("runs starting at once got different keys")
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", st.Mode().Perm())
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("key directory: %v, %v; want mode 0700", st.Mode().Perm(), err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("the key's directory holds %d files, want the key only", len(ents))
	}
	again, err := LoadEnvKey()
	if err != nil || !bytes.Equal(again, keys[0]) {
		t.Errorf("the key changed: %v", err)
	}
	if HashEnvKeyed(keys[0], "4821") == HashEnvKeyed(make([]byte, envKeySize), "4821") {
		t.Error("the hash does not depend on the key")
	}
	if err := os.WriteFile(path, []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadEnvKey(); err == nil || !strings.Contains(err.Error(), "remove it") {
		t.Errorf("a file that is not a key: %v", err)
	}
}
