package analyzer

import (
	"go/ast"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
)

// fixedOracle hands out the same TCPs for every statement.
type fixedOracle struct {
	branch *tbb.TCP
	points []*tbb.TCP
}

func (f fixedOracle) Branch(ast.Stmt) *tbb.TCP  { return f.branch }
func (f fixedOracle) Point(ast.Node) []*tbb.TCP { return f.points }

func TestKindSetFlag(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		err      bool
	}{
		{"", "", false},
		{"branch", "branch", false},
		{"loop, branch,", "branch,loop", false}, // printed in tbb.Kinds order
		{"once,lock", "lock,once", false},
		{"branch,nosuch", "", true},
		{"begin", "", true},
	} {
		var s kindSet
		err := s.Set(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("Set(%q): error %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if err == nil && s.String() != tt.want {
			t.Errorf("Set(%q): %q, want %q", tt.in, s.String(), tt.want)
		}
	}
}

func TestFilterOracle(t *testing.T) {
	br := &tbb.TCP{Kind: tbb.Branch}
	lp := &tbb.TCP{Kind: tbb.Loop}
	lk, ix := &tbb.TCP{Kind: tbb.Lock}, &tbb.TCP{Kind: tbb.Index}
	off := kindSet{tbb.Branch: true, tbb.Index: true}
	for _, tt := range []struct {
		o          fixedOracle
		wantBranch *tbb.TCP
		wantPoints int
	}{
		{fixedOracle{br, []*tbb.TCP{lk, ix}}, nil, 1},
		{fixedOracle{lp, []*tbb.TCP{ix}}, lp, 0},
		{fixedOracle{nil, nil}, nil, 0},
	} {
		f := filterOracle{tt.o, off}
		if got := f.Branch(nil); got != tt.wantBranch {
			t.Errorf("Branch: %v, want %v", got, tt.wantBranch)
		}
		ps := f.Point(nil)
		if len(ps) != tt.wantPoints {
			t.Errorf("Point: %d TCPs, want %d", len(ps), tt.wantPoints)
		}
		for _, p := range ps {
			if off[p.Kind] {
				t.Errorf("Point passed a disabled %s", p.Kind)
			}
		}
	}
	// Nothing disabled: the oracle itself, no wrapper.
	o := fixedOracle{br, nil}
	if _, wrapped := withDisabled(o).(filterOracle); wrapped && len(disabled) == 0 {
		t.Error("withDisabled wraps the oracle with nothing disabled")
	}
}
