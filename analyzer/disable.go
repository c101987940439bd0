package analyzer

import (
	"fmt"
	"go/ast"
	"strings"

	"github.com/divergo/divergo/internal/flow"
	"github.com/divergo/divergo/internal/tbb"
)

// disabled holds the TCP kinds the -disable flag switches off. It exists to
// plant holes on purpose: "divergo check" must find the divergences an
// analyzer that misses a kind of change point lets through, and a test
// proves it does by disabling one kind here. Nothing else should set it.
var disabled kindSet

func init() {
	Analyzer.Flags.Var(&disabled, "disable",
		"comma-separated TCP kinds not to report (testing the soundness check only): "+kindList())
}

// kindSet is a flag.Value: a set of TCP kinds.
type kindSet map[tbb.Kind]bool

func (s *kindSet) String() string {
	if s == nil || len(*s) == 0 {
		return ""
	}
	var out []string
	for _, k := range tbb.Kinds {
		if (*s)[k] {
			out = append(out, string(k))
		}
	}
	return strings.Join(out, ",")
}

func (s *kindSet) Set(v string) error {
	m := kindSet{}
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		k := tbb.Kind(f)
		if !k.Valid() {
			return fmt.Errorf("unknown TCP kind %q (known: %s)", f, kindList())
		}
		if k == tbb.Begin {
			// The begin TCP anchors main's CP at its return; without it the
			// graph has no root to correspond, which is not a hole but a
			// broken graph.
			return fmt.Errorf("the begin TCP cannot be disabled")
		}
		m[k] = true
	}
	*s = m
	return nil
}

func kindList() string {
	var out []string
	for _, k := range tbb.Kinds {
		if k != tbb.Begin {
			out = append(out, string(k))
		}
	}
	return strings.Join(out, ",")
}

// withDisabled wraps o so that the TCPs of disabled kinds never reach flow:
// the blocks they would have made are then ordinary blocks, exactly what an
// analyzer that missed them would produce.
func withDisabled(o flow.Oracle) flow.Oracle {
	if len(disabled) == 0 {
		return o
	}
	return filterOracle{o, disabled}
}

type filterOracle struct {
	flow.Oracle
	off kindSet
}

func (f filterOracle) Branch(s ast.Stmt) *tbb.TCP {
	if t := f.Oracle.Branch(s); t != nil && !f.off[t.Kind] {
		return t
	}
	return nil
}

// Leaf passes the question on: the disabled kinds do not change which
// calls record nothing.
func (f filterOracle) Leaf(call *ast.CallExpr) bool {
	lo, ok := f.Oracle.(flow.LeafOracle)
	return ok && lo.Leaf(call)
}

// PlainRange passes the question on, for the same reason.
func (f filterOracle) PlainRange(s *ast.RangeStmt) bool {
	lo, ok := f.Oracle.(flow.LeafOracle)
	return ok && lo.PlainRange(s)
}

func (f filterOracle) Point(n ast.Node) []*tbb.TCP {
	ts := f.Oracle.Point(n)
	var out []*tbb.TCP
	for _, t := range ts {
		if !f.off[t.Kind] {
			out = append(out, t)
		}
	}
	return out
}
