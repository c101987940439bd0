package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Insertion priorities at one offset: a function's entry before a select
// case's end, before a block probe, before an outcome, before a select's
// begin, before the rewrites of the statement itself (which use their AST
// depth: outer openers first, inner closers first).
const (
	prioStart      = -4000 // a spawned function literal's Start/Done
	prioEnter      = -3000
	prioSelectEnd  = -2000
	prioProbe      = -1000
	prioOutcome    = -950
	prioHoist      = -920 // a select's hoisted case operands, before its begin
	prioSelect     = -900
	prioHoistEnd   = 4000  // the block around a select with hoisted operands
	prioAfter      = 5000  // probes after a statement, after its closers
	prioPackEnd    = 4999  // a packed loop's last word, before the probe after the loop
	prioPackOpen   = 100   // the loop around a packed loop, after the probe before it
	prioPackCheck  = -1100 // a packed loop's test for room, before its body's probe
	prioPackAssign = -1050 // a packed range's key and value, after the test for room
	prioPackOut    = -990  // a packed loop's word before a return or branch out, after the probe of its block
)

// fileJob is one file to rewrite.
type fileJob struct {
	fset  *token.FileSet
	file  *ast.File
	src   []byte
	info  *types.Info
	pkg   *types.Package
	funcs map[ast.Node]*Func
	// recorder is the import path of the recorder the copy calls.
	recorder string
}

// fileResult is a rewritten file.
type fileResult struct {
	src      []byte   // the new source, without the header
	changed  bool     // the file calls the runtime
	needHash bool     // the file calls _dvg_hash (emitted in the package's glue file)
	warnings []string // constructs left uninstrumented, "file:line: why"
}

type rewriter struct {
	fileJob
	buf      *editBuffer
	tf       *token.File
	fn       *Func // function being rewritten; nil outside planned functions
	depth    int
	stack    []ast.Node
	labels   map[token.Pos]token.Pos // statement start -> start of the label in front of it
	commaOK  map[*ast.UnaryExpr]bool
	called   map[*ast.SelectorExpr]bool // selectors in call position, for methodValue
	indexes  map[token.Pos]bool         // positions of index TCPs in the current function
	handed   map[ast.Node]bool          // function literals numbered by handoffArgs
	trailers map[string]bool            // "var _ = os.Exit" lines keeping imports used
	res      fileResult
}

// rewriteFile applies the plan to one file.
func rewriteFile(j fileJob) (*fileResult, error) {
	r := &rewriter{
		fileJob:  j,
		buf:      newEditBuffer(j.src),
		tf:       j.fset.File(j.file.Pos()),
		labels:   map[token.Pos]token.Pos{},
		commaOK:  map[*ast.UnaryExpr]bool{},
		called:   map[*ast.SelectorExpr]bool{},
		trailers: map[string]bool{},
	}
	if r.tf == nil {
		return nil, fmt.Errorf("file of %s not in the file set", j.file.Name.Name)
	}
	ast.Inspect(j.file, func(n ast.Node) bool {
		if l, ok := n.(*ast.LabeledStmt); ok {
			r.labels[l.Stmt.Pos()] = l.Pos()
		}
		return true
	})
	for _, d := range j.file.Decls {
		r.walk(d)
	}
	if r.res.changed {
		// The import goes on the package clause's line so that no line moves.
		r.buf.insert(r.off(j.file.Name.End()), 0, `; import _dvg "`+j.recorder+`"`)
		var tr []string
		for t := range r.trailers {
			tr = append(tr, t)
		}
		sortStrings(tr)
		if len(tr) > 0 {
			r.buf.insert(len(j.src), 0, "\n"+strings.Join(tr, "\n")+"\n")
		}
	}
	out, err := r.buf.bytes()
	if err != nil {
		return nil, fmt.Errorf("rewriting %s: %w", r.tf.Name(), err)
	}
	r.res.src = out
	return &r.res, nil
}

func (r *rewriter) off(p token.Pos) int { return r.tf.Offset(p) }

func (r *rewriter) text(n ast.Node) string { return string(r.src[r.off(n.Pos()):r.off(n.End())]) }

