package syncop

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Op is one recorded operation of a function body.
type Op struct {
	Op  string    // a tbb.SiteOps name: "lock", "recv", "go", "wg.go", ...
	Pos token.Pos // the operation itself: the call, the <- or send, the go or select keyword, a range's channel
	// At is where the block holding the operation is looked up. It is Pos
	// except for a select, whose block is the one that evaluates its
	// communications (its first case's).
	At token.Pos
}

// Methods maps the methods of sync types that the runtime wraps to the
// operation they record.
var Methods = map[string]string{
	"Mutex.Lock": "lock", "Mutex.Unlock": "unlock", "Mutex.TryLock": "trylock",
	"RWMutex.Lock": "lock", "RWMutex.Unlock": "unlock", "RWMutex.RLock": "rlock", "RWMutex.RUnlock": "runlock",
	"WaitGroup.Add": "wg.add", "WaitGroup.Done": "wg.done", "WaitGroup.Wait": "wg.wait",
	"Cond.Wait": "cond.wait", "Cond.Signal": "cond.signal", "Cond.Broadcast": "cond.broadcast",
	"Once.Do": "once",
}

// Find returns the recorded operations of body, a function of package pkg,
// in source order. Operations inside function literals belong to the
// literals and are not returned.
func Find(body *ast.BlockStmt, info *types.Info, pkg *types.Package) []Op {
	f := &finder{info: info, pkg: pkg}
	for _, s := range body.List {
		f.walk(s)
	}
	sort.SliceStable(f.ops, func(i, j int) bool { return f.ops[i].Pos < f.ops[j].Pos })
	return f.ops
}

type finder struct {
	info *types.Info
	pkg  *types.Package
	ops  []Op
}

func (f *finder) add(op string, pos token.Pos) { f.ops = append(f.ops, Op{Op: op, Pos: pos, At: pos}) }

func (f *finder) walk(n ast.Node) {
	if n != nil {
		ast.Inspect(n, f.visit)
	}
}

func (f *finder) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.FuncLit:
		return false
	case *ast.GoStmt:
		f.add("go", n.Pos())
		// The call runs in the child; the parent evaluates the function
		// value and the arguments.
		f.walk(n.Call.Fun)
		for _, a := range n.Call.Args {
			f.walk(a)
		}
		return false
	case *ast.ExprStmt:
		if call, ok := n.X.(*ast.CallExpr); ok && SyncMethod(f.info, call) == "WaitGroup.Go" {
			sel := call.Fun.(*ast.SelectorExpr)
			if _, _, ok := Addr(f.info, f.pkg, sel); ok && len(call.Args) == 1 {
				f.add("wg.go", call.Pos())
			}
			f.walk(sel.X)
			for _, a := range call.Args {
				f.walk(a)
			}
			return false
		}
	case *ast.SelectStmt:
		if len(n.Body.List) > 0 {
			at := n.Pos()
			for _, c := range n.Body.List {
				if cc := c.(*ast.CommClause); cc.Comm != nil {
					at = cc.Comm.Pos()
					break
				}
			}
			f.ops = append(f.ops, Op{Op: "select", Pos: n.Pos(), At: at})
		}
		// The communications stay as they are: only the bodies are walked.
		for _, c := range n.Body.List {
			for _, s := range c.(*ast.CommClause).Body {
				f.walk(s)
			}
		}
		return false
	case *ast.SendStmt:
		f.add("send", n.Pos())
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			f.add("recv", n.Pos())
		}
	case *ast.CallExpr:
		if op := f.call(n); op != "" {
			f.add(op, n.Pos())
		}
	case *ast.RangeStmt:
		if t := f.info.TypeOf(n.X); t != nil {
			if _, ok := t.Underlying().(*types.Chan); ok {
				switch n.Key.(type) {
				case nil, *ast.Ident:
					f.add("recv", n.X.Pos())
				}
			}
		}
	}
	return true
}

// call returns the operation a call records, or "".
func (f *finder) call(call *ast.CallExpr) string {
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := f.info.Uses[id].(*types.Builtin); ok && b.Name() == "close" {
			return "close"
		}
		return ""
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if name, _ := InterfaceLock(f.info, sel); name != "" {
		return lockerOp(f.info, f.pkg, sel)
	}
	if m := SyncMethod(f.info, call); m != "" {
		op, ok := Methods[m]
		if !ok {
			return ""
		}
		if _, _, ok := Addr(f.info, f.pkg, sel); !ok {
			return ""
		}
		return op
	}
	if IsSleep(f.info, sel) {
		return "sleep"
	}
	return ""
}

