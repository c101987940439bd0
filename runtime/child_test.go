package runtime

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestOwnTracePath checks that a process whose parent records into the
// DIVERGO_TRACE it inherited writes beside it, and only then.
func TestOwnTracePath(t *testing.T) {
	dir := t.TempDir()
	given := filepath.Join(dir, "run-1.dvt")
	pid := strconv.Itoa(os.Getpid())
	t.Setenv("DIVERGO_TRACE", given)
	for _, c := range []struct {
		name, owner string
		want        string
		child       bool
	}{
		{"no parent records", "", given, false},
		{"this process set it", pid + " " + given, given, false},
		{"the parent records there", "1 " + given, filepath.Join(dir, "run-1.child-"+pid+".dvt"), true},
		{"the parent records elsewhere", "1 " + filepath.Join(dir, "other.dvt"), given, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(ownerEnv, c.owner)
			if c.owner == "" {
				os.Unsetenv(ownerEnv)
			}
			path, child := ownTracePath()
			if path != c.want || child != c.child {
				t.Errorf("ownTracePath() = %s, %v; want %s, %v", path, child, c.want, c.child)
			}
			if got, want := os.Getenv(ownerEnv), pid+" "+given; got != want {
				t.Errorf("%s = %q for the children, want %q", ownerEnv, got, want)
			}
		})
	}
}
