package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
)

// blockName names a block "func:kind" ("worker:for.body"), the form the
// expected sequences use.
func (r *run) blockName(id uint32) string {
	b := r.graph.Block(int(id))
	if b == nil {
		return fmt.Sprintf("?block%d", id)
	}
	return shortName(r.graph.Func(b.Func).Name) + ":" + b.Kind
}

// shortName drops the package path from a function name:
// "example.com/m.worker" is "worker", "(*example.com/m.counter).inc" is
// "(*counter).inc", "example.com/m.main$1" is "main$1".
func shortName(full string) string {
	lead := ""
	if strings.HasPrefix(full, "(*") {
		lead, full = "(*", full[2:]
	} else if strings.HasPrefix(full, "(") {
		lead, full = "(", full[1:]
	}
	if i := strings.LastIndexByte(full, '/'); i >= 0 {
		full = full[i+1:]
	}
	if i := strings.IndexByte(full, '.'); i >= 0 {
		full = full[i+1:]
	}
	return lead + full
}

// expectSeq compares two block sequences (as blocks returns them) and
// shows where they part.
func expectSeq(t *testing.T, what, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	g, w := strings.Fields(got), strings.Fields(want)
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	window := func(s []string) string {
		lo, hi := max(0, i-3), min(len(s), i+4)
		return strings.Join(s[lo:hi], " ")
	}
	t.Errorf("%s: block sequences part at item %d:\n got ... %s ...\nwant ... %s ...", what, i, window(g), window(w))
}

// blocks returns g's block executions in order, implied blocks put back
// ([run.executed]), run-length encoded ("worker:for.body*3"), so that
// expectations stay short.
func (r *run) blocks(g *gor) string {
	var out []string
	last, n := "", 0
	flush := func() {
		if n == 1 {
			out = append(out, last)
		} else if n > 1 {
			out = append(out, fmt.Sprintf("%s*%d", last, n))
		}
	}
	for _, id := range r.executed(g) {
		name := r.blockName(id)
		if name == last {
			n++
			continue
		}
		flush()
		last, n = name, 1
	}
	flush()
	return strings.Join(out, " ")
}

// count counts the executions of the named block over all goroutines,
// implied blocks put back.
func (r *run) count(name string) int {
	n := 0
	for _, g := range r.gs {
		for _, id := range r.executed(g) {
			if r.blockName(id) == name {
				n++
			}
		}
	}
	return n
}

// syncs counts the sync events with op of the goroutine with path who,
// or of all goroutines under it when who ends with "/".
func (r *run) syncs(who string, op trace.Op) int {
	n := 0
	for _, g := range r.gs {
		if g.Path != who && !(strings.HasSuffix(who, "/") && strings.HasPrefix(g.Path, who)) {
			continue
		}
		for _, e := range g.evs {
			if e.Kind == trace.EvSync && e.Op == op {
				n++
			}
		}
	}
	return n
}

// children returns the goroutines spawned by main whose path starts with
// "main/"+fn+"@".
func (r *run) children(fn string) []*gor {
	var out []*gor
	for _, g := range r.gs {
		if g.Parent == 1 && strings.HasPrefix(g.Path, "main/"+fn+"@") {
			out = append(out, g)
		}
	}
	return out
}

// checkTree checks that main is there, that every spawn event names a
// goroutine of the trace whose parent, site and ordinal agree, and that
// every goroutine but main was spawned that way.
func (r *run) checkTree(t *testing.T) {
	t.Helper()
	if g := r.byID[1]; g == nil || g.Path != "main" {
		t.Fatalf("no main goroutine")
	}
	spawned := map[uint64]bool{}
	for _, g := range r.gs {
		for _, e := range g.evs {
			if e.Kind != trace.EvSpawn {
				continue
			}
			c := r.byID[e.Child]
			switch {
			case c == nil:
				t.Errorf("%s spawned goroutine %d, which is not in the trace", g.Path, e.Child)
			case c.Parent != g.ID || c.Site != e.Site || c.SiteBlock != e.Block || c.Ordinal != e.Ordinal:
				t.Errorf("%s: parent %d site %d ordinal %d, but spawned by %d at site %d (block %d) as #%d", c.Path, c.Parent, c.Site, c.Ordinal, g.ID, e.Site, e.Block, e.Ordinal)
			}
			spawned[e.Child] = true
		}
	}
	for _, g := range r.gs {
		// A goroutine need not have ended: main may exit between a
		// child's wg.Done and the end of its stream.
		if g.ID != 1 && !spawned[g.ID] {
			t.Errorf("goroutine %s was not spawned by any recorded go statement", g.Path)
		}
	}
}