func (r *rewriter) warn(p token.Pos, format string, args ...any) {
	pos := r.fset.Position(p)
	r.res.warnings = append(r.res.warnings, fmt.Sprintf("%s:%d: %s", pos.Filename, pos.Line, fmt.Sprintf(format, args...)))
}

// stmtStart is where to insert in front of the statement at p: before any
// labels, so that a label keeps naming its statement.
func (r *rewriter) stmtStart(p token.Pos) token.Pos {
	for {
		l, ok := r.labels[p]
		if !ok {
			return p
		}
		p = l
	}
}

// site is the id of the graph's site for operation op at p, as a literal.
// An operation the graph does not list (the rewriter and internal/syncop
// disagree, which the tests guard against) is left as it is, with a
// warning: its events would name no statement.
func (r *rewriter) site(p token.Pos, op string) (string, bool) {
	id, ok := r.fn.Sites[SiteKey{p, op}]
	if !ok {
		r.warn(p, "%s not recorded: the graph has no site for it", op)
		return "", false
	}
	return fmt.Sprint(id), true
}

func (r *rewriter) walk(n ast.Node) {
	if n == nil {
		return
	}
	ast.Inspect(n, r.visit)
}

// visit rewrites what n holds and says whether ast.Inspect should descend.
// Nodes with rules of their own walk their children themselves and return
// false.
func (r *rewriter) visit(n ast.Node) bool {
	if n == nil {
		r.depth--
		r.stack = r.stack[:len(r.stack)-1]
		return true
	}
	switch n := n.(type) {
	case *ast.FuncDecl:
		if n.Body != nil {
			r.function(n, n.Body)
		}
		return false
	case *ast.FuncLit:
		r.function(n, n.Body)
		return false
	}
	if r.fn != nil {
		if !r.operation(n) {
			return false
		}
	}
	r.depth++
	r.stack = append(r.stack, n)
	return true
}

// function rewrites one function body with its own plan: a function
// literal is a function of its own, with its own entry and recorder.
func (r *rewriter) function(node ast.Node, body *ast.BlockStmt) {
	saved, savedIdx := r.fn, r.indexes
	r.fn = r.funcs[node]
	r.indexes = nil
	if r.fn != nil {
		r.enter(body)
	}
	if ft := funcType(node); ft != nil {
		r.walk(ft)
	}
	r.walkChildren(body)
	r.fn, r.indexes = saved, savedIdx
}

func funcType(n ast.Node) *ast.FuncType {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return n.Type
	case *ast.FuncLit:
		return n.Type
	}
	return nil
}

// testParam is the name of the *testing.T parameter of a function of a
// test file (a test, a subtest's function literal, a helper), or "": testing
// runs tests and subtests on goroutines of its own, which TestEnter makes
// roots named by the test. A parameter named _, or not named in a
// function of that one parameter, is blankTestParam: nameTestParam names
// it so in the instrumented copy, since a test that does not use its
// *testing.T (func TestNil(_ *testing.T)) runs on a goroutine of its own
// all the same, and without TestEnter the trace named no test for it.
func (r *rewriter) testParam(n ast.Node) string {
	name, _ := r.testField(n)
	return name
}

// blankTestParam is the name a blank or unnamed *testing.T parameter
// takes in the instrumented copy.
const blankTestParam = "_dvg_tt"

// testField is testParam's answer and the parameter's field.
func (r *rewriter) testField(n ast.Node) (string, *ast.Field) {
	if !strings.HasSuffix(r.tf.Name(), "_test.go") {
		return "", nil
	}
	ft := funcType(n)
	if ft == nil || ft.Params == nil {
		return "", nil
	}
	for _, field := range ft.Params.List {
		if !isTestingT(r.info.TypeOf(field.Type)) {
			continue
		}
		for _, name := range field.Names {
			if name.Name != "_" {
				return name.Name, field
			}
		}
		if len(field.Names) == 1 || len(field.Names) == 0 && len(ft.Params.List) == 1 {
			return blankTestParam, field
		}
	}
	return "", nil
}

// nameTestParam gives a blank or unnamed *testing.T parameter of n the
// name blankTestParam, for TestEnter.
func (r *rewriter) nameTestParam(n ast.Node) {
	name, field := r.testField(n)
	if name != blankTestParam {
		return
	}
	if len(field.Names) == 0 {
		r.buf.insert(r.off(field.Type.Pos()), prioEnter, blankTestParam+" ")
		return
	}
	r.buf.replace(r.off(field.Names[0].Pos()), r.off(field.Names[0].End()), blankTestParam)
}

