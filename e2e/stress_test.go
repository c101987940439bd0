package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestStress runs 10,000 goroutines whose work is known by their spawn
// ordinal and checks that every one of them, and every block execution
// and send, is in the trace.
func TestStress(t *testing.T) {
	t.Parallel()
	p := prepare(t, "stress", false)
	r := p.run(t)
	const n = 10000
	want := 0
	for i := 0; i < n; i++ {
		want += i%7 + 1
	}
	expect(t, "output", r.stdout, fmt.Sprintf("total %d\n", want))
	r.checkTree(t)
	workers := r.children("work")
	expect(t, "goroutines", len(workers), n)
	seen := map[int]bool{}
	for _, g := range workers {
		i := int(g.Ordinal) - 1
		seen[i] = true
		body := "work:for.body"
		if k := i%7 + 1; k > 1 {
			body += "*" + strconv.Itoa(k)
		}
		if got, w := r.blocks(g), "work:entry "+body+" work:for.done"; got != w {
			t.Fatalf("%s: blocks %q, want %q", g.Path, got, w)
		}
		sends := 0
		for _, e := range g.evs {
			if e.Kind == trace.EvSync && e.Op == trace.OpSend {
				sends++
			}
		}
		if sends != 1 {
			t.Fatalf("%s: %d sends, want 1", g.Path, sends)
		}
	}
	expect(t, "distinct ordinals", len(seen), n)
	expect(t, "main's receives", r.syncs("main", trace.OpRecv), n)
	expect(t, "loop bodies", r.count("work:for.body"), want)
	if !strings.HasPrefix(workers[0].Path, "main/work@main.go:") {
		t.Errorf("path %q", workers[0].Path)
	}
}
