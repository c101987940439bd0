// Package progress shows how far a long operation has come, on standard
// error when it is a terminal, and stays quiet otherwise: output that goes to
// a file or a pipe (CI logs, scripts) must not fill with carriage returns.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// interval is how often the line is redrawn; the first draw waits as long,
// so that quick operations print nothing at all.
const interval = 250 * time.Millisecond

// Start begins reporting on w under label. frac, when not nil, says how far
// along the operation is, from 0 to 1; without it only the elapsed time is
// shown. The returned stop clears the line; it must be called, and may be
// called more than once.
func Start(w io.Writer, label string, frac func() float64) (stop func()) {
	if !IsTerminal(w) {
		return func() {}
	}
	return start(w, label, frac, interval)
}

func start(w io.Writer, label string, frac func() float64, every time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		begin := time.Now()
		tick := time.NewTicker(every)
		defer tick.Stop()
		drawn := false
		for {
			select {
			case <-done:
				if drawn {
					fmt.Fprint(w, "\r\033[K") // clear the line for what follows
				}
				return
			case <-tick.C:
				elapsed := time.Since(begin).Round(time.Second)
				if frac != nil {
					f := min(max(frac(), 0), 0.99) // 100% only when stopped
					fmt.Fprintf(w, "\r\033[K%s %3.0f%% (%s)", label, 100*f, elapsed)
				} else {
					fmt.Fprintf(w, "\r\033[K%s (%s)", label, elapsed)
				}
				drawn = true
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
		})
	}
}

// IsTerminal reports whether w is a terminal (a character device).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
