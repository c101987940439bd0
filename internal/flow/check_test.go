package flow

import (
	"go/token"
	"strings"
	"testing"
)

// graph makes a Func from a description: probed[i] says whether block i is
// probed, succs[i] lists its successors, exits the blocks that leave.
func graph(probed []bool, succs [][]int, exits ...int) *Func {
	f := &Func{}
	for i, p := range probed {
		b := &Block{Index: i, ID: -1, Kind: "test"}
		if p {
			b.Probe = Probe{Open, token.Pos(10 + i)}
		}
		f.Blocks = append(f.Blocks, b)
	}
	for i, ss := range succs {
		for _, s := range ss {
			f.Blocks[i].Succs = append(f.Blocks[i].Succs, f.Blocks[s])
		}
	}
	for _, e := range exits {
		f.Blocks[e].Exit = true
	}
	return f
}

// nest marks blocks head and rest of f as a quiet loop nest headed by head.
func nest(f *Func, head int, rest ...int) *Func {
	h := f.Blocks[head]
	h.Nest = h
	for _, i := range rest {
		f.Blocks[i].Nest = h
	}
	return f
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    *Func
		want string // substring of the error, "" for none
	}{
		{"diamond of probed blocks", graph([]bool{true, true, true, true}, [][]int{{1, 2}, {3}, {3}, {}}, 3), ""},
		{"implied head with probed successors", graph([]bool{true, false, true, true}, [][]int{{1}, {2, 3}, {1}, {}}, 3), ""},
		{"two implied paths", graph([]bool{true, false, false, true}, [][]int{{1, 2}, {3}, {3}, {}}, 3), "2 paths through implied blocks lead from block 0"},
		{"implied branch rejoining", graph([]bool{true, false, false, true}, [][]int{{1}, {2, 3}, {3}, {}}, 3), "2 paths"},
		{"two implied paths to the exit", graph([]bool{true, false, false}, [][]int{{1, 2}, {}, {}}, 1, 2), "to the exit"},
		{"implied cycle", graph([]bool{true, false, false}, [][]int{{1}, {2}, {1}}), "cycle"},
		{"implied entry", graph([]bool{false, true}, [][]int{{1}, {}}, 1), "entry block is not probed"},
		{"no blocks", &Func{}, "no blocks"},
		// 0 → nest {1 head, 2 inner head, 3 inner body} → 4 done → 5.
		{"quiet nest", nest(graph([]bool{true, false, false, false, false, true}, [][]int{{1}, {2, 4}, {3, 1}, {2}, {5}, {}}, 5), 1, 2, 3), ""},
		{"quiet nest on an arm without a probe", nest(graph([]bool{true, false, false, false, false, true}, [][]int{{1, 4}, {2, 4}, {3, 1}, {2}, {5}, {}}, 5), 1, 2, 3), "2 paths"},
		{"probed block in a quiet nest", nest(graph([]bool{true, false, false, true, false, true}, [][]int{{1}, {2, 4}, {3, 1}, {2}, {5}, {}}, 5), 1, 2, 3), "of a quiet loop nest is probed"},
		{"a quiet nest entered past its head", nest(graph([]bool{true, false, false, false, false, true}, [][]int{{1, 2}, {2, 4}, {3, 1}, {2}, {5}, {}}, 5), 1, 2, 3), "past its head"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.f)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func TestPostDominatorsGraphs(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    *Func
		want []int
	}{
		{"diamond", graph([]bool{true, true, true, true}, [][]int{{1, 2}, {3}, {3}, {}}, 3), []int{3, 3, 3, -1}},
		{"two exits", graph([]bool{true, true, true}, [][]int{{1, 2}, {}, {}}, 1, 2), []int{-1, -1, -1}},
		// 0 → 1 ⇄ 2, never leaves: the head 1 gets the virtual exit edge.
		{"endless loop", graph([]bool{true, true, true}, [][]int{{1}, {2}, {1}}), []int{1, -1, 1}},
		// 0 → 1 → {2, 3}; 2 → 1; 3 → 4 ⇄ 5: two endless loops, outer head 1 first.
		{"nested endless loops", graph([]bool{true, true, true, true, true, true}, [][]int{{1}, {2, 3}, {1}, {4}, {5}, {4}}), []int{1, -1, 1, 4, -1, 4}},
		// A dead end (select {}) converges like an exit.
		{"dead end", graph([]bool{true, true, true, true}, [][]int{{1, 2}, {3}, {}, {}}, 3), []int{-1, 3, -1, -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := PostDominators(tc.f)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}
