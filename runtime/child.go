package runtime

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ownerEnv tells a process's children which DIVERGO_TRACE their parent
// records into: "PID PATH", PATH as DIVERGO_TRACE gave it.
const ownerEnv = "DIVERGO_TRACE_OWNER"

// ownTracePath is where this process's trace goes, and whether a parent
// process records into the path DIVERGO_TRACE names. A Go test that runs
// its own binary again (os/exec of os.Args[0], as subprocess tests of a
// panic or an exit do: x/sync's singleflight has two) hands the child its
// environment, DIVERGO_TRACE included, and the child's trace replaced
// its parent's: divergo test then read the child's run and called the
// parent's test unfinished. A child writes beside the parent instead,
// PATH with ".child-PID" before its extension, and nothing is lost. The
// owner is set for this process's own children in turn; the environment
// of a recorded program then holds DIVERGO_TRACE_OWNER.
func ownTracePath() (path string, child bool) {
	given := tracePath()
	pid := strconv.Itoa(os.Getpid())
	path = given
	if o, ok := os.LookupEnv(ownerEnv); ok {
		opid, opath, _ := strings.Cut(o, " ")
		if opid != pid && opath == given {
			path, child = childPath(given, pid), true
		}
	}
	os.Setenv(ownerEnv, pid+" "+given)
	return path, child
}

// childPath is p with ".child-PID" before its extension.
func childPath(p, pid string) string {
	ext := filepath.Ext(p)
	return strings.TrimSuffix(p, ext) + ".child-" + pid + ext
}
