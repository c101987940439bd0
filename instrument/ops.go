package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/divergo/divergo/internal/syncop"
	"github.com/divergo/divergo/internal/trace"
)

func (r *rewriter) push(n ast.Node) { r.depth++; r.stack = append(r.stack, n) }
func (r *rewriter) pop()            { r.depth--; r.stack = r.stack[:len(r.stack)-1] }

// operation rewrites n, inside a planned function, when it is a spawn, a
// synchronization operation or an outcome to record. It returns whether the
// caller should walk n's children.
func (r *rewriter) operation(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.GoStmt:
		r.goStmt(n)
		return false
	case *ast.ExprStmt:
		if call, ok := n.X.(*ast.CallExpr); ok && r.syncMethod(call) == "WaitGroup.Go" {
			r.wgGo(call)
			return false
		}
	case *ast.SelectStmt:
		r.selectStmt(n)
		return false
	case *ast.AssignStmt:
		if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
			r.markCommaOK(n.Rhs[0])
		}
	case *ast.ValueSpec:
		if len(n.Names) == 2 && len(n.Values) == 1 {
			r.markCommaOK(n.Values[0])
		}
	case *ast.SendStmt:
		site, ok := r.site(n.Pos(), "send")
		if !ok {
			break
		}
		r.buf.insert(r.off(n.Chan.Pos()), r.depth, "_dvg.Send"+r.sendTypeArg(n)+"(_dvg_r, "+site+", ")
		r.buf.replace(r.off(n.Chan.End()), r.off(n.Value.Pos()), ", ")
		r.buf.insert(r.off(n.Value.End()), -r.depth, ")")
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			name := "Recv"
			if r.commaOK[n] {
				name = "Recv2"
			}
			site, ok := r.site(n.Pos(), "recv")
			if !ok {
				break
			}
			r.buf.replace(r.off(n.OpPos), r.off(n.X.Pos()), "_dvg."+name+"(_dvg_r, "+site+", ")
			r.buf.insert(r.off(n.X.End()), -r.depth, ")")
		}
	case *ast.CallExpr:
		r.handoffArgs(n)
		r.call(n)
	case *ast.SelectorExpr:
		r.methodValue(n)
	case *ast.RangeStmt:
		r.rangeStmt(n)
	case *ast.IndexExpr:
		if r.indexes[n.Pos()] || r.indexes[n.Lbrack] || r.indexes[n.Index.Pos()] {
			r.indexOutcome(n)
		}
	}
	return true
}

func (r *rewriter) markCommaOK(e ast.Expr) {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		r.commaOK[u] = true
	}
}

// syncMethods maps a sync method to the runtime wrapper that records it.
var syncMethods = map[string]string{
	"Mutex.Lock": "Lock", "Mutex.Unlock": "Unlock", "Mutex.TryLock": "TryLock",
	"RWMutex.Lock": "RWLock", "RWMutex.Unlock": "RWUnlock", "RWMutex.RLock": "RLock", "RWMutex.RUnlock": "RUnlock",
	"WaitGroup.Add": "WGAdd", "WaitGroup.Done": "WGDone", "WaitGroup.Wait": "WGWait",
	"Cond.Wait": "CondWait", "Cond.Signal": "CondSignal", "Cond.Broadcast": "CondBroadcast",
	"Once.Do": "OnceDo",
}

func (r *rewriter) syncMethod(call *ast.CallExpr) string { return syncop.SyncMethod(r.info, call) }

func (r *rewriter) addr(sel *ast.SelectorExpr) (prefix, suffix string, ok bool) {
	return syncop.Addr(r.info, r.pkg, sel)
}

// lockerMethods maps Lock and Unlock called through an interface that a
// sync.Locker satisfies (sync.Locker itself, as in c.L.Lock(), or an
// interface of the program's own with both methods) to the wrapper that
// records them by the value's dynamic type.
var lockerMethods = map[string]string{"Lock": "LockerLock", "Unlock": "LockerUnlock"}

// lockerOps is the site operation of each: the graph's (internal/syncop).
var lockerOps = map[string]string{"Lock": "lock", "Unlock": "unlock"}

