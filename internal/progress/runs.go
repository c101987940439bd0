package progress

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Runs reports the runs of a command that runs a program N times (divergo
// test -n, check): "label: run k of n" as each run ends. On a terminal the
// line is redrawn at every run, unless the program's own output goes to
// the terminal too (inline false), which a redrawn line would cut into;
// then, and when w is not a terminal, a plain line is written when a few
// seconds passed since the last one (and for the last run if any was), so
// that quick commands write nothing and slow ones a line now and then.
type Runs struct {
	mu     sync.Mutex
	w      io.Writer
	label  string
	n      int
	redraw bool
	every  time.Duration
	last   time.Time // of the last plain line, or the start
	begin  time.Time
	wrote  bool
	l      line
}

// NewRuns begins reporting n runs on w under label.
func NewRuns(w io.Writer, label string, n int, inline bool) *Runs {
	now := time.Now()
	return &Runs{w: w, label: label, n: n, redraw: inline && IsTerminal(w), every: lineEvery, last: now, begin: now}
}

// Done says that k of the n runs have ended.
func (r *Runs) Done(k int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	text := fmt.Sprintf("%s: run %d of %d", r.label, k, r.n)
	if r.redraw {
		r.l.draw(r.w, text)
		return
	}
	now := time.Now()
	if now.Sub(r.last) >= r.every || (k == r.n && r.wrote) {
		fmt.Fprintf(r.w, "%s (%s)\n", text, now.Sub(r.begin).Round(time.Second))
		r.last, r.wrote = now, true
	}
}

// Stop clears a redrawn line, so that what follows starts on a clean one.
// It may be called more than once.
func (r *Runs) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.redraw {
		r.l.clear(r.w)
	}
}
