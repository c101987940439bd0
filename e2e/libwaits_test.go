package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
)

// markedLines returns, per marker, the line of testdata/prog/main.go that
// holds it (the first).
func markedLines(t *testing.T, prog string, markers ...string) map[string]int {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repoRoot, "testdata", prog, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for i, l := range strings.Split(string(src), "\n") {
		for _, m := range markers {
			if _, ok := out[m]; !ok && strings.Contains(l, m) {
				out[m] = i + 1
			}
		}
	}
	for _, m := range markers {
		if out[m] == 0 {
			t.Fatalf("testdata/%s/main.go has no line with %q", prog, m)
		}
	}
	return out
}

// libSite is a site of divergo wait -json, as the library waits' test
// reads it.
type libSite struct {
	Pos, Op, Kind string
	Library       bool
	Waits         int
	TotalNs       int64 `json:"total_ns"`
	Classes       []struct {
		Explained float64
		Steps     []struct{ Pos, State string }
	}
	WokenBy []struct {
		Goroutine, Where, Func, Inner string
		Waits                         int
	} `json:"woken_by"`
}

// TestLibraryWaits records testdata/errgroupfan, an errgroup fan-out with
// SetLimit feeding a reader through an io.Pipe, whose every wait is inside
// code divergo does not instrument, with Go's execution trace beside the
// divergo trace. divergo wait must report them as waits at the program's
// lines: g.Go (SetLimit's semaphore) and g.Wait, released by errgroup's
// goroutines (recorded from the task each ran), and the reader's Scan,
// released by main at the Fprintf line, the program's line on the waker's
// stack; in the paths that explain main's last wait they are steps in
// state library at those lines. Without the execution trace none of them is
// a site.
func TestLibraryWaits(t *testing.T) {
	t.Parallel()
	p := prepare(t, "errgroupfan", false)
	tr := filepath.Join(t.TempDir(), "run.dvt")
	out := execProg(t, p.dir, p.bin, nil, "DIVERGO_TRACE="+tr, "DIVERGO_RUNTIME_TRACE=1")
	if !strings.Contains(out, "lines 6") {
		t.Fatalf("the program printed:\n%s", out)
	}
	ln := markedLines(t, "errgroupfan", "g.Go(", "g.Wait()", "sc.Scan()", "fmt.Fprintf(pw", "<-done")
	at := func(m string) string { return fmt.Sprintf("main.go:%d", ln[m]) }

	code, js, stderr := divergo(t, p.dir, "wait", "-json", tr)
	if code != 0 {
		t.Fatalf("divergo wait -json: status %d\n%s", code, stderr)
	}
	var rep struct{ Sites []libSite }
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	sites := map[string]libSite{}
	for _, s := range rep.Sites {
		if s.Library {
			sites[s.Pos] = s
		}
	}
	// recorded: every waker is one of errgroup's goroutines, which divergo
	// recorded from the task they ran and names by what started them
	// ("errgroup.Go at main.go:50 #3").
	recorded := func(s libSite) bool {
		n := 0
		for _, w := range s.WokenBy {
			if !strings.HasPrefix(w.Goroutine, "errgroup.Go at "+at("g.Go(")+" #") {
				return false
			}
			n += w.Waits
		}
		return n == s.Waits
	}
	if s := sites[at("g.Go(")]; s.Op != "errgroup.(*Group).Go" || s.Kind != "chan" || s.Waits < 1 || !recorded(s) {
		t.Errorf("g.Go at %s: %+v; want waits in errgroup.(*Group).Go, woken by errgroup's goroutines", at("g.Go("), s)
	}
	if s := sites[at("g.Wait()")]; s.Op != "errgroup.(*Group).Wait" || s.Kind != "sync" || s.Waits != 1 || !recorded(s) {
		t.Errorf("g.Wait at %s: %+v; want 1 wait in errgroup.(*Group).Wait, woken by an errgroup goroutine", at("g.Wait()"), s)
	}
	scan := sites[at("sc.Scan()")]
	woken := map[string]int{}
	for _, w := range scan.WokenBy {
		if w.Goroutine == "main" {
			woken[w.Where] += w.Waits
		}
	}
	if scan.Op != "bufio.(*Scanner).Scan" || scan.Waits < 2 || woken[at("fmt.Fprintf(pw")] < 1 {
		t.Errorf("Scan at %s: %+v; want waits woken by main at %s", at("sc.Scan()"), scan, at("fmt.Fprintf(pw"))
	}

	// main's receive of the reader's count, when it waited, is explained
	// by the two paths since the go statement: the reader's time blocked
	// in Scan against main's in g.Go and g.Wait, steps at those lines in
	// state library, not running time, and they add up to the wait.
	for _, s := range rep.Sites {
		if s.Library || s.Op != "recv" || s.Pos != at("<-done") {
			continue
		}
		states := map[string]bool{}
		for _, c := range s.Classes {
			if c.Explained < 0.95 {
				t.Errorf("%s: a class %.0f%% explained, want 95%% or more", s.Pos, 100*c.Explained)
			}
			for _, st := range c.Steps {
				states[st.Pos+" "+st.State] = true
			}
		}
		for _, want := range []string{at("sc.Scan()") + " library", at("g.Wait()") + " library"} {
			if !states[want] {
				t.Errorf("%s: no step %s in %v", s.Pos, want, states)
			}
		}
	}

	code, text, stderr := divergo(t, p.dir, "wait", tr)
	if code != 0 {
		t.Fatalf("divergo wait: status %d\n%s", code, stderr)
	}
	for _, want := range []string{
		at("g.Wait()") + "  errgroup.(*Group).Wait (sync) in example.com/errgroupfan.main",
		"blocked in code that is not instrumented",
		"by main at " + at("fmt.Fprintf(pw") + " (main)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("divergo wait does not say %q:\n%s", want, text)
		}
	}

	code, off, stderr := divergo(t, p.dir, "wait", "-gotrace", "off", tr)
	if code != 0 {
		t.Fatalf("divergo wait -gotrace off: status %d\n%s", code, stderr)
	}
	if strings.Contains(off, "not instrumented") || strings.Contains(off, "errgroup.(*Group)") {
		t.Errorf("divergo wait -gotrace off reports library waits:\n%s", off)
	}
}