// methodValue warns about a lock or sync method taken as a value (f :=
// mu.Lock, c.L.Unlock passed as a func): calls through it are not
// recorded. Calls of such methods are handled by call, which marks them.
func (r *rewriter) methodValue(sel *ast.SelectorExpr) {
	if r.called[sel] {
		return
	}
	name, _ := syncop.InterfaceLock(r.info, sel)
	if name == "" {
		s := r.info.Selections[sel]
		if s == nil || s.Kind() != types.MethodVal {
			return
		}
		fn, ok := s.Obj().(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
			return
		}
		recv := fn.Type().(*types.Signature).Recv()
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := t.(*types.Named)
		if !ok || !wrappedType(named.Obj().Name()+"."+fn.Name()) {
			return
		}
		name = named.Obj().Name() + "." + fn.Name()
	}
	r.warn(sel.Pos(), "method value %s (%s): calls through it are not recorded", r.text(sel), name)
}

func (r *rewriter) call(call *ast.CallExpr) {
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := r.info.Uses[id].(*types.Builtin); ok && b.Name() == "close" {
			if site, ok := r.site(call.Pos(), "close"); ok {
				r.buf.replace(r.off(call.Fun.Pos()), r.off(call.Lparen)+1, "_dvg.Close(_dvg_r, "+site+", ")
			}
		}
		return
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	r.called[sel] = true
	if name, locker := syncop.InterfaceLock(r.info, sel); name != "" {
		wrapper, ok := lockerMethods[name]
		if !ok || !locker {
			r.warn(call.Pos(), "%s through an interface is not recorded: only Lock and Unlock of a sync.Locker are", name)
			return
		}
		prefix, suffix, ok := r.addr(sel)
		if !ok {
			r.warn(call.Pos(), "%s through an unexported embedded field is not recorded", name)
			return
		}
		site, ok := r.site(call.Pos(), lockerOps[name])
		if !ok {
			return
		}
		r.buf.insert(r.off(sel.X.Pos()), r.depth, "_dvg_r."+wrapper+"("+site+", "+prefix)
		r.buf.replace(r.off(sel.X.End()), r.off(call.Rparen), suffix)
		return
	}
	if m := r.syncMethod(call); m != "" {
		wrapper, ok := syncMethods[m]
		if !ok && (!wrappedType(m) || m == "RWMutex.RLocker") {
			return // RLocker only makes a Locker; calls through it are recorded
		}
		if !ok {
			r.warn(call.Pos(), "%s is not recorded (no runtime wrapper, or not a statement of its own)", m)
			return
		}
		prefix, suffix, ok := r.addr(sel)
		if !ok {
			r.warn(call.Pos(), "%s through an unexported embedded field is not recorded", m)
			return
		}
		site, ok := r.site(call.Pos(), syncop.Methods[m])
		if !ok {
			return
		}
		r.buf.insert(r.off(sel.X.Pos()), r.depth, "_dvg_r."+wrapper+"("+site+", "+prefix)
		if len(call.Args) > 0 {
			r.buf.replace(r.off(sel.X.End()), r.off(call.Args[0].Pos()), suffix+", ")
		} else {
			r.buf.replace(r.off(sel.X.End()), r.off(call.Rparen), suffix)
		}
		return
	}
	pkgID, ok := sel.X.(*ast.Ident)
	if !ok {
		return
	}
	pn, ok := r.info.Uses[pkgID].(*types.PkgName)
	if !ok {
		return
	}
	fn, ok := r.info.Uses[sel.Sel].(*types.Func)
	if !ok {
		return
	}
	switch fn.FullName() {
	case "time.Sleep":
		site, ok := r.site(call.Pos(), "sleep")
		if !ok {
			return
		}
		r.buf.replace(r.off(call.Fun.Pos()), r.off(call.Lparen)+1, "_dvg_r.Sleep("+site+", ")
		r.trailers["var _ = "+pn.Name()+".Sleep"] = true
	case "runtime.Gosched":
		// A yield the program asks for is a place for divergo's
		// scheduler to choose too (runtime/sched.go); nothing is recorded.
		r.buf.replace(r.off(call.Fun.Pos()), r.off(call.Fun.End()), "_dvg_r.Gosched")
		r.trailers["var _ = "+pn.Name()+".Gosched"] = true
	case "os.Exit":
		r.buf.replace(r.off(sel.Pos()), r.off(sel.End()), "_dvg.OsExit")
		r.trailers["var _ = "+pn.Name()+".Exit"] = true
	case "runtime/pprof.StartCPUProfile", "runtime/pprof.StopCPUProfile":
		// One CPU profiler per process: the program's shares divergo's
		// (runtime/cpuprofile.go).
		r.buf.replace(r.off(sel.Pos()), r.off(sel.End()), "_dvg."+fn.Name())
		r.trailers["var _ = "+pn.Name()+"."+fn.Name()] = true
	case "testing/synctest.Test":
		// Goroutines of a bubble must not wait on divergo's own (its
		// writer, its mutexes): nothing starts recording while it runs.
		r.buf.insert(r.off(call.Fun.Pos()), 0, "_dvg.Synctest(")
		r.buf.replace(r.off(call.Fun.End()), r.off(call.Lparen)+1, ", ")
	}
}