// isTestMain says whether n is the TestMain of a test file: the test
// binary's main, whose return ends the tests (Go 1.15 allows it to return
// instead of calling os.Exit).
func (r *rewriter) isTestMain(n ast.Node) bool {
	d, ok := n.(*ast.FuncDecl)
	if !ok || d.Recv != nil || d.Name.Name != "TestMain" || !strings.HasSuffix(r.tf.Name(), "_test.go") {
		return false
	}
	ps := d.Type.Params.List
	if len(ps) != 1 {
		return false
	}
	p, ok := r.info.TypeOf(ps[0].Type).(*types.Pointer)
	if !ok {
		return false
	}
	nt, ok := p.Elem().(*types.Named)
	return ok && nt.Obj().Name() == "M" && nt.Obj().Pkg() != nil && nt.Obj().Pkg().Path() == "testing"
}

// isTestingT says whether t is *testing.T.
func isTestingT(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Name() == "T" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing"
}

// walkChildren walks the statements of a block (not the block itself, so
// that visit's bookkeeping stays balanced when called from a rule).
func (r *rewriter) walkChildren(b *ast.BlockStmt) {
	r.depth++
	r.stack = append(r.stack, b)
	for _, s := range b.List {
		r.walk(s)
	}
	r.depth--
	r.stack = r.stack[:len(r.stack)-1]
}

// enter inserts the function's entry and the probes of its blocks.
func (r *rewriter) enter(body *ast.BlockStmt) {
	f := r.fn
	r.res.changed = true
	r.offCopy(f.Node, body)
	var b strings.Builder
	switch t := r.testParam(f.Node); {
	case f.Main:
		fmt.Fprintf(&b, "_dvg_r := _dvg.Main(_dvg_graph, %d); defer _dvg_r.Exit(%d); ", f.Entry, f.Entry)
	case t != "":
		r.nameTestParam(f.Node)
		fmt.Fprintf(&b, "_dvg_r := _dvg.TestEnter(%s, %d); defer _dvg_r.TestExit(%d); ", t, f.Entry, f.Entry)
	case r.isTestMain(f.Node):
		fmt.Fprintf(&b, "_dvg_r := _dvg.EnterTestMain(%d); defer _dvg_r.Exit(%d); ", f.Entry, f.Entry)
	case r.handed[f.Node]:
		fmt.Fprintf(&b, "_dvg_r := _dvg.EnterFrom(_dvg_h, %d); defer _dvg_r.Exit(%d); ", f.Entry, f.Entry)
	default:
		fmt.Fprintf(&b, "_dvg_r := _dvg.Enter(%d); defer _dvg_r.Exit(%d); ", f.Entry, f.Entry)
	}
	if hasSelect(body) {
		b.WriteString("var _dvg_t int64; ")
	}
	r.packVars(&b)
	r.buf.insert(r.off(body.Lbrace)+1, prioEnter, b.String())
	for _, blk := range f.Blocks {
		for _, ix := range blk.Indexes {
			if r.indexes == nil {
				r.indexes = map[token.Pos]bool{}
			}
			r.indexes[ix] = true
		}
		if blk.ID == f.Entry || blk.Mode == Implied {
			continue // Enter records the entry block
		}
		probe := fmt.Sprintf("_dvg_r.B(%d)", blk.ID)
		if blk.Pack != nil {
			probe = packProbe(blk)
		}
		switch blk.Mode {
		case Before:
			// Not moved before a label: flow puts a labeled statement's
			// probe after its label on purpose, so that goto passes it.
			r.buf.insert(r.off(blk.Pos), prioProbe, probe+"; ")
		case After:
			r.buf.insert(r.off(blk.Pos), prioAfter, "; "+probe)
		case Open:
			r.buf.insert(r.off(blk.Pos)+1, prioProbe, probe+"; ")
		}
	}
}

