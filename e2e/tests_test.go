package e2e

import (
	"strings"
	"testing"
)

// TestRunLibrary checks that run and check on a package without main say
// in one line to use divergo test, instead of failing to execute a binary
// go build never wrote.
func TestRunLibrary(t *testing.T) {
	dir := setup(t, "counter", false)
	for _, cmd := range []string{"run", "check"} {
		status, _, stderr := divergo(t, dir, cmd, ".")
		expect(t, "status of divergo "+cmd+" on a library", status, 2)
		line := strings.TrimSpace(stderr)
		if strings.Count(line, "\n") != 0 || !strings.Contains(line, "not a command") || !strings.Contains(line, "divergo test") {
			t.Errorf("divergo %s on a library: want one line pointing to divergo test, got:\n%s", cmd, stderr)
		}
	}
}