// selectStmt records the begin of a select and, first in each case, its
// end, with the clause chosen; the cases' communications stay as they are
// (the runtime cannot wrap them without changing which case is chosen).
// Where it can (forceArgs), it also lets a replay force the clause the
// recorded run chose (runtime/selforce.go): SelectForce, called only when
// the replay has a clause to force, makes the communication, and each
// channel operand goes through Case, which returns it unchanged otherwise.
func (r *rewriter) selectStmt(s *ast.SelectStmt) {
	site, ok := "", false
	if len(s.Body.List) > 0 {
		// The site is at the select keyword; its block is the one that
		// evaluates the communications (internal/syncop).
		site, ok = r.site(s.Pos(), "select")
	}
	if ok {
		hoisted := r.hoistCases(s)
		begin := "_dvg_t = _dvg_r.SelectBegin(" + site + "); "
		force := r.forceArgs(s, hoisted)
		if force != "" {
			begin += "if _dvg_r.Forcing() { _dvg_r.SelectForce(" + force + ") }; "
		}
		r.buf.insert(r.off(r.stmtStart(s.Pos())), prioSelect, begin)
		for i, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			end := fmt.Sprintf("_dvg_r.SelectEnd(%s, _dvg_t, %d); ", site, i)
			ch, sends, _ := commOf(cc)
			if ch != nil && hoisted[ch] != "" {
				end = fmt.Sprintf("_dvg.SelectEndOn(_dvg_r, %s, _dvg_t, %s, %t, %d); ", site, hoisted[ch], sends, i)
			} else if ch, sends, ok := r.caseChan(cc); ok {
				end = fmt.Sprintf("_dvg.SelectEndOn(_dvg_r, %s, _dvg_t, %s, %t, %d); ", site, r.text(ch), sends, i)
			}
			r.buf.insert(r.off(cc.Colon)+1, prioSelectEnd, end)
			if force != "" && ch != nil {
				r.buf.insert(r.off(ch.Pos()), prioSelect, fmt.Sprintf("_dvg.Case(_dvg_r, %d, ", i))
				r.buf.insert(r.off(ch.End()), prioSelect, ")")
			}
		}
	}
	r.push(s)
	r.push(s.Body)
	for _, c := range s.Body.List {
		cc := c.(*ast.CommClause)
		r.push(cc)
		for _, st := range cc.Body {
			r.walk(st)
		}
		r.pop()
	}
	r.pop()
	r.pop()
}

