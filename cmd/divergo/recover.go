package main

// Reading a trace completes it first when its recording died before it
// could (SIGKILL, a fatal error, an os.Exit the recorder does not see): the
// runtime package, which alone knows the recorder's buffers, sets the
// recovery trace.Open calls (runtime/recover_linux.go).
import (
	"fmt"
	"io"
	"os"

	_ "github.com/divergo/divergo/runtime"
)

// noteArenaSetAside says on stderr, for command cmd, when the recovery
// could not use the arena of the trace at path and set it aside as
// <trace>.live.bad (runtime/recover_linux.go): the trace is then read as
// the run left it, and the user should know why it is short.
func noteArenaSetAside(stderr io.Writer, cmd, path string) {
	if _, err := os.Stat(path + ".live.bad"); err == nil {
		fmt.Fprintf(stderr, "divergo %s: %s.live.bad holds what the run had not written, and could not be read; the trace is read as the run left it\n", cmd, path)
	}
}
