package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestPool runs the worker pool, instrumented through "go tool divergo"
// (divergo as a tool of the module), and checks the spawn tree, the
// number of jobs each side handled and the block sequences.
func TestPool(t *testing.T) {
	t.Parallel()
	p := prepare(t, "pool", true)
	r := p.run(t)
	expect(t, "output", r.stdout, "sum 210\n")
	r.checkTree(t)
	r.checkCalls(t)
	r.checkReleasers(t)
	workers := r.children("worker")
	expect(t, "workers", len(workers), 4)
	for i, w := range workers {
		expect(t, "worker path", strings.HasSuffix(w.Path, fmt.Sprintf("#%d", i+1)), true)
	}
	expectSeq(t, "main", r.blocks(r.byID[1]),
		"main:entry main:for.body*4 main:for.done main:for.body*20 main:for.done main:for.body*20 main:for.done")
	// Every job is one loop iteration of some worker; every worker ends
	// with one more iteration that finds the channel closed.
	expect(t, "worker loop bodies", r.count("worker:for.body"), 20+4)
	expect(t, "worker returns", r.count("worker:if.then"), 4)
	expect(t, "squares", r.count("square:entry"), 20)
	expect(t, "even squares", r.count("square:if.then"), 10)
	expect(t, "odd squares", r.count("square:if.done"), 10)
	expect(t, "jobs sent", r.syncs("main", trace.OpSend), 20)
	expect(t, "jobs received", r.syncs("main/", trace.OpRecv), 24)
	expect(t, "results sent", r.syncs("main/", trace.OpSend), 20)
	expect(t, "results received", r.syncs("main", trace.OpRecv), 20)
	expect(t, "closes", r.syncs("main", trace.OpClose), 2)
	expect(t, "wg.Add", r.syncs("main", trace.OpWGAdd), 4)
	expect(t, "wg.Done", r.syncs("main/", trace.OpWGDone), 4)
	expect(t, "wg.Wait", r.syncs("main", trace.OpWGWait), 1)
}

// TestPipeline runs the three-stage pipeline with a select in its sink.
func TestPipeline(t *testing.T) {
	t.Parallel()
	p := prepare(t, "pipeline", false)
	// The glue file lives in the package's own directory, so vet sees a
	// normal package through the overlay.
	goCmd(t, p.dir, "vet", "-overlay="+filepath.Join(p.dir, ".divergo", "overlay.json"), ".")
	r := p.run(t)
	expect(t, "output", r.stdout, "total 285\n")
	r.checkTree(t)
	r.checkCalls(t)
	r.checkReleasers(t)
	for _, fn := range []string{"gen", "sq", "sink"} {
		expect(t, fn+" goroutines", len(r.children(fn)), 1)
	}
	expectSeq(t, "main", r.blocks(r.byID[1]), "main:entry main:split*3")
	// Each stage's path is fixed by the 10 values, whatever the schedule.
	expectSeq(t, "gen", r.blocks(r.children("gen")[0]), "gen:entry gen:for.body*10 gen:for.done")
	expectSeq(t, "sq", r.blocks(r.children("sq")[0]),
		"sq:entry"+strings.Repeat(" sq:for.body sq:if.done", 10)+" sq:for.body sq:if.then sq:for.done")
	sink := r.children("sink")[0]
	expectSeq(t, "sink", r.blocks(sink),
		"sink:entry"+strings.Repeat(" sink:for.body sink:select.case sink:if.done sink:select.done", 10)+" sink:for.body sink:select.case sink:if.then")
	expect(t, "gen sends", r.syncs(r.children("gen")[0].Path, trace.OpSend), 10)
	expect(t, "sq receives", r.syncs(r.children("sq")[0].Path, trace.OpRecv), 11)
	expect(t, "sq sends", r.syncs(r.children("sq")[0].Path, trace.OpSend), 10)
	expect(t, "sink selects", r.syncs(sink.Path, trace.OpSelect), 11)
	// Every select received from the channel sq sends on, and says so.
	var sqChan uint64
	for _, e := range r.children("sq")[0].evs {
		if e.Kind == trace.EvSync && e.Op == trace.OpSend {
			sqChan = e.Object
		}
	}
	for _, e := range sink.evs {
		if e.Kind == trace.EvSync && e.Op == trace.OpSelect && (e.Object != sqChan || e.Sends) {
			t.Errorf("sink's select names channel %#x (sends %v), want sq's %#x", e.Object, e.Sends, sqChan)
		}
	}
	// sink's last event, its send of the total, is recorded once the send
	// completed, and main may have returned by then: at most one.
	if n := r.syncs(sink.Path, trace.OpSend); n > 1 {
		t.Errorf("sink sends = %d, want at most 1", n)
	}
	expect(t, "closes", r.syncs("main/", trace.OpClose), 2)
	expect(t, "main receives", r.syncs("main", trace.OpRecv), 1)
}

// TestContention runs eight goroutines that take one mutex 50 times each:
// every goroutine's block sequence is known, and the lock tickets (the
// lock TCP's outcome) number the 400 acquisitions.
func TestContention(t *testing.T) {
	t.Parallel()
	p := corpusProgram(t, "contention")
	r := p.run(t)
	expect(t, "output", r.stdout, "n 20600\n")
	r.checkTree(t)
	r.checkCalls(t)
	r.checkReleasers(t)
	gs := r.children("main$1")
	expect(t, "goroutines", len(gs), 8)
	for k, g := range gs {
		var b strings.Builder
		b.WriteString("main$1:entry")
		for i := 0; i < 50; i++ {
			fmt.Fprintf(&b, " main$1:for.body (*counter).inc:entry (*counter).inc:split (*counter).inc:for.body*%d (*counter).inc:for.done", 100+k)
		}
		b.WriteString(" main$1:for.done")
		expectSeq(t, g.Path, r.blocks(g), b.String())
		expect(t, g.Path+" locks", r.syncs(g.Path, trace.OpLock), 50)
		expect(t, g.Path+" unlocks", r.syncs(g.Path, trace.OpUnlock), 50)
	}
	tickets := map[uint64]bool{}
	for _, g := range gs {
		for i, e := range g.evs {
			if e.Kind == trace.EvSync && e.Op == trace.OpLock {
				if i+1 >= len(g.evs) || g.evs[i+1].Kind != trace.EvOutcome {
					t.Fatalf("%s: lock without its ticket", g.Path)
				}
				tickets[g.evs[i+1].Value] = true
			}
		}
	}
	for v := uint64(1); v <= 400; v++ {
		if !tickets[v] {
			t.Errorf("lock ticket %d missing (%d distinct tickets)", v, len(tickets))
			break
		}
	}
}