// caseChan returns the channel a select case communicates on and whether
// it sends, when the case's body can evaluate the channel expression again
// and get the same channel: the expression is pure and the case does not
// assign or redeclare a variable it uses (case ch = <-ch). Then the select
// event names the channel, and with it the select's releaser.
func (r *rewriter) caseChan(cc *ast.CommClause) (ch ast.Expr, sends, ok bool) {
	ch, sends, lhs := commOf(cc)
	// The expression is copied as written: one that spans lines or holds a
	// comment would shift the lines after it in the generated file.
	if ch == nil || !r.pure(ch, true) || strings.ContainsAny(r.text(ch), "\n/") {
		return nil, false, false
	}
	// Names on the left: by object when assigned, by name when declared
	// (the declaration shadows them in the body).
	objs, names := map[types.Object]bool{}, map[string]bool{}
	for _, e := range lhs {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, isID := n.(*ast.Ident); isID {
				names[id.Name] = true
				if o := r.info.ObjectOf(id); o != nil {
					objs[o] = true
				}
			}
			return true
		})
	}
	ok = true
	ast.Inspect(ch, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID && (objs[r.info.ObjectOf(id)] || names[id.Name]) {
			ok = false
		}
		return ok
	})
	return ch, sends, ok
}

// forceArgs returns the arguments of SelectForce for s, one case per
// clause in source order, or "" when the select is left to Go's choice:
// fewer than two clauses (nothing to choose), more than a select event can
// name (trace.MaxCase), or a channel operand or send value that can be
// neither named (hoistCases) nor evaluated again as written (pure, on one
// line, without a comment), or a send value SelSend could not type
// (sendsElem). The operands are evaluated by the call and again by the
// select: that changes nothing for pure ones.
func (r *rewriter) forceArgs(s *ast.SelectStmt, hoisted map[ast.Expr]string) string {
	if len(s.Body.List) < 2 || len(s.Body.List) > trace.MaxCase {
		return ""
	}
	again := func(e ast.Expr) (string, bool) {
		if name := hoisted[e]; name != "" {
			return name, true
		}
		if tv, ok := r.info.Types[e]; ok && tv.Value != nil || r.pure(e, true) {
			if text := r.text(e); !strings.ContainsAny(text, "\n/") {
				return text, true
			}
		}
		return "", false
	}
	var args []string
	for _, c := range s.Body.List {
		cc := c.(*ast.CommClause)
		ch, sends, _ := commOf(cc)
		if ch == nil {
			args = append(args, "_dvg.SelDefault()")
			continue
		}
		chText, ok := again(ch)
		if !ok {
			return ""
		}
		if !sends {
			args = append(args, "_dvg.SelRecv("+chText+")")
			continue
		}
		v := cc.Comm.(*ast.SendStmt).Value
		vText, ok := again(v)
		if !ok || !r.sendsElem(ch, v) {
			return ""
		}
		args = append(args, "_dvg.SelSend("+chText+", "+vText+")")
	}
	return strings.Join(args, ", ")
}

// sendsElem reports whether SelSend can infer its element type from the
// channel alone: the value sent is a constant, nil, or of the channel's
// element type itself. A value only assignable to it (a *PathError sent
// on a chan error) would give the inference two types.
func (r *rewriter) sendsElem(ch, v ast.Expr) bool {
	tv, ok := r.info.Types[v]
	if !ok {
		return false
	}
	if tv.Value != nil || tv.IsNil() {
		return true
	}
	c, isChan := r.info.TypeOf(ch).Underlying().(*types.Chan)
	return isChan && types.Identical(tv.Type, c.Elem())
}

// commOf returns the channel operand of a select case's communication,
// whether it sends, and the expressions a receive assigns to; nil for the
// default case.
func commOf(cc *ast.CommClause) (ch ast.Expr, sends bool, lhs []ast.Expr) {
	switch c := cc.Comm.(type) {
	case *ast.SendStmt:
		return c.Chan, true, nil
	case *ast.ExprStmt:
		if u, isRecv := ast.Unparen(c.X).(*ast.UnaryExpr); isRecv && u.Op == token.ARROW {
			return u.X, false, nil
		}
	case *ast.AssignStmt:
		if u, isRecv := ast.Unparen(c.Rhs[0]).(*ast.UnaryExpr); isRecv && u.Op == token.ARROW {
			return u.X, false, c.Lhs
		}
	}
	return nil, false, nil
}

