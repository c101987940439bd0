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
// A function is unsteady when its calls in a goroutine may come a
// different number of times, or with other arguments, before a given one
// in one run than in the other: when unknown code may call it, or some
// in-package call, defer or go statement of it is in an unsteady function
// or where a shared branch decides whether control reaches it (control
// dependence, loop exits included: an inner loop that runs a varying number
// of times shifts what the outer loop's later iterations are counted as).
//
// A go or defer statement passes a shared argument (a constant excepted)
// when a shared branch decides whether control reaches it, or when its
// function is unsteady and the argument or those branches depend on the
// function's parameters or captured variables: what depends on nothing
// else is the same in every call of the function, so the statement runs
// as often with the same values in each, and the goroutines it starts line
// up however many calls came before. Direct calls need no more than their
// arguments' taint, since compare meets a call where its caller made it;
// only go and defer statements hand their callee to a matching by count.

// siteCond is what decides whether control reaches a call site: the taint
// of the branches it is control dependent on, and whether that is shared
// in the function's calling contexts.
type siteCond struct {
	t      taint
	shared bool
}

// steadiness returns what decides whether control reaches call site in
// of s.
func (s *fstate) steadiness(in ssa.Instruction) siteCond {
	t := s.condTaintAt(s.cd.conds(in.Block().Index, -1), in.Block())
	shared, _ := s.eval(t)
	return siteCond{t: t, shared: shared}
}

// orCounted is taint tt of the i-th argument a of go or defer statement in
// as its callee t sees it: shared when the goroutine or deferred call that
// gets it under a given count may get another value in another run (see
// above). Data that is shared on its own keeps its source.
func (s *fstate) orCounted(tt taint, st siteCond, t *fstate, i int, a ssa.Value, in ssa.Instruction) taint {
	if _, ok := a.(*ssa.Const); ok {
		return tt
	}
	if ok, _ := s.eval(tt); ok {
		return tt
	}
	x := s.get(a)
	x.or(tt)
	x.or(st.t)
	if !st.shared && (!s.unsteady || x.m&^shared == 0) && !relaxed(RuleCounted) {
		return tt
	}
	name := "argument"
	if i < len(t.fn.Params) {
		name = "parameter " + t.fn.Params[i].Name()
	} else if j := i - len(t.fn.Params); j < len(t.fn.FreeVars) {
		name = "captured variable " + t.fn.FreeVars[j].Name()
	}
	desc := name + ", which each goroutine gets from a go statement that runs a varying number of times"
	if _, ok := in.(*ssa.Defer); ok {
		desc = name + ", which each deferred call gets from a defer statement that runs a varying number of times"
	}
	tt.or(sharedFrom(&source{desc: desc, pos: in.Pos()}))
	return tt
}
