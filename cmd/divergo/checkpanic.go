package main

import (
	"bufio"
	"bytes"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/divergo/divergo/compare"
)

// Panics of the checked runs. A panic raised on shared data (a nil
// dereference of a pointer another goroutine cleared, a WaitGroup's
// counter made negative) is a branch the analysis does not mark
// (docs/SOUNDNESS.md, "Known unsoundness", "Panics"): runs part where one
// of them panicked, at a statement no change point covers. check reads the
// runs' standard error for Go's panic report, and a hole in a run that
// panicked with a frame at the hole's line or in its function says so,
// rather than being left an unexplained analyzer miss (two of GoKer's
// nonblocking kernels, grpc 2371 and kubernetes 13058).

// tailWriter keeps the last max bytes written to it: the panic report is
// at the end of a run's output. The run's standard output and error are
// copied into it by two goroutines.
type tailWriter struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if over := len(w.buf) - w.max; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	return len(p), nil
}

// runPanic is what Go printed of a panic that ended a run: its first line
// ("panic: ...", "fatal error: ...") and the panicking goroutine's frames,
// each as its function, and its file's base name and line.
type runPanic struct {
	msg    string
	funcs  []string
	places []string
}

// panicOf reads Go's report of a panic or fatal error from a run's output,
// nil when it has none.
func panicOf(out []byte) *runPanic {
	var p *runPanic
	inStack := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case p == nil && (strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")):
			msg, _, _ := strings.Cut(line, " [recovered") // testing re-panics a test's panic
			p = &runPanic{msg: msg}
		case p != nil && !inStack && strings.HasPrefix(line, "goroutine ") && strings.HasSuffix(line, ":"):
			inStack = true
		case inStack && (line == "" || strings.HasPrefix(line, "created by ")):
			return p // the panicking goroutine's stack is the first; its creator is no frame of it
		case inStack && strings.HasPrefix(line, "\t"):
			file, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
			if !ok {
				continue
			}
			n, _, _ := strings.Cut(rest, " ")
			if _, err := strconv.Atoi(n); err == nil {
				p.places = append(p.places, path.Base(file)+":"+n)
			}
		case inStack:
			if i := strings.LastIndexByte(line, '('); i > 0 {
				p.funcs = append(p.funcs, shortFunc(line[:i]))
			}
		}
	}
	return p
}

// shortFunc names a function as both the Go runtime and the graph can
// ("(*example.com/p.T).M" and "example.com/p.(*T).M" are "T.M").
func shortFunc(name string) string {
	name = strings.NewReplacer("(*", "", "(", "", ")", "", "*", "").Replace(name)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if _, rest, ok := strings.Cut(name, "."); ok {
		return rest
	}
	return name
}

// attachPanics notes, on each hole, the first of its runs that panicked
// with a frame at the hole's line or in its function.
func attachPanics(c *compare.Check, outs []*tailWriter) {
	panics := make([]*runPanic, len(outs))
	for k, o := range outs {
		if o != nil && k < len(c.Codes) && c.Codes[k] != 0 {
			panics[k] = panicOf(o.buf)
		}
	}
	for _, h := range c.Holes {
		place := path.Base(h.Pos)
		fn := shortFunc(h.Func)
		for _, k := range h.Runs {
			p := panics[k]
			if p == nil || !(slices.Contains(p.places, place) || slices.Contains(p.funcs, fn)) {
				continue
			}
			if h.Cause == nil {
				h.Cause = &compare.HoleCause{}
			}
			h.Cause.Panic, h.Cause.PanicRun = p.msg, k+1
			break
		}
	}
}