// packVars declares the codes and count of the function's packed loops
// and rewrites each loop so that its word is written outside it.
func (r *rewriter) packVars(b *strings.Builder) {
	f := r.fn
	if len(f.Loops) == 0 {
		return
	}
	b.WriteString("var _dvg_n uint64; ")
	for _, l := range f.Loops {
		if l.Bits > 0 {
			b.WriteString("var _dvg_pk uint64; var _dvg_more bool; ")
			break
		}
	}
	for _, l := range f.Loops {
		r.packLoop(l)
	}
}

// packLoop rewrites a packed loop. A call inside a loop, even on a path
// that rarely runs, makes the compiler store the loop's variables to the
// stack on every iteration, at the loop's head, and a tight loop then
// runs at half speed. So the probes only shift their codes into the word
// and count them, and the word is written by a loop around the loop: at
// the top of an iteration, when the word has room for fewer than one more
// iteration's probes, the loop breaks out, the word is written, and the
// loop goes on (its condition is evaluated again: it is quiet, so this
// reads what it read). The init statement moves out, into a block of its
// own around both loops:
//
//	for i := 0; i < n; i++ { body }
//
// becomes
//
//	{i := 0; for { for ; i < n; i++ {if _dvg_n > L {_dvg_more = true; break}; body}; write; if !_dvg_more {break}; _dvg_more = false}}
//
// A loop of one probed block only counts it: the count cannot overflow,
// and the loop is left alone but for the write after it, by PackCount.
func (r *rewriter) packLoop(l Loop) {
	var body *ast.BlockStmt
	switch s := l.Stmt.(type) {
	case *ast.ForStmt:
		body = s.Body
	case *ast.RangeStmt:
		body = s.Body
	}
	write := fmt.Sprintf("if _dvg_n > 1 {_dvg_r.PackWord(%d, _dvg_pk, _dvg_n)} else if _dvg_n != 0 {_dvg_r.B(%s)}; _dvg_pk, _dvg_n = 0, 0", l.Head, codeID(l.IDs, "_dvg_pk"))
	if l.Bits == 0 {
		// A count of any size, once per exit (PackWord takes at most 64).
		write = fmt.Sprintf("if _dvg_n != 0 {_dvg_r.PackCount(%d, %d, _dvg_n); _dvg_n = 0}", l.Head, l.IDs[0])
	}
	for _, out := range waysOut(body) {
		r.buf.insert(r.off(out.Pos()), prioPackOut, write+"; ")
	}
	end := r.off(l.Stmt.End())
	if l.Bits == 0 {
		r.buf.insert(end, prioPackEnd, "; "+write)
		return
	}
	switch s := l.Stmt.(type) {
	case *ast.ForStmt:
		open := "{for { "
		if s.Init != nil {
			open = "{" + string(r.src[r.off(s.Init.Pos()):r.off(s.Init.End())]) + "; for { "
			r.buf.replace(r.off(s.Init.Pos()), r.off(s.Init.End()), "")
		}
		r.buf.insert(r.off(s.For), prioPackOpen, open)
	case *ast.RangeStmt:
		r.rangeAsIndex(s)
	}
	limit := int(64/l.Bits) - l.PerIter
	r.buf.insert(r.off(body.Lbrace)+1, prioPackCheck, fmt.Sprintf("if _dvg_n > %d {_dvg_more = true; break}; ", limit))
	r.buf.insert(end, prioPackEnd, "; "+write+"; if !_dvg_more {break}; _dvg_more = false}}")
}

