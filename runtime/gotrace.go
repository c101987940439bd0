package runtime

import (
	"context"
	"fmt"
	"os"
	rtrace "runtime/trace"
	"strconv"
	"strings"
	"sync"

	"github.com/divergo/divergo/internal/trace"
)

// Go's execution tracer, on request. DIVERGO_RUNTIME_TRACE=PATH records it
// into PATH, =1 beside the divergo trace (run-1.dvt → run-1.gotrace). It
// records which goroutine unblocked which, also inside code divergo does
// not instrument, and readers join it with the divergo trace on the
// goroutine ids the chunks carry (GoroutineInfo.GoID). The runtime never
// reads it.
//
// The two clocks: the tracer's clock snapshots give its times as nanotime,
// and the log event "divergo" written when recording ends gives nanotime
// at the divergo trace's time 0 ("base=N"), so that a divergo time t is
// nanotime N+t. A program that starts the tracer itself cannot have
// divergo start it too: divergo says so and records without it.

var rt struct {
	f    *os.File
	stop sync.Once
}

// runtimeTracePath is where the execution trace goes, "" for none.
func runtimeTracePath() string {
	v := os.Getenv("DIVERGO_RUNTIME_TRACE")
	switch v {
	case "", "0", "off":
		return ""
	case "1", "on":
		return strings.TrimSuffix(sess.path, ".dvt") + ".gotrace"
	}
	if sess.child { // the parent writes v (child.go)
		return childPath(v, strconv.Itoa(os.Getpid()))
	}
	return v
}

// startRuntimeTrace starts the execution tracer if asked to.
func startRuntimeTrace() {
	p := runtimeTracePath()
	if p == "" {
		return
	}
	f, err := trace.CreateFile(p)
	if err != nil {
		fmt.Fprintf(os.Stderr, "divergo: no execution trace: %v\n", err)
		return
	}
	if err := rtrace.Start(f); err != nil {
		f.Close()
		os.Remove(p)
		fmt.Fprintf(os.Stderr, "divergo: no execution trace: %v\n", err)
		return
	}
	rt.f = f
}

// stopRuntimeTrace writes the clock anchor and stops the tracer: once,
// when the divergo trace is completed.
func stopRuntimeTrace() {
	if rt.f == nil {
		return
	}
	rt.stop.Do(func() {
		rtrace.Log(context.Background(), "divergo", "base="+strconv.FormatInt(sess.base.Load(), 10))
		rtrace.Stop()
		if err := rt.f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "divergo: execution trace: %v\n", err)
		}
	})
}
