package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// tickets returns the outcomes that follow the lock events of all
// goroutines: the acquisition tickets of the lock TCPs.
func (r *run) tickets(t *testing.T) map[uint64]int {
	t.Helper()
	out := map[uint64]int{}
	for _, g := range r.gs {
		for i, e := range g.evs {
			if e.Kind == trace.EvSync && e.Op == trace.OpLock {
				if i+1 >= len(g.evs) || g.evs[i+1].Kind != trace.EvOutcome {
					t.Fatalf("%s: lock at %s without its ticket", g.Path, r.blockName(e.Block))
				}
				out[g.evs[i+1].Value]++
			}
		}
	}
	return out
}

// TestFig1a runs Figure 1a of Eckert and Nutt: which task takes the lock
// first decides task 0's branch and task 1's loop count, and the program
// prints what they saw, so the block sequences are known exactly.
func TestFig1a(t *testing.T) {
	t.Parallel()
	p := corpusProgram(t, "fig1a")
	r := p.run(t)
	var j, k, sum int
	if _, err := fmt.Sscanf(r.stdout, "j %d k %d sum %d", &j, &k, &sum); err != nil {
		t.Fatalf("output %q: %v", r.stdout, err)
	}
	r.checkTree(t)
	r.checkCalls(t)
	r.checkReleasers(t)
	expectSeq(t, "main", r.blocks(r.byID[1]), "main:entry main:split*2")
	t0, t1 := r.children("task0"), r.children("task1")
	if len(t0) != 1 || len(t1) != 1 {
		t.Fatalf("tasks: %d task0, %d task1", len(t0), len(t1))
	}
	branch := "task0:if.else" // task 0 locked first: it read x == 1
	if k == 0 {
		branch = "task0:if.then"
	}
	expectSeq(t, "task0", r.blocks(t0[0]), "task0:entry task0:split "+branch+" task0:if.done")
	index := map[int]int{1: 1, 3: 2}[sum]
	if index == 0 {
		t.Fatalf("sum %d is neither 1 nor 3", sum)
	}
	loop := "task1:for.body"
	if index > 1 {
		loop += fmt.Sprintf("*%d", index)
	}
	expectSeq(t, "task1", r.blocks(t1[0]), "task1:entry task1:split "+loop+" task1:for.done")
	expect(t, "the two tasks saw different x", (k == 0) == (index == 1), true)
	expect(t, "tickets", fmt.Sprint(r.tickets(t)), "map[1:1 2:1]")
}

// TestFig2 runs the three tasks of Figure 2: task 0's loop count is the x
// it read, and the parity of each iteration is known from it.
func TestFig2(t *testing.T) {
	t.Parallel()
	p := corpusProgram(t, "fig2")
	r := p.run(t)
	var evens, odds, k int
	if _, err := fmt.Sscanf(r.stdout, "evens %d odds %d k %d", &evens, &odds, &k); err != nil {
		t.Fatalf("output %q: %v", r.stdout, err)
	}
	r.checkTree(t)
	r.checkCalls(t)
	r.checkReleasers(t)
	expectSeq(t, "main", r.blocks(r.byID[1]), "main:entry main:split*3")
	i := evens + odds
	var want strings.Builder
	want.WriteString("task0:entry task0:split")
	for j := 0; j < i; j++ {
		if (i-j)%2 == 0 {
			want.WriteString(" task0:for.body task0:if.then task0:if.done")
		} else {
			want.WriteString(" task0:for.body task0:if.else task0:if.done")
		}
	}
	want.WriteString(" task0:for.done")
	t0 := r.children("task0")
	if len(t0) != 1 {
		t.Fatalf("%d task0 goroutines", len(t0))
	}
	expectSeq(t, "task0", r.blocks(t0[0]), want.String())
	for _, fn := range []string{"task1", "task2"} {
		g := r.children(fn)
		if len(g) != 1 {
			t.Fatalf("%d %s goroutines", len(g), fn)
		}
		expectSeq(t, fn, r.blocks(g[0]), fn+":entry "+fn+":split")
	}
	expect(t, "tickets", fmt.Sprint(r.tickets(t)), "map[1:1 2:1 3:1]")
	expect(t, "k", k, 1)
}
