package analyzer

import (
	"strings"

	"go/types"
)

// funcFact summarizes a function for its callers in other packages. Masks
// have bit 0 for shared data, bit i+1 for parameter i (the receiver first),
// and bit Params+i+1 for the memory parameter i points to.
type funcFact struct {
	Results []uint64 // per result: what it depends on
	Params  int
	Local   uint64   // bit i: pointer parameter i does not escape
	Writes  []uint64 // per parameter: what is stored through it (nil: nothing)
}

func (*funcFact) AFact() {}

// String formats the fact for tests: "summary(p0,m1; shared)" lists per
// result the parameters (pN), the memory they point to (mN) and shared
// data; then what is written through local parameters.
func (f *funcFact) String() string {
	var res []string
	for _, m := range f.Results {
		res = append(res, f.maskString(mask(m)))
	}
	out := "summary(" + strings.Join(res, "; ") + ")"
	var ws []string
	for k, w := range f.Writes {
		if w != 0 {
			ws = append(ws, "p"+itoa(k)+":"+f.maskString(mask(w)))
		}
	}
	if len(ws) > 0 {
		out += " writes(" + strings.Join(ws, " ") + ")"
	}
	return out
}

func (f *funcFact) maskString(m mask) string {
	if m == 0 {
		return "-"
	}
	var parts []string
	if m&shared != 0 {
		parts = append(parts, "shared")
	}
	for i := 0; i < f.Params && i < maxSlots; i++ {
		if m&slotBit(i) != 0 {
			parts = append(parts, "p"+itoa(i))
		}
	}
	for k := 0; k < f.Params; k++ {
		if i, ok := memSlot(f.Params, k); ok && m&slotBit(i) != 0 {
			parts = append(parts, "m"+itoa(k))
		}
	}
	return strings.Join(parts, ",")
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// exportFacts publishes the summary of every exported package-level
// function and method that has results or pointer parameters, and returns
// what it published.
func (ps *pkgState) exportFacts() map[*types.Func]*funcFact {
	out := map[*types.Func]*funcFact{}
	for _, s := range ps.funcs {
		obj, ok := s.fn.Object().(*types.Func)
		if !ok || !obj.Exported() || s.fn.Parent() != nil || obj.Pkg() != ps.pass.Pkg {
			continue
		}
		f := &funcFact{Params: len(s.fn.Params)}
		for _, t := range s.summary {
			f.Results = append(f.Results, uint64(t.m))
		}
		cs := s.summaryOf()
		hasPtr := false
		for k, p := range s.fn.Params {
			if paramRoot(p.Type()) {
				hasPtr = true
			}
			if k < 64 && cs.local[k] {
				f.Local |= 1 << k
			}
		}
		for _, w := range cs.writes {
			if w != 0 {
				f.Writes = make([]uint64, len(cs.writes))
				for k, w := range cs.writes {
					f.Writes[k] = uint64(w)
				}
				break
			}
		}
		if len(f.Results) == 0 && !hasPtr {
			continue
		}
		ps.pass.ExportObjectFact(obj, f)
		out[obj] = f
	}
	return out
}
