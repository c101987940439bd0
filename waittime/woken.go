package waittime

import (
	"cmp"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// Wakers of waits without a releaser, from Go's execution trace.
//
// A wait the divergo trace holds no releaser for was often ended in code
// that is not instrumented: a context's cancel closing Done, a library's
// goroutine sending on a channel it returned (singleflight's DoChan), a
// timer. When the run also recorded Go's execution trace
// (DIVERGO_RUNTIME_TRACE, Options.GoTrace), the tracer saw who woke the
// waiter and where: the report names them per site, as the waits' wakers.
// They explain nothing of the path analysis (no path of the waker is
// joined), so these waits stay out of the classes as before.

// Waker is who woke some of a site's waits that have no releaser in the
// divergo trace, as Go's execution trace says.
type Waker struct {
	// Goroutine is the waker's spawn path, "goroutine N (not
	// instrumented)" for one divergo did not record, or "no goroutine (a
	// timer or the network poller)".
	Goroutine string `json:"goroutine"`
	// Where is the statement of the program's own code on the waker's
	// stack that led to the wake (its innermost frame in a file of the
	// program), "" when none is.
	Where string `json:"where,omitempty"`
	// Func is the program's function at Where: "main.func2".
	Func string `json:"func,omitempty"`
	// Inner is the innermost frame outside the Go runtime, package sync
	// and divergo: the library code that woke, when it is not Where. The
	// text names it only when there is no Where: the program's line is
	// what its reader can act on.
	Inner string `json:"inner,omitempty"`
	Waits int    `json:"waits"`
	Ns    int64  `json:"ns"`
	by    int64  // the waker's Go id, -1 for none
}

type wakerKey struct {
	by               int64
	where, fn, inner string
}

// woken looks up who woke g's wait ev, which has no releaser, and counts
// it on the site. It returns the waker, for the wait's instance; nil when
// the tracer saw no wake of it.
func (a *analysis) woken(s *site, g *gstate, ev trace.Event, w int64) *Waker {
	gt := a.opts.GoTrace
	if gt == nil || g.info.GoID == 0 {
		return nil
	}
	wk, ok := gt.Find(g.info.GoID, ev.Begin, ev.End, func(reason string) bool { return gotrace.Fits(ev.Op, reason) })
	if !ok || wk.By == int64(g.info.GoID) {
		return nil
	}
	return a.countWaker(s, wk, w)
}

// countWaker counts the wake wk of a wait of w ns on s, under its waker:
// the goroutine that woke, named by its spawn path when divergo recorded
// it, at its first frame in the program's own files (from the innermost),
// the statement that led to the wake even when a library made it. It
// returns the waker. Its goroutine is named in the report: a wait inside a
// library is counted when its goroutine's stretch is read, which can come
// before the waker's first block, which names it.
func (a *analysis) countWaker(s *site, wk gotrace.Wake, w int64) *Waker {
	k := wakerKey{by: wk.By}
	if i := a.firstOwn(wk.Stack); i >= 0 {
		f := wk.Stack[i]
		k.where = fmt.Sprintf("%s:%d", a.files.of(f.File), f.Line)
		k.fn = shortFunc(f.Func)
	}
	if len(wk.Stack) > 0 && !a.files.has(wk.Stack[0].File) {
		f := wk.Stack[0]
		k.inner = fmt.Sprintf("%s (%s:%d)", f.Func, filepath.Base(f.File), f.Line)
	}
	if s.wakers == nil {
		s.wakers = make(map[wakerKey]*Waker)
	}
	wa := s.wakers[k]
	if wa == nil {
		wa = &Waker{by: k.by, Where: k.where, Func: k.fn, Inner: k.inner}
		s.wakers[k] = wa
	}
	wa.Waits++
	wa.Ns += w
	a.wokenWaits++
	return wa
}

// wakerName names the goroutine with Go id id.
func (a *analysis) wakerName(id int64) string {
	if id < 0 {
		return "no goroutine (a timer or the network poller)"
	}
	if gi := a.byGoID[uint64(id)]; gi != nil {
		return a.name(gi.ID)
	}
	return fmt.Sprintf("goroutine %d (not instrumented)", id)
}

// String is the waker in the report's words: "main at main.go:45
// (main.main)", or with no line of the program, "goroutine 12 (not
// instrumented) in context.(*cancelCtx).cancel (context.go:567)".
func (w *Waker) String() string {
	s := w.Goroutine
	switch {
	case w.Where != "" && w.Func != "":
		s += " at " + w.Where + " (" + w.Func + ")"
	case w.Where != "":
		s += " at " + w.Where
	case w.Inner != "":
		s += " in " + w.Inner
	}
	return s
}

// named is w with its goroutine named.
func (a *analysis) named(w *Waker) *Waker {
	if w.Goroutine == "" {
		w.Goroutine = a.wakerName(w.by)
	}
	return w
}

// wakersOf lists a site's wakers, most waiting time first.
func (a *analysis) wakersOf(m map[wakerKey]*Waker) []Waker {
	out := make([]Waker, 0, len(m))
	for _, w := range m {
		out = append(out, *a.named(w))
	}
	slices.SortFunc(out, func(x, y Waker) int {
		return cmp.Or(cmp.Compare(y.Ns, x.Ns), cmp.Compare(x.Goroutine, y.Goroutine), cmp.Compare(x.Where, y.Where), cmp.Compare(x.Inner, y.Inner))
	})
	return out
}

// fileSet tells the program's own source files, named in the graph by
// their path in the module, from others, named by absolute paths on
// stacks.
type fileSet struct {
	byBase map[string][]string // base name → the graph's paths
	seen   map[string]string
}

func newFileSet(g *tbb.Graph) fileSet {
	fs := fileSet{byBase: map[string][]string{}, seen: map[string]string{}}
	have := map[string]bool{}
	for _, b := range g.Blocks {
		if f := b.Pos.File; f != "" && !have[f] {
			have[f] = true
			base := path.Base(f)
			fs.byBase[base] = append(fs.byBase[base], f)
		}
	}
	return fs
}

// has reports whether file, a path on a stack, is one of the program's.
func (fs fileSet) has(file string) bool { return fs.of(file) != "" }

// of is the graph's path of file, a path on a stack, or "" when it is not
// one of the program's files.
func (fs fileSet) of(file string) string {
	if in, ok := fs.seen[file]; ok {
		return in
	}
	// The longest of the graph's paths the stack's path ends in: a
	// module's main.go at its root is a suffix of every cmd/x/main.go.
	in := ""
	slashed := filepath.ToSlash(file)
	for _, f := range fs.byBase[path.Base(slashed)] {
		if (slashed == f || strings.HasSuffix(slashed, "/"+f)) && len(f) > len(in) {
			in = f
		}
	}
	fs.seen[file] = in
	return in
}

// maxWakers bounds the wakers a site lists in the text.
const maxWakers = 3

// writeWakers prints who woke a site's waits without a releaser.
func writeWakers(w io.Writer, ws []Waker) {
	if len(ws) == 0 {
		return
	}
	fmt.Fprint(w, "   woken, says Go's execution trace:")
	for i, wk := range ws {
		if i == maxWakers {
			fmt.Fprintf(w, "; %d more (-json lists them)", len(ws)-i)
			break
		}
		sep := "; "
		if i == 0 {
			sep = " "
		}
		fmt.Fprintf(w, "%s%d by %s, %s", sep, wk.Waits, wk.String(), FormatNs(wk.Ns))
	}
	fmt.Fprintln(w)
}