// libAgreement is the check of the waits divergo wait reports inside code
// that is not instrumented (from Go's execution trace) against what the
// divergo trace recorded of the waiting goroutine at that time.
type libAgreement struct {
	compared, agree int
	// unknown: waits in a stretch of the goroutine in which the divergo
	// trace recorded no block (every block of it implied): nothing to
	// compare the call's function with.
	unknown int
	wrong   []string
}

// compareLibraryWaits analyses the divergo trace at dvt with Go's
// execution trace at gt and checks every wait it reports at a call into a
// library against the divergo trace alone: no sync event of the goroutine
// overlaps it (else that event was the wait), and in the stretch between
// the goroutine's timestamps around it divergo recorded the goroutine in
// the function that made the call (a block of it entered in the stretch,
// or the one it was in when the stretch began).
func compareLibraryWaits(t *testing.T, dvt, gt string) *libAgreement {
	t.Helper()
	gtr, err := gotrace.Open(gt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := trace.Open(dvt)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep, err := waittime.Analyze(r, waittime.Options{GoTrace: gtr, KeepWaits: true})
	if err != nil {
		t.Fatal(err)
	}
	g := r.Graph()
	type libWait struct {
		w  waittime.Wait
		fn int
	}
	byG := map[uint64][]libWait{}
	for _, s := range rep.Sites {
		b := g.Block(s.Block)
		if !s.Library || b == nil {
			continue
		}
		for _, w := range s.Instances {
			byG[w.GID] = append(byG[w.GID], libWait{w, b.Func})
		}
	}
	a := &libAgreement{}
	for gid, ws := range byG {
		// The goroutine's timestamps, sync events and the blocks it
		// entered, in order.
		type mark struct {
			t          int64
			begin, end int64 // a sync event's, else 0
			block      int   // a block entered, else -1
			exit       bool  // the function whose entry block is block returned
		}
		var ms []mark
		it, err := r.Events(gid)
		if err != nil {
			t.Fatal(err)
		}
		for it.Next() {
			ev := it.Event()
			switch ev.Kind {
			case trace.EvBlock, trace.EvPack:
				ms = append(ms, mark{t: -1, block: int(ev.Block)})
			case trace.EvExit:
				ms = append(ms, mark{t: -1, block: int(ev.Block), exit: true})
			case trace.EvClock:
				ms = append(ms, mark{t: ev.Time, block: -1})
			case trace.EvSync:
				begin := ev.Begin
				if !ev.Waited {
					begin = ev.End
				}
				ms = append(ms, mark{t: ev.End, begin: begin, end: ev.End, block: int(ev.Block)})
			}
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		for _, lw := range ws {
			w := lw.w
			where := fmt.Sprintf("%s: %s at %s in %s, %d..%d", w.Goroutine, w.Op, w.Pos, g.Func(lw.fn).Name, w.Begin, w.End)
			overlap, in, seen := false, false, false
			var frames []int // the last block entered in each function called, innermost last
			for _, m := range ms {
				if m.end != 0 && m.begin < w.End-gotrace.JoinEps && m.end > w.Begin+gotrace.JoinEps {
					overlap = true
				}
				if m.t >= w.End {
					break
				}
				frames = enterBlock(g, frames, m.block, m.exit)
				var b *tbb.Block
				if len(frames) > 0 {
					b = g.Block(frames[len(frames)-1])
				}
				if m.t >= 0 && m.t <= w.Begin {
					// A timestamp before the wait: the stretch starts
					// again, in the block entered last.
					in, seen = b != nil && b.Func == lw.fn, b != nil
					continue
				}
				if m.block >= 0 && b != nil {
					in, seen = in || b.Func == lw.fn, true
				}
			}
			switch {
			case overlap:
				a.compared++
				a.wrong = append(a.wrong, where+": a sync event of the goroutine overlaps it")
			case !seen:
				a.unknown++
			case in:
				a.compared++
				a.agree++
			default:
				a.compared++
				a.wrong = append(a.wrong, where+": the divergo trace has the goroutine in no block of the calling function then")
			}
		}
	}
	return a
}

// enterBlock returns the frames after entering block (or, with exit, after
// the return of the function whose entry block it is). A return puts the
// goroutine back in the block it called from: a deferred call into a library
// runs after the function's last block, and once a callee has returned, the
// block last entered is the callee's, not the one the goroutine is in.
func enterBlock(g *tbb.Graph, frames []int, block int, exit bool) []int {
	b := g.Block(block)
	switch {
	case block < 0 || b == nil:
	case exit:
		for i := len(frames) - 1; i >= 0; i-- {
			if f := g.Block(frames[i]); f != nil && f.Func == b.Func {
				return frames[:i]
			}
		}
	case len(frames) > 0 && g.Block(frames[len(frames)-1]).Func == b.Func && g.Func(b.Func).Entry != block:
		// A block of the same call; an entry block is a call of its own
		// (recursion).
		frames[len(frames)-1] = block
	default:
		frames = append(frames, block)
	}
	return frames
}
