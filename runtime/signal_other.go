//go:build !unix

package runtime

import (
	"os"
	"os/signal"
)

// installSignals completes the trace on an interrupt, then exits with the
// status an interrupted program gets.
func installSignals() (stop func()) {
	ch := make(chan os.Signal, 1)
	quit := make(chan struct{})
	signal.Notify(ch, os.Interrupt)
	go func() {
		select {
		case <-ch:
			finish(nil, false)
			os.Exit(2)
		case <-quit:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(quit)
	}
}
