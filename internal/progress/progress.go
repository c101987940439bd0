// Package progress shows how far a long operation has come on standard
// error, on any terminal and when standard error is not one.
//
// On a terminal (a character device, os.File.Stat's ModeCharDevice) a line
// is redrawn in place with a carriage return and cleared with spaces: no
// escape sequences, which a dumb terminal or an old console would print as
// text. Elsewhere (a file, a pipe, CI logs, scripts) nothing is redrawn: a
// plain line is written every few seconds, so that a long operation shows
// it is alive without filling a log with carriage returns, and a quick one
// writes nothing at all. Stop the report before writing the result: a
// line drawn after it would land in the middle of the output.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// interval is how often a terminal's line is redrawn; the first draw waits
// as long, so that quick operations print nothing at all. lineEvery is how
// often a plain line is written elsewhere, the first after as long.
const (
	interval  = 250 * time.Millisecond
	lineEvery = 10 * time.Second
)

// Start begins reporting on w under label. frac, when not nil, says how far
// along the operation is, from 0 to 1; without it only the elapsed time is
// shown. The returned stop clears the line; it must be called, and may be
// called more than once.
func Start(w io.Writer, label string, frac func() float64) (stop func()) {
	if IsTerminal(w) {
		return start(w, label, frac, interval, true)
	}
	return start(w, label, frac, lineEvery, false)
}

func start(w io.Writer, label string, frac func() float64, every time.Duration, tty bool) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		begin := time.Now()
		tick := time.NewTicker(every)
		defer tick.Stop()
		var l line
		for {
			select {
			case <-done:
				if tty {
					l.clear(w)
				}
				return
			case <-tick.C:
				elapsed := time.Since(begin).Round(time.Second)
				text := fmt.Sprintf("%s (%s)", label, elapsed)
				if frac != nil {
					f := min(max(frac(), 0), 0.99) // 100% only when stopped
					text = fmt.Sprintf("%s %3.0f%% (%s)", label, 100*f, elapsed)
				}
				if tty {
					l.draw(w, text)
				} else {
					fmt.Fprintln(w, text)
				}
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

// line is a line of a terminal redrawn in place: a carriage return, the
// text, and spaces over what is left of a longer text drawn before.
type line struct{ width int }

// maxWidth is the widest line drawn: one that wraps on an 80-column
// terminal would be redrawn from its last row, and leave the others.
const maxWidth = 79

// fit shortens text to maxWidth runes, eliding its middle (a long path in
// the label) and keeping its end (the share done and the time).
func fit(text string) string {
	rs := []rune(text)
	if len(rs) <= maxWidth {
		return text
	}
	const head = 24
	return string(rs[:head]) + "..." + string(rs[len(rs)-(maxWidth-head-3):])
}

func (l *line) draw(w io.Writer, text string) {
	text = fit(text)
	n := len([]rune(text))
	pad := max(l.width-n, 0)
	fmt.Fprintf(w, "\r%s%s", text, strings.Repeat(" ", pad))
	if pad > 0 {
		fmt.Fprintf(w, "\r%s", text) // the cursor after the text, not the spaces
	}
	l.width = n
}

// clear blanks the line and puts the cursor at its start, for what follows.
func (l *line) clear(w io.Writer) {
	if l.width > 0 {
		fmt.Fprintf(w, "\r%s\r", strings.Repeat(" ", l.width))
		l.width = 0
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