// lockerOp returns "lock" or "unlock" when sel is Lock or Unlock of a
// sync.Locker (c.L.Lock(), a Locker parameter, an interface of the
// program's with both) that the instrumenter can wrap: the runtime records
// those by the value's dynamic type. The rest through an interface is not
// recorded, and gives "".
func lockerOp(info *types.Info, pkg *types.Package, sel *ast.SelectorExpr) string {
	name, locker := InterfaceLock(info, sel)
	if !locker || (name != "Lock" && name != "Unlock") {
		return ""
	}
	if _, _, ok := Addr(info, pkg, sel); !ok {
		return ""
	}
	return map[string]string{"Lock": "lock", "Unlock": "unlock"}[name]
}

// LockerLock reports whether call is a Lock through a sync.Locker that is
// recorded (see lockerOp). When the value holds one of sync's locks, the
// runtime records its acquisition like a direct Mutex.Lock, ticket
// included, so the analyzer must mark such a call as a lock change point
// just as it marks a direct one: a ticket recorded at a call the graph
// does not mark is a difference compare can only call a hole.
func LockerLock(info *types.Info, pkg *types.Package, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && lockerOp(info, pkg, sel) == "lock"
}

// IsSleep reports whether sel names time.Sleep through the package's name.
func IsSleep(info *types.Info, sel *ast.SelectorExpr) bool {
	pkgID, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	if _, ok := info.Uses[pkgID].(*types.PkgName); !ok {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	return ok && fn.FullName() == "time.Sleep"
}

// SyncMethod returns "Type.Method" when call calls a method of a sync type
// through a selector, else "".
func SyncMethod(info *types.Info, call *ast.CallExpr) string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return ""
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return ""
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return ""
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok {
		return ""
	}
	return named.Obj().Name() + "." + fn.Name()
}

// Addr returns the text to put around the receiver x of selection sel so
// that it becomes a pointer to the sync value the method works on, walking
// embedded fields ("&(x).Mutex"). ok is false when a field on the way is
// not accessible from package pkg: the operation cannot be wrapped.
func Addr(info *types.Info, pkg *types.Package, sel *ast.SelectorExpr) (prefix, suffix string, ok bool) {
	s := info.Selections[sel]
	t := s.Recv()
	path := ""
	idx := s.Index()
	for _, i := range idx[:len(idx)-1] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return "", "", false
		}
		f := st.Field(i)
		if !f.Exported() && f.Pkg() != pkg {
			return "", "", false
		}
		path += "." + f.Name()
		t = f.Type()
	}
	if _, isPtr := t.Underlying().(*types.Pointer); isPtr || types.IsInterface(t) {
		return "(", ")" + path, true // an interface (a Locker) is passed as it is
	}
	return "&(", ")" + path, true
}

// InterfaceLock returns the method's name when sel selects a lock method
// (Lock, Unlock, RLock, RUnlock, TryLock, TryRLock without arguments or
// results) of an interface, and whether that interface has Lock and
// Unlock both, so that its values are sync.Lockers.
func InterfaceLock(info *types.Info, sel *ast.SelectorExpr) (name string, locker bool) {
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return "", false
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok {
		return "", false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
		return "", false
	}
	switch fn.Name() {
	case "Lock", "Unlock", "RLock", "RUnlock", "TryLock", "TryRLock":
	default:
		return "", false
	}
	if sig.Params().Len() != 0 || (sig.Results().Len() != 0 && !strings.HasPrefix(fn.Name(), "Try")) {
		return "", false
	}
	it := sig.Recv().Type().Underlying().(*types.Interface)
	return fn.Name(), hasNullary(it, "Lock") && hasNullary(it, "Unlock")
}

// hasNullary reports whether it has a method name with neither parameters
// nor results.
func hasNullary(it *types.Interface, name string) bool {
	for i := 0; i < it.NumMethods(); i++ {
		m := it.Method(i)
		if sig := m.Type().(*types.Signature); m.Name() == name && sig.Params().Len() == 0 && sig.Results().Len() == 0 {
			return true
		}
	}
	return false
}