// hoistCases evaluates the channel operands and send values of a select's
// cases into variables just before it, in a block around it, when a case's
// channel is an expression its end record could not evaluate again (a
// call: case <-ctx.Done()). The spec evaluates exactly these expressions
// exactly once, in source order, on entering the select, so evaluating
// them in that order just before it changes nothing; the select's end then
// names the case's channel, and with it its releaser. It returns the name
// given to each channel operand, nil when nothing is hoisted: a labeled
// select (a block would take its label's place for break and continue), an
// expression over several lines, with a comment or a function literal (it
// is copied as written), or a send value whose type its context gives
// (typedAlone).
func (r *rewriter) hoistCases(s *ast.SelectStmt) map[ast.Expr]string {
	if r.stmtStart(s.Pos()) != s.Pos() {
		return nil
	}
	var exprs []ast.Expr
	need := false
	for _, c := range s.Body.List {
		cc := c.(*ast.CommClause)
		ch, sends, _ := commOf(cc)
		if ch == nil {
			continue
		}
		exprs = append(exprs, ch)
		need = need || !r.pure(ch, true)
		if sends {
			v := cc.Comm.(*ast.SendStmt).Value
			tv, ok := r.info.Types[v]
			switch {
			case !ok:
				return nil
			case tv.Value != nil:
				// A constant: nothing to evaluate, and its type comes
				// from the channel.
			case tv.IsNil() || !typedAlone(v):
				return nil
			default:
				exprs = append(exprs, v)
			}
		}
	}
	if !need {
		return nil
	}
	for _, e := range exprs {
		if strings.ContainsAny(r.text(e), "\n/") || containsFuncLit(e) {
			return nil
		}
	}
	names := make(map[ast.Expr]string, len(exprs))
	var decl strings.Builder
	decl.WriteString("{ ")
	for i, e := range exprs {
		name := fmt.Sprintf("_dvg_s%d", i)
		names[e] = name
		fmt.Fprintf(&decl, "%s := %s; ", name, r.text(e))
		r.buf.replace(r.off(e.Pos()), r.off(e.End()), name)
	}
	r.buf.insert(r.off(s.Pos()), prioHoist, decl.String())
	r.buf.insert(r.off(s.End()), prioHoistEnd, " }")
	return names
}

// typedAlone reports whether e has the same type on its own as where it
// stands: not an expression whose type its context gives (a comparison or
// a logical operator, bool or a named boolean; a shift of an untyped
// constant, int or the channel's element type). A variable declared from
// such a value would take the default type and might not fit the channel.
func typedAlone(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr, *ast.IndexExpr, *ast.IndexListExpr,
		*ast.StarExpr, *ast.CompositeLit, *ast.SliceExpr, *ast.TypeAssertExpr:
		return true
	case *ast.UnaryExpr:
		return e.Op == token.AND
	}
	return false
}

// containsFuncLit reports whether e holds a function literal, whose body
// the rewriter instruments in place.
func containsFuncLit(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		_, isLit := n.(*ast.FuncLit)
		found = found || isLit
		return !found
	})
	return found
}

// rangeStmt records the key of each iteration of a range over a map, first
// in the body: the iteration order is the outcome of a maprange TCP.
func (r *rewriter) rangeStmt(s *ast.RangeStmt) {
	t := r.info.TypeOf(s.X)
	if t == nil {
		return
	}
	switch u := t.Underlying().(type) {
	case *types.Chan:
		r.rangeChan(s)
	case *types.Map:
		key := ""
		switch k := s.Key.(type) {
		case nil:
			r.buf.insert(r.off(s.Range), 0, "_dvg_k := ")
			key = "_dvg_k"
		case *ast.Ident:
			switch {
			case k.Name != "_":
				key = k.Name
			case s.Tok == token.DEFINE:
				r.buf.replace(r.off(k.Pos()), r.off(k.End()), "_dvg_k")
				key = "_dvg_k"
			}
		}
		if key == "" {
			r.warn(s.Pos(), "range over a map assigning its key to an expression: iteration order not recorded")
			return
		}
		r.buf.insert(r.off(s.Body.Lbrace)+1, prioOutcome, r.outcome(u.Key(), key)+"; ")
	}
}