// checkCalls checks that, in every goroutine, each exit leaves the
// innermost function entered, and that a goroutine that ended left every
// function it entered.
func (r *run) checkCalls(t *testing.T) {
	t.Helper()
	for _, g := range r.gs {
		var stack []uint32
		for _, e := range g.evs {
			switch e.Kind {
			case trace.EvBlock:
				if b := r.graph.Block(int(e.Block)); b != nil && r.graph.Func(b.Func).Entry == int(e.Block) {
					stack = append(stack, e.Block)
				}
			case trace.EvExit:
				if len(stack) == 0 || stack[len(stack)-1] != e.Block {
					t.Errorf("%s: exit of %s does not match the innermost entry", g.Path, r.blockName(e.Block))
					return
				}
				stack = stack[:len(stack)-1]
			}
		}
		// A goroutine that had not ended when main did may miss the exits
		// that come after its last synchronization (a deferred wg.Done
		// runs before the deferred exit of its function).
		if g.ID != 1 && g.Ended && len(stack) != 0 {
			t.Errorf("%s: %d functions entered and not left", g.Path, len(stack))
		}
	}
}

// releasers are the operations that can end another goroutine's wait of
// each kind.
var releasers = map[trace.Op][]trace.Op{
	trace.OpLock:     {trace.OpUnlock, trace.OpRUnlock},
	trace.OpRLock:    {trace.OpUnlock},
	trace.OpRecv:     {trace.OpSend, trace.OpClose, trace.OpSelect},
	trace.OpSend:     {trace.OpRecv, trace.OpSelect},
	trace.OpWGWait:   {trace.OpWGDone},
	trace.OpCondWait: {trace.OpCondSignal, trace.OpCondBroadcast},
	trace.OpSelect:   {trace.OpSend, trace.OpClose},
}

// checkReleasers checks that every wait has a releaser: another
// goroutine's release of the same object (any object for a select whose
// channel the instrumenter could not name) that happened before the wait
// ended. A select counts as its chosen case's send or receive. It returns
// the number of waits.
func (r *run) checkReleasers(t *testing.T) int {
	t.Helper()
	// A release counts from the moment it was offered: its end, or, when
	// the releaser waited itself (a send and a receive that both blocked),
	// its begin.
	type rel struct {
		g   uint64
		obj uint64
		op  trace.Op
		at  int64
	}
	var rels []rel
	for _, g := range r.gs {
		for _, e := range g.evs {
			if e.Kind == trace.EvSync && !e.Blocked { // a wait that never ended released nobody
				at := e.End
				if e.Waited {
					at = e.Begin
				}
				rels = append(rels, rel{g.ID, e.Object, replay.ReleaseOp(e), at})
			}
		}
	}
	waits := 0
	for _, g := range r.gs {
		for _, e := range g.evs {
			if e.Kind != trace.EvSync || !e.Waited || e.Blocked { // still blocked: no releaser to find
				continue
			}
			waits++
			if e.Begin > e.End {
				t.Errorf("%s: %s wait ends (%d) before it begins (%d)", g.Path, e.Op, e.End, e.Begin)
			}
			op := replay.ReleaseOp(e)
			ops, known := releasers[op]
			if !known {
				continue
			}
			found := false
			for _, x := range rels {
				// A select names its chosen case's channel when the
				// instrumenter could; one that does not (Object 0) may
				// release or be released by anything.
				unknown := op == trace.OpSelect || x.op == trace.OpSelect && x.obj == 0
				if x.g == g.ID || x.at > e.End || !(x.obj == e.Object || unknown) {
					continue
				}
				for _, op := range ops {
					found = found || x.op == op
				}
				if found {
					break
				}
			}
			// Channel operations are recorded once they completed, so a
			// channel releaser can be missing when main returned first;
			// unlocks, closes and wg.Done are recorded before they release.
			chanWait := e.Op == trace.OpRecv || e.Op == trace.OpSend || e.Op == trace.OpSelect
			if !found && !(chanWait && r.unfinishedBesides(g.ID)) {
				t.Errorf("%s: %s on %#x at block %s waited and nothing released it", g.Path, e.Op, e.Object, r.blockName(e.Block))
			}
		}
	}
	return waits
}

// unfinishedBesides reports whether a goroutine other than id had not
// ended when the trace was written: its last events (a send is recorded
// once it completed) may be missing, and with them a releaser.
func (r *run) unfinishedBesides(id uint64) bool {
	for _, g := range r.gs {
		if g.ID != id && g.ID != 1 && !g.Ended {
			return true
		}
	}
	return false
}

// expect compares a value with what the program knows it must be.
func expect[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}
