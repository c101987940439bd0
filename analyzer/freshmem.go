package analyzer

import "golang.org/x/tools/go/ssa"

// What fresh memory holds (fresh.go): in the function that made it, what
// its making calls stored there; in a function given it, the parameter's
// memory slot, which its callers' contexts decide.

// freshMem reports whether addr reaches fresh memory the function does not
// publish, and the taint of that memory.
func (s *fstate) freshMem(addr ssa.Value) (taint, bool) {
	if !s.freshValue(addr) {
		return taint{}, false
	}
	r := s.freshComp[addr]
	if s.freshBusy[r] {
		// A component whose content depends on itself through a call's
		// arguments: leave it to the rest of the analysis.
		return sharedFrom(nil), true
	}
	if s.freshBusy == nil {
		s.freshBusy = map[ssa.Value]bool{}
	}
	s.freshBusy[r] = true
	defer delete(s.freshBusy, r)
	var t taint
	for _, v := range s.freshSrcs[r] {
		switch v := v.(type) {
		case *ssa.Parameter:
			t.or(s.paramMem(v, nil, v.Pos()))
		case *ssa.Call:
			t.or(s.get(v))
			t.or(s.freshCallContent(v))
		}
	}
	return t, true
}

// freshCallContent is what the fresh memory call c returns holds, in s.
func (s *fstate) freshCallContent(c *ssa.Call) taint {
	g := s.pkg.freshCallee(c)
	if g == nil {
		return sharedFrom(nil)
	}
	args := make([]taint, len(c.Call.Args))
	for i, a := range c.Call.Args {
		args[i] = s.get(a)
	}
	mem := func(k int) taint {
		if k >= len(c.Call.Args) {
			return sharedFrom(nil)
		}
		return s.memOf(c.Call.Args[k], c, c.Pos())
	}
	return s.translate(g.freshContent.m, g.freshContent.p, g.summaryOf(), args, mem)
}

// summarizeFresh computes what the fresh memory a freshRet function
// returns holds: what it stores into its allocations and the conditions of
// those stores, what the fresh calls it makes return, and its results'
// own taints (which allocation, or nil). It reports whether that grew.
func (s *fstate) summarizeFresh() bool {
	if !s.freshRet {
		return false
	}
	t := taint{}
	for _, r := range s.summary {
		t.or(r)
	}
	for _, b := range s.fn.Blocks {
		s.at = b
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Store:
				if fa, ok := in.Addr.(*ssa.FieldAddr); ok {
					if _, ok := fa.X.(*ssa.Alloc); ok {
						t.or(s.get(in.Val))
						t.or(s.condTaint(s.cd.conds(b.Index, -1)))
					}
				}
			case *ssa.Call:
				if s.pkg.freshCallee(in) != nil {
					t.or(s.freshCallContent(in))
				}
			}
		}
	}
	return s.freshContent.or(t)
}
