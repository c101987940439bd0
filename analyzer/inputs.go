package analyzer

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The program's input is the same in two runs of one program on one input
// and one machine, which is what compare assumes of the runs it is given:
// the command line (os.Args, and what the flag package parses from it),
// the environment, and the machine's processors (runtime.NumCPU, and
// runtime.GOMAXPROCS, which the environment or the program sets). Reading
// it is not reading shared data, and the results of the functions that
// return it depend only on their arguments.

// flagInputs are the flag package's functions, and *flag.FlagSet's
// methods, whose results are the command line; true marks those whose
// result points to it (a flag's value, which only Parse writes, from the
// command line; flag.Args' strings).
var flagInputs = map[string]bool{
	"Bool": true, "Int": true, "Int64": true, "Uint": true, "Uint64": true,
	"String": true, "Float64": true, "Duration": true, "Args": true,
	"Arg": false, "NArg": false, "NFlag": false, "Parsed": false, "Parse": false,
}

// isProgramInput reports functions that return the program's input.
func isProgramInput(fn *types.Func) bool {
	if relaxed(RuleInputs) {
		return false
	}
	k := keyOf(fn)
	switch k.pkg {
	case "os":
		return k.recv == "" && (k.name == "Getenv" || k.name == "LookupEnv" || k.name == "Environ")
	case "syscall":
		return k.recv == "" && (k.name == "Getenv" || k.name == "Environ")
	case "runtime":
		return k.recv == "" && (k.name == "GOMAXPROCS" || k.name == "NumCPU")
	case "flag":
		_, ok := flagInputs[k.name]
		return (k.recv == "" || k.recv == "FlagSet") && ok
	}
	return false
}

// isInputPointer reports functions whose result points to the command
// line: a flag's value, or flag.Args' strings.
func isInputPointer(fn *types.Func) bool {
	if relaxed(RuleInputs) {
		return false
	}
	k := keyOf(fn)
	return k.pkg == "flag" && (k.recv == "" || k.recv == "FlagSet") && flagInputs[k.name]
}

// isFlagVar reports flag.IntVar and its kind: functions (and *FlagSet
// methods) that define a flag whose value the flag package writes, at
// Parse, into the variable whose address is their first argument.
func isFlagVar(fn *types.Func) bool {
	if relaxed(RuleInputs) {
		return false
	}
	k := keyOf(fn)
	if k.pkg != "flag" || (k.recv != "" && k.recv != "FlagSet") || len(k.name) < 4 || k.name[len(k.name)-3:] != "Var" {
		return false
	}
	return flagInputs[k.name[:len(k.name)-3]] && k.name != "ArgsVar"
}

// flagVarUse reports whether u passes address v as the variable of a flag
// (flag.IntVar(&v, ...)).
func flagVarUse(v ssa.Value, u ssa.Instruction) bool {
	c, ok := u.(*ssa.Call)
	if !ok {
		return false
	}
	fn := staticFunc(&c.Call)
	if fn == nil || !isFlagVar(fn) {
		return false
	}
	k := 0
	if fn.Signature().Recv() != nil {
		k = 1
	}
	for i, a := range c.Call.Args {
		if a == v && i != k {
			return false
		}
	}
	return len(c.Call.Args) > k && c.Call.Args[k] == v
}

// inputMem reports whether v is the program's input or memory reached from
// it: os.Args, flag.Args(), a flag's value, through a package variable or
// a holder (frozen.go) that holds nothing but what a flag function
// returned, or a captured variable bound to such a holder.
func (s *fstate) inputMem(v ssa.Value) bool {
	if relaxed(RuleInputs) {
		return false
	}
	ps := s.pkg
	for i := 0; i < 16; i++ {
		switch x := base(v).(type) {
		case *ssa.Index:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.Global:
			if x.Pkg != nil && x.Pkg.Pkg.Path() == "os" && x.Name() == "Args" {
				return true
			}
			return ps.flagGlobals[x]
		case *ssa.Call:
			fn := staticFunc(&x.Call)
			return fn != nil && isInputPointer(fn)
		case *ssa.Alloc:
			vals, ok := s.holders[x]
			if !ok || len(vals) == 0 {
				return false
			}
			for _, h := range vals {
				if !s.inputMem(h) {
					return false
				}
			}
			return true
		case *ssa.FreeVar:
			for i, fv := range s.fn.FreeVars {
				if fv == x {
					return i < len(s.fvInput) && s.fvInput[i]
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// staticFunc is the function or method a call statically calls, through
// generic origins, or nil.
func staticFunc(c *ssa.CallCommon) *types.Func {
	if c.IsInvoke() {
		return nil
	}
	callee := c.StaticCallee()
	if callee == nil {
		return nil
	}
	fn, _ := callee.Object().(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// findFlagGlobals finds the read-only package variables that hold nothing
// but what a flag function returned (var n = flag.Int(...)): memory
// reached through them is a flag's value.
func (ps *pkgState) findFlagGlobals() {
	ps.flagGlobals = map[*ssa.Global]bool{}
	bad := map[*ssa.Global]bool{}
	for _, fn := range ps.ssa.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				st, ok := in.(*ssa.Store)
				if !ok {
					continue
				}
				g, ok := st.Addr.(*ssa.Global)
				if !ok || !ps.initOnly[g] {
					continue
				}
				if c, ok := st.Val.(*ssa.Call); ok {
					if f := staticFunc(&c.Call); f != nil && isInputPointer(f) {
						ps.flagGlobals[g] = true
						continue
					}
				}
				bad[g] = true
			}
		}
	}
	for g := range bad {
		delete(ps.flagGlobals, g)
	}
}
