//go:build unix

package runtime

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// installSignals completes the trace on SIGINT and SIGTERM, then raises the
// signal again with its default action so the exit status stays right.
func installSignals() (stop func()) {
	ch := make(chan os.Signal, 1)
	quit := make(chan struct{})
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-ch:
			finish(nil, false)
			signal.Reset(sig)
			syscall.Kill(os.Getpid(), sig.(syscall.Signal))
			time.Sleep(time.Second) // the signal kills us; this only bounds a failure
			os.Exit(2)
		case <-quit:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(quit)
	}
}
