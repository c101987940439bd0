package replay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// weighted is loopGraph with instruction counts: f's entry 3, head 1,
// body 4, post 1, done 1; g's entry 2, then 5, done 1.
func weighted() *Program {
	g := loopGraph()
	for i, n := range []int{3, 1, 4, 1, 1, 2, 5, 1} {
		g.Blocks[i].Instrs = n
	}
	return NewProgram(g)
}

// spread replays evs into a stretch (marks, written "m", between them),
// spreads t0..t1 and writes the items as "kind block@at+dur".
func spread(s *Stretch, r *Replayer, t0, t1 int64, evs ...any) string {
	var steps []Step
	for _, e := range evs {
		switch e := e.(type) {
		case string:
			s.Mark(int32(len(e)))
		case ev:
			if e.exit {
				steps = r.Exit(e.block, steps[:0])
			} else {
				steps = r.Block(e.block, steps[:0])
			}
			s.Steps(steps)
		}
	}
	s.In(r.Cur(), r.Depth())
	var out []string
	for _, it := range s.Spread(t0, t1) {
		k := map[Kind]string{0: "mark", Block: "block", Call: "call", Exit: "exit"}[it.Step.Kind]
		if it.Rest {
			k = "rest"
		}
		if it.Step.Kind == 0 {
			out = append(out, fmt.Sprintf("%s@%d", k, it.At))
			continue
		}
		out = append(out, fmt.Sprintf("%s %d@%d+%d", k, it.Step.Block, it.At, it.Dur))
	}
	s.Reset()
	return strings.Join(out, " ")
}

func TestSpread(t *testing.T) {
	p := weighted()
	tests := []struct {
		name   string
		t0, t1 int64
		evs    []any
		want   string
	}{
		// Weights 3 (entry) + 1 (head, put back eagerly) + 4 (body) + 1
		// (post) + 1 (head) = 10 over 80 ns.
		{"by instructions", 100, 180, []any{blk(0), blk(2)}, "call 0@100+24 block 1@124+8 block 2@132+32 block 3@164+8 block 1@172+8"},
		// The go statement after the entry and head: 4 of 10, 32 ns in.
		{"mark between", 0, 80, []any{blk(0), "go", blk(2)}, "call 0@0+24 block 1@24+8 mark@32 block 2@32+32 block 3@64+8 block 1@72+8"},
		// 7 ns: the begins round 2.1, 2.8, 5.6 and 6.3, each once, so a
		// block can get 0 and the durations still add up to 7.
		{"rounding", 0, 7, []any{blk(0), blk(2)}, "call 0@0+2 block 1@2+1 block 2@3+3 block 3@6+0 block 1@6+1"},
		{"no time", 50, 50, []any{blk(0)}, "call 0@50+0 block 1@50+0"},
		{"time going back", 50, 40, []any{blk(0)}, "call 0@50+0 block 1@50+0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := spread(NewStretch(p), NewReplayer(NewPaths(p)), tt.t0, tt.t1, tt.evs...); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// A stretch in which no block began gives its time to the block the
// goroutine is in: the one it was running, the caller's after a return,
// and the returned function's last block once the goroutine's function has
// returned. Before the first block there is none.
func TestSpreadRest(t *testing.T) {
	p := weighted()
	s, r := NewStretch(p), NewReplayer(NewPaths(p))
	if got := spread(s, r, 0, 10); got != "" {
		t.Errorf("before any block: %q, want nothing", got)
	}
	spread(s, r, 0, 10, blk(0), blk(2), blk(5), blk(6))
	// g is in its done block, put back after its then block.
	if got, want := spread(s, r, 10, 20), "rest 7@10+10"; got != want {
		t.Errorf("inside g: %q, want %q", got, want)
	}
	// g returns into f's head (block 1, the loop condition that called it).
	if got, want := spread(s, r, 20, 30, ret(5)), "exit 5@20+0 rest 1@20+10"; got != want {
		t.Errorf("after g returned: %q, want %q", got, want)
	}
	spread(s, r, 30, 40, blk(2))
	// f returns: its last blocks (post, head, done) are replayed at the exit.
	spread(s, r, 40, 50, ret(0))
	if got, want := spread(s, r, 50, 60), "rest 4@50+10"; got != want {
		t.Errorf("after f returned: %q, want %q", got, want)
	}
	if got, want := s.Last(), int32(4); got != want {
		t.Errorf("Last = %d, want %d", got, want)
	}
}

// Every item's duration is the difference of the begins around it, and
// they add up to the stretch, whatever the weights.
func TestSpreadAddsUp(t *testing.T) {
	g := &tbb.Graph{Funcs: []*tbb.Func{{ID: 0, Name: "f", Entry: 0, Blocks: []int{0, 1}}}}
	g.Blocks = []*tbb.Block{
		{ID: 0, Func: 0, Probe: true, Instrs: 7, Succs: []int{1}},
		{ID: 1, Func: 0, Probe: true, Instrs: 3, Succs: []int{1}, Exit: true},
	}
	p := NewProgram(g)
	for _, e := range []int64{0, 1, 7, 999, 1_000_003} {
		s, r := NewStretch(p), NewReplayer(NewPaths(p))
		var steps []Step
		steps = r.Block(0, steps)
		for range 13 {
			steps = r.Block(1, steps)
		}
		s.Steps(steps)
		items := s.Spread(5, 5+e)
		var sum int64
		for i, it := range items {
			sum += it.Dur
			if i+1 < len(items) && it.At+it.Dur != items[i+1].At {
				t.Errorf("e=%d: item %d ends at %d, the next begins at %d", e, i, it.At+it.Dur, items[i+1].At)
			}
		}
		if sum != e {
			t.Errorf("e=%d: durations add up to %d", e, sum)
		}
	}
}
