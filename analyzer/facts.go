package analyzer

import "go/types"

// funcFact summarizes a function for its callers in other packages: for
// each result, a mask of bit 0 (shared) and bit i+1 (parameter i flows in).
type funcFact struct {
	Results []uint64
}

func (*funcFact) AFact() {}

func (f *funcFact) String() string {
	out := "summary("
	for j, m := range f.Results {
		if j > 0 {
			out += "; "
		}
		out += mask(m).String()
	}
	return out + ")"
}

func (m mask) String() string {
	if m == 0 {
		return "-"
	}
	out := ""
	sep := func() {
		if out != "" {
			out += ","
		}
	}
	if m&shared != 0 {
		out = "shared"
	}
	for i := 0; i < maxSlots; i++ {
		if m&slotBit(i) != 0 {
			sep()
			out += "p" + itoa(i)
		}
	}
	return out
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// exportFacts publishes the summary of every package-level function and
// method with results.
func (ps *pkgState) exportFacts() {
	for _, s := range ps.funcs {
		obj, ok := s.fn.Object().(*types.Func)
		if !ok || !obj.Exported() || s.fn.Parent() != nil || len(s.summary) == 0 || obj.Pkg() != ps.pass.Pkg {
			continue
		}
		f := &funcFact{Results: make([]uint64, len(s.summary))}
		for i, t := range s.summary {
			f.Results[i] = uint64(t.m)
		}
		ps.pass.ExportObjectFact(obj, f)
	}
}