// outcome is the statement that records the outcome of a value of type t
// written as expr: integers are their own outcome, strings are hashed by
// the runtime (OutcomeString), other types by the package's glue (the
// same value, or the same object by its identity, hashes the same in
// every run).
func (r *rewriter) outcome(t types.Type, expr string) string {
	if b, ok := t.Underlying().(*types.Basic); ok {
		switch {
		case b.Kind() == types.Uintptr:
			// An address, as often as not: by its identity (below).
		case b.Info()&types.IsInteger != 0:
			return "_dvg_r.Outcome(uint64(" + expr + "))"
		case b.Info()&types.IsString != 0:
			// Direct, without the generic hash's reflection: string keys
			// are the common case of map ranges.
			return "_dvg_r.OutcomeString(string(" + expr + "))"
		}
	}
	r.res.needHash = true
	return "_dvg_r.Outcome(_dvg_hash(_dvg_r, " + expr + "))"
}

// indexOutcome records the index value of an index TCP just before the
// statement that holds it. The index is evaluated a second time there, so
// this is done only when that is safe: the expression has no side effect,
// cannot panic, and its variables are declared before the statement. An
// index that is a counting range loop's key is not recorded: the loop's
// path already says it (rangeCounter).
func (r *rewriter) indexOutcome(ix *ast.IndexExpr) {
	if r.rangeCounter(ix.Index) {
		return
	}
	var stmt ast.Stmt
	child := ast.Node(ix)
	conditional := false
	for i := len(r.stack) - 1; i >= 0; i-- {
		p := r.stack[i]
		if f, ok := p.(*ast.ForStmt); ok && (child == f.Cond || child == f.Post) {
			r.warn(ix.Pos(), "index TCP in a loop condition or post statement: index value not recorded")
			return
		}
		if b, ok := p.(*ast.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) && child == b.Y {
			conditional = true
		}
		switch p.(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			if s, ok := child.(ast.Stmt); ok && !isClause(child) {
				stmt = s
			}
		}
		if stmt != nil {
			break
		}
		child = p
	}
	if stmt == nil {
		r.warn(ix.Pos(), "index TCP outside a statement list: index value not recorded")
		return
	}
	if !r.pure(ix.Index, !conditional) || !r.movable(ix.Index) || !r.declaredBefore(ix.Index, stmt.Pos()) {
		r.warn(ix.Pos(), "index TCP with an index that cannot be evaluated again safely: index value not recorded")
		return
	}
	t := r.info.TypeOf(ix.Index)
	if t == nil {
		return
	}
	r.buf.insert(r.off(r.stmtStart(stmt.Pos())), prioOutcome, r.outcome(t, r.text(ix.Index))+"; ")
}

func isClause(n ast.Node) bool {
	switch n.(type) {
	case *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

// pure reports whether e can be evaluated early and a second time without
// a side effect. Strictly, it must not panic either. A lenient e may: it
// is evaluated unconditionally by its statement anyway (not on the right
// of && or ||), so a panic would only come a little earlier.
func (r *rewriter) pure(e ast.Expr, lenient bool) bool {
	switch e := e.(type) {
	case *ast.Ident:
		switch r.info.Uses[e].(type) {
		case *types.Var, *types.Const, *types.Nil:
			return true
		}
		return false
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return r.pure(e.X, lenient)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.XOR, token.NOT:
			return r.pure(e.X, lenient)
		}
		return false
	case *ast.StarExpr:
		return lenient && r.pure(e.X, lenient)
	case *ast.IndexExpr:
		return lenient && r.pure(e.X, lenient) && r.pure(e.Index, lenient)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.QUO, token.REM, token.SHL, token.SHR:
			if tv, ok := r.info.Types[e.Y]; !lenient && (!ok || tv.Value == nil || tv.Value.String() == "0") {
				return false // a division by zero or a negative shift would panic early
			}
		}
		return r.pure(e.X, lenient) && r.pure(e.Y, lenient)
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok {
			if _, ok := r.info.Uses[id].(*types.PkgName); ok {
				_, isVar := r.info.Uses[e.Sel].(*types.Var)
				_, isConst := r.info.Uses[e.Sel].(*types.Const)
				return isVar || isConst
			}
		}
		s := r.info.Selections[e]
		return s != nil && s.Kind() == types.FieldVal && (lenient || !s.Indirect()) && r.pure(e.X, lenient)
	case *ast.CallExpr:
		// A conversion to a basic type: int(x), uint64(x).
		if tv, ok := r.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			if _, basic := tv.Type.Underlying().(*types.Basic); basic {
				return r.pure(e.Args[0], lenient)
			}
		}
		// len and cap never panic nor change anything.
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && len(e.Args) == 1 {
			if b, ok := r.info.Uses[id].(*types.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") {
				return r.pure(e.Args[0], lenient)
			}
		}
	}
	return false
}