// rangeAsIndex turns the range loop s, over a slice, a pointer to an array
// or an integer (flow's packLoops asked the oracle), into a for loop over
// an index that packLoop can leave and enter again: a range cannot be
// resumed where it broke off. The operand is evaluated once, before the
// loop, as the range evaluates it; the key and value are assigned first in
// the body, each iteration, from the index:
//
//	for k, v := range x { body }
//
// becomes (packLoop adds the loop around and the test for room)
//
//	{_dvg_x := x; _dvg_i := 0; for { for ; _dvg_i < len(_dvg_x); _dvg_i++ {k, v := _dvg_i, _dvg_x[_dvg_i]; body}; ...}}
//
// Over an integer the index starts as the operand's type (the key's) and
// runs below it. The loop makes no closure and takes no address, so that
// the body sharing its key and value over iterations cannot be seen; flow
// keeps a body that declares them again out (its block would hold both).
func (r *rewriter) rangeAsIndex(s *ast.RangeStmt) {
	r.buf.replace(r.off(s.For), r.off(s.X.Pos()), "{_dvg_x := ")
	start, bound, elem := "_dvg_i := 0", "len(_dvg_x)", "_dvg_x[_dvg_i]"
	if t, ok := r.info.TypeOf(s.X).Underlying().(*types.Basic); ok && t.Info()&types.IsInteger != 0 {
		start, bound, elem = "_dvg_i := _dvg_x; _dvg_i = 0", "_dvg_x", ""
	}
	r.buf.insert(r.off(s.X.End()), prioPackOpen, "; "+start+"; for { for ; _dvg_i < "+bound+"; _dvg_i++ ")
	var lhs, rhs []string
	for i, e := range []ast.Expr{s.Key, s.Value} {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			lhs = append(lhs, id.Name)
			rhs = append(rhs, []string{"_dvg_i", elem}[i])
		}
	}
	if len(lhs) > 0 {
		r.buf.insert(r.off(s.Body.Lbrace)+1, prioPackAssign, fmt.Sprintf("%s %s %s; ", strings.Join(lhs, ", "), s.Tok, strings.Join(rhs, ", ")))
	}
}

// codeID is the expression of the id of the block whose code is code, of
// the loop whose probed blocks' ids are ids. A loop that leaves after one
// probe (a search that finds at once, fannkuch's next permutation, which
// breaks after one iteration most of the time) then writes the probe's
// own block event, a word and a byte of trace, where a word of one code
// took four words and five bytes (PERFORMANCE.md, "Recording compute").
func codeID(ids []uint32, code string) string {
	consecutive := true
	for i, id := range ids {
		consecutive = consecutive && id == ids[0]+uint32(i)
	}
	if consecutive {
		return fmt.Sprintf("%d + uint32(%s)", ids[0], code)
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return fmt.Sprintf("[...]uint32{%s}[%s]", strings.Join(parts, ", "), code)
}

// waysOut returns the statements that leave the loop s other than by its
// end: returns, and gotos and labeled branches to labels outside it. The
// word is written just before them: outside the loop's cycle, a call
// costs the loop nothing.
func waysOut(s *ast.BlockStmt) []ast.Stmt {
	inside := map[string]bool{}
	ast.Inspect(s, func(n ast.Node) bool {
		if l, ok := n.(*ast.LabeledStmt); ok {
			inside[l.Label.Name] = true
		}
		return true
	})
	var out []ast.Stmt
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			out = append(out, n)
		case *ast.BranchStmt:
			if n.Label != nil && !inside[n.Label.Name] {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// packProbe is the probe of a block of a packed loop: its code shifted
// into the word and counted (packLoop writes the word); a loop of one
// probed block only counts it.
func packProbe(blk Block) string {
	l := blk.Pack
	if l.Bits == 0 {
		return "_dvg_n++"
	}
	if blk.Code == 0 {
		return fmt.Sprintf("_dvg_pk <<= %d; _dvg_n++", l.Bits)
	}
	return fmt.Sprintf("_dvg_pk = _dvg_pk<<%d | %d; _dvg_n++", l.Bits, blk.Code)
}

// hasSelect reports whether body holds a select with cases outside nested
// function literals: the function then needs the _dvg_t variable.
func hasSelect(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			if len(n.Body.List) > 0 {
				found = true
			}
		}
		return !found
	})
	return found
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// hasLineDirective reports whether a file carries //line directives of its
// own: its positions already point elsewhere, and a header of ours would
// not compose with them.
func hasLineDirective(f *ast.File) bool {
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//line ") || strings.HasPrefix(c.Text, "/*line ") {
				return true
			}
		}
	}
	return false
}

// movable reports whether the source of n can be copied elsewhere on its
// line: on one line (lines would move) and with no comment inside (it
// could swallow what follows). Both are read from the token positions, not
// the text: a "//" in a string literal (go Crawl("https://golang.org/",
// ...)) is no comment.
func (r *rewriter) movable(n ast.Node) bool {
	if r.tf.Line(n.Pos()) != r.tf.Line(n.End()) {
		return false
	}
	cs := r.file.Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].End() > n.Pos() })
	return i == len(cs) || cs[i].Pos() >= n.End()
}
