package main

// Reading a trace completes it first when its recording died before it
// could (SIGKILL, a fatal error, an os.Exit the recorder does not see): the
// runtime package, which alone knows the recorder's buffers, sets the
// recovery trace.Open calls (runtime/recover_linux.go).
import _ "github.com/divergo/divergo/runtime"