// declaredBefore reports whether every local variable e uses is declared
// before pos, so that e means the same just before the statement at pos.
func (r *rewriter) declaredBefore(e ast.Expr, pos token.Pos) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID {
			return true
		}
		v, isVar := r.info.Uses[id].(*types.Var)
		if isVar && v.Parent() != nil && v.Parent() != r.pkg.Scope() && v.Pos() >= pos {
			ok = false
		}
		return true
	})
	return ok
}

// rangeChan turns a range over a channel into a loop of recorded receives,
// keeping the body in a block of its own so that it can still redeclare
// the iteration variable:
//
//	for v := range ch { body }
//	for _dvg_rc := ch; ; { v, _dvg_ok := _dvg.Recv2(_dvg_r, 5, _dvg_rc); if !_dvg_ok { break }; { body } }
//
// An existing variable (for v = range ch) is assigned after the check, as
// v = _dvg_rv, so that it keeps the last value received when the loop ends.
//
// Labels, break and continue keep their meaning; the body's probe stays
// after its '{'. A channel expression over several lines puts the receive
// back on the range's line with a line directive.
func (r *rewriter) rangeChan(s *ast.RangeStmt) {
	switch s.Key.(type) {
	case nil, *ast.Ident:
	default:
		r.warn(s.Pos(), "range over a channel assigning to an expression: its receives are not recorded")
		return
	}
	site, ok := r.site(s.X.Pos(), "recv")
	if !ok {
		return
	}
	recv := "_dvg.Recv2(_dvg_r, " + site + ", _dvg_rc)"
	var assign, after string
	switch k := s.Key.(type) {
	case nil:
		assign = "_, _dvg_ok := "
	case *ast.Ident:
		if s.Tok == token.DEFINE {
			assign = k.Name + ", _dvg_ok := "
		} else {
			// An existing variable takes the value only once the receive
			// got one: a receive from the closed channel that ends the
			// loop gives the zero value, and plain Go leaves the variable
			// holding the last value received.
			assign = "_dvg_rv, _dvg_ok := "
			after = k.Name + " = _dvg_rv; "
		}
	}
	// range evaluates its channel once: so must the loop that replaces it
	// (for v := range merge(a, b) would call merge at every receive).
	r.buf.replace(r.off(s.For)+len("for"), r.off(s.X.Pos()), " _dvg_rc := ")
	head := "; ; { " + assign + recv + "; if !_dvg_ok { break }; " + after + "{"
	if at, lb := r.fset.Position(s.X.Pos()), r.fset.Position(s.Body.Lbrace); at.Line != lb.Line {
		// The receive goes after the '{', on a later line than the
		// range when its channel expression takes several: a line
		// directive gives it the range's line, which the plain program's
		// stack traces name and the wait's site names (Go's execution
		// tracer and panics named the brace's line), and one before the
		// body's brace takes the rest back to where it is.
		name := r.tf.Name()
		head = fmt.Sprintf("; ; { /*line %s:%d:%d*/%s%s; if !_dvg_ok { break }; %s/*line %s:%d:%d*/{", name, at.Line, at.Column, assign, recv, after, name, lb.Line, lb.Column)
	}
	r.buf.replace(r.off(s.X.End()), r.off(s.Body.Lbrace)+1, head)
	r.buf.insert(r.off(s.Body.Rbrace)+1, -r.depth, " }")
}

// wrappedType reports whether the type of method m ("Mutex.Lock") is one
// whose operations the runtime records, so that a method left out is worth
// a warning.
func wrappedType(m string) bool {
	for _, t := range []string{"Mutex.", "RWMutex.", "WaitGroup.", "Cond.", "Once."} {
		if strings.HasPrefix(m, t) {
			return true
		}
	}
	return false
}
