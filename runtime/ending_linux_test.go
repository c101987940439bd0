//go:build linux

package runtime

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestEndingRecorded checks what the index says of how the run ended, for
// each ending the runtime sees and for a kill: OsExit's code, a
// goroutine's panic and main's, main's return, and SIGKILL (completed from
// the arena); and for Go's fatal errors, completed from the arena and named
// by the crash output (crash_linux.go): a deadlock and concurrent map
// writes.
func TestEndingRecorded(t *testing.T) {
	for _, c := range []struct {
		mode string
		want trace.EndKind
		code int
		g    string // the path of the goroutine that ended it
		msg  string
	}{
		{"exit", trace.EndExit, 3, "main", ""},
		{"panic", trace.EndPanic, 2, "main/worker@main.go:7#1", ""},
		{"mainpanic", trace.EndPanic, 2, "main", ""},
		{"returns", trace.EndReturn, 0, "main", ""},
		{"small", trace.EndKilled, 0, "", ""},
		{"deadlock", trace.EndFatal, 2, "", "all goroutines are asleep - deadlock!"},
		{"mapwrites", trace.EndFatal, 2, "", "concurrent map access"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			var path string
			if c.mode == "small" {
				dvt, live := killedSmall(t)
				path = filepath.Join(t.TempDir(), "k.dvt")
				writeArena(t, path, dvt, live)
			} else {
				var cmd *exec.Cmd
				cmd, path = child(t, c.mode)
				if c.want == trace.EndFatal {
					// The race detector keeps Go from reporting a
					// deadlock, and reports the map's race first.
					useNonRaceChild(t, cmd)
				}
				cmd.Run()
			}
			r, gs := readTrace(t, path)
			e := r.Ending()
			if e.Kind != c.want || e.Code != c.code || e.Message != c.msg {
				t.Errorf("ending %+v, want %v with code %d and message %q", e, c.want, c.code, c.msg)
			}
			if _, err := os.Stat(crashPath(path)); !os.IsNotExist(err) {
				t.Errorf("the crash file is still there after the trace was read (%v)", err)
			}
			if c.g != "" && gs[c.g].info.ID != e.G {
				t.Errorf("ending in goroutine %d, want %s's (%d)", e.G, c.g, gs[c.g].info.ID)
			}
		})
	}
}
