package analyzer

import (
	"golang.org/x/tools/go/ssa"
)

// Goroutines of two runs are matched by spawn path (compare/doc.go): the
// k-th goroutine a go statement started in a parent with the k-th it
// started in the parent's match. The arguments the go statement evaluated
// for its k-th goroutine are then alike in both runs only when it is
// steady: its goroutine reaches it the same number of times, with the same
// values, before the k-th time. A clean loop counter passed in a loop with
// a clean condition is the same for the k-th goroutine; passed in one case
// of a select, it is whatever iteration took that case the k-th time.
// Deferred calls are alike: they run at the return, the last deferred
// first, so which call compare meets first there depends on how often the
// defer statement ran.
//
// A call site is steady when the function holding it is and no shared
// branch decides whether control reaches it (control dependence, loop
// exits included: an inner loop that runs a varying number of times shifts
// what the outer loop's later iterations are counted as). A function is
// steady when every in-package call, defer and go statement of it is: its
// calls in a goroutine then come in the same order with the same values in
// both runs (what differs in its arguments, ctx already says). A function
// that unknown code may call is not. Direct calls need no more than their
// arguments' taint, since compare meets a call where its caller made it;
// only go and defer statements hand their callee to a matching by count.

// unsteadyAt reports whether call site in of s may run a different number
// of times before a given run of it in one run than in the other.
func (s *fstate) unsteadyAt(in ssa.Instruction) bool {
	if s.unsteady {
		return true
	}
	shared, _ := s.eval(s.condTaintAt(s.cd.conds(in.Block().Index, -1), in.Block()))
	return shared
}

// orCounted is taint tt of the i-th argument a of unsteady go or defer
// statement in as its callee t sees it: shared, since which goroutine or
// deferred call gets which value depends on how often the statement ran
// before, unless a is a constant, the same every time. Data that is
// shared on its own keeps its source.
func (s *fstate) orCounted(tt taint, t *fstate, i int, a ssa.Value, in ssa.Instruction) taint {
	if _, ok := a.(*ssa.Const); ok {
		return tt
	}
	if ok, _ := s.eval(tt); ok {
		return tt
	}
	name := "argument"
	if i < len(t.fn.Params) {
		name = "parameter " + t.fn.Params[i].Name()
	}
	desc := name + ", which each goroutine gets from a go statement that runs a varying number of times"
	if _, ok := in.(*ssa.Defer); ok {
		desc = name + ", which each deferred call gets from a defer statement that runs a varying number of times"
	}
	tt.or(sharedFrom(&source{desc: desc, pos: in.Pos()}))
	return tt
}
