package e2e

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// The line each wait is named at, against Go's execution tracer.
//
// divergo names a wait by its site's statement (trace.SitePos, what
// `divergo wait` prints); the tracer knows where the waiter blocked: its
// stack at the transition to waiting, whose innermost frame in the
// program's own files (past the Go runtime, package sync and divergo's
// wrappers, gotrace.Wake.WaitStack) is the statement that blocked. The
// agreement test joins the two for every wait it finds a tracer block
// for, on the same runs as the releasers: a block the goroutine was woken
// from (gotrace.Trace.Find), or for a wait still open when the trace ended,
// the block the goroutine was in then (gotrace.Trace.Open), whose line
// divergo's list of blocked goroutines names.
//
// Two shapes are named differently on purpose (docs/PERFORMANCE.md, "Wait
// lines against the execution tracer"), and counted as agreeing only when
// the program's source shows them ([lineSources.explain]):
//   - a select of one case and no default: Go's compiler makes it the
//     case's plain channel operation, and Go's stacks name the case's
//     line; divergo names the select, as for every select.
//   - a deferred call: Go's stacks name where the function returned (its
//     closing brace or a return statement), where deferred calls run;
//     divergo names the defer statement, the call the program wrote.

// lineFloor is the share of a program's joined waits whose line must
// agree with the tracer's, the two shapes above counted as agreeing (the
// rest are listed). A statement's line is no matter of timing, and since
// gotrace.Find stopped taking the goroutine's previous block every joined
// wait of every program agreed; the join still is a matter of timing (a
// select whose case's channel is a call that is not hoisted evaluates it
// inside the select's wait, and a block in it is joined when the select
// itself does not park), so the floor leaves room on the programs of
// thousands of waits, and none on the others.
const lineFloor = 0.999

// lineAgreement is the comparison of the lines divergo names waits at with
// the tracer's on one run.
type lineAgreement struct {
	// byOp: per operation, waits compared and agreeing.
	byOp map[string][2]int
	// unended: of those, the waits still blocked when the divergo trace
	// ended (a deadlock, a leak, goroutines left at the end of a run),
	// which divergo lists as blocked goroutines.
	unended [2]int
	// explained: waits named at another line than the tracer's for one of
	// the two reasons above, in words (counted as agreeing).
	explained []string
	// noFrame: waits whose blocked stack has no frame in the program's
	// files, listed.
	noFrame []string
	// wrong: every other disagreement, in words.
	wrong []string
}

func newLineAgreement() lineAgreement { return lineAgreement{byOp: map[string][2]int{}} }

// programFiles tells the frames of the program's own files: dir is the
// module's root, where the instrumented copies' line directives point.
type programFiles struct {
	roots []string
	src   *lineSources
}

// newProgramFiles are the files of the module holding directory dir,
// named as the graph names them: relative to the module's root.
func newProgramFiles(dir string) programFiles {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			dir = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	roots := []string{filepath.Clean(dir) + string(filepath.Separator)}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != filepath.Clean(dir) {
		roots = append(roots, real+string(filepath.Separator))
	}
	return programFiles{roots, &lineSources{dir: dir, fset: token.NewFileSet(), files: map[string]*ast.File{}}}
}

// rel returns file relative to the module's root, in the form of a graph's
// positions (tbb.Pos), and whether it is one of the program's files.
func (pf programFiles) rel(file string) (string, bool) {
	for _, r := range pf.roots {
		if rest, ok := strings.CutPrefix(file, r); ok && !strings.HasPrefix(rest, ".divergo"+string(filepath.Separator)) {
			return filepath.ToSlash(rest), true
		}
	}
	return "", false
}

// waitedAt is the innermost frame of a waiter's stack in the program's
// files, as a position, and the frame.
func (pf programFiles) waitedAt(stack []gotrace.Frame) (tbb.Pos, gotrace.Frame, bool) {
	for _, f := range stack {
		if rel, ok := pf.rel(f.File); ok {
			return tbb.Pos{File: rel, Line: f.Line}, f, true
		}
	}
	return tbb.Pos{}, gotrace.Frame{}, false
}

// check compares the line divergo names wait ev at with the waiter's stack
// when the tracer saw it block; unended: the block had not ended when the
// trace did; where says which wait it is.
func (la *lineAgreement) check(t *testing.T, pf programFiles, g *tbb.Graph, ev trace.Event, stack []gotrace.Frame, unended bool, where string) {
	t.Helper()
	op := ev.Op.String()
	c, u := la.byOp[op], la.unended
	defer func() { la.byOp[op], la.unended = c, u }()
	at, f, ok := pf.waitedAt(stack)
	if !ok {
		la.noFrame = append(la.noFrame, fmt.Sprintf("%s: the tracer's stack has no frame of the program: %v", where, stack))
		return
	}
	c[0]++
	if unended {
		u[0]++
	}
	agree := func() {
		c[1]++
		if unended {
			u[1]++
		}
	}
	named := trace.SitePos(g, ev.Site, ev.Block)
	if named.File == at.File && named.Line == at.Line {
		agree()
		return
	}
	if named.File == at.File {
		if why := pf.src.explain(t, named, at.Line); why != "" {
			agree()
			la.explained = append(la.explained, fmt.Sprintf("%s: divergo names %s, the tracer line %d: %s", where, named.FileLine(), at.Line, why))
			return
		}
	}
	la.wrong = append(la.wrong, fmt.Sprintf("%s: divergo names %s, the tracer %s in %s", where, named.FileLine(), at.FileLine(), f.Func))
}

// lineSources are the program's files, parsed when a disagreement needs
// explaining.
type lineSources struct {
	dir   string
	fset  *token.FileSet
	files map[string]*ast.File
}

// explain says why a wait divergo names at named (its site) is at line
// traced on Go's stacks, when it is one of the two shapes named
// differently on purpose; "" when it is not.
func (ls *lineSources) explain(t *testing.T, named tbb.Pos, traced int) string {
	t.Helper()
	f, ok := ls.files[named.File]
	if !ok {
		var err error
		f, err = parser.ParseFile(ls.fset, filepath.Join(ls.dir, filepath.FromSlash(named.File)), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ls.files[named.File] = f
	}
	e := &explainer{fset: ls.fset, named: named, traced: traced}
	e.walk(f, nil)
	return e.why
}

// explainer looks for the site at named, a one-case select or a deferred
// call, whose wait Go's stacks name at line traced.
type explainer struct {
	fset   *token.FileSet
	named  tbb.Pos
	traced int
	why    string
}

func (e *explainer) line(p token.Pos) int { return e.fset.Position(p).Line }

// at reports whether p is the site's position.
func (e *explainer) at(p token.Pos) bool {
	pos := e.fset.Position(p)
	return pos.Line == e.named.Line && (e.named.Col == 0 || pos.Column == e.named.Col)
}

// walk inspects n, inside the function whose body is body.
func (e *explainer) walk(n ast.Node, body *ast.BlockStmt) {
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.FuncDecl:
			if m.Body != nil {
				e.walk(m.Body, m.Body)
			}
			return false
		case *ast.FuncLit:
			e.walk(m.Body, m.Body)
			return false
		case *ast.SelectStmt:
			if !e.at(m.Select) || len(m.Body.List) != 1 {
				return true
			}
			if cc := m.Body.List[0].(*ast.CommClause); cc.Comm != nil && e.traced >= e.line(cc.Comm.Pos()) && e.traced <= e.line(cc.Comm.End()) {
				e.why = "a select of one case, which Go's compiler makes the case's channel operation"
			}
		case *ast.DeferStmt:
			if e.at(m.Call.Pos()) && body != nil && e.returnsAt(body) {
				e.why = "a deferred call, which runs where the function returns"
			}
		}
		return true
	})
}

// returnsAt reports whether the function of body returns at the traced
// line: its closing brace or one of its own return statements.
func (e *explainer) returnsAt(body *ast.BlockStmt) bool {
	found := e.line(body.Rbrace) == e.traced
	ast.Inspect(body, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.FuncLit:
			return false // another function's returns
		case *ast.ReturnStmt:
			found = found || e.line(m.Pos()) == e.traced
		}
		return true
	})
	return found
}

// add logs one program's line agreement and every disagreement, holds it
// to lineFloor, and adds it to la's totals.
func (la *lineAgreement) add(t *testing.T, p *lineAgreement) {
	t.Helper()
	t.Logf("lines: %s; %d of them a shape named differently on purpose; still blocked at the end %d/%d", p.figures(), len(p.explained), p.unended[1], p.unended[0])
	for _, w := range p.explained {
		t.Logf("line named differently on purpose: %s", w)
	}
	for _, w := range p.wrong {
		t.Logf("line disagreement: %s", w)
	}
	for _, w := range p.noFrame {
		t.Logf("line not compared: %s", w)
	}
	if n, agree := p.total(); float64(agree) < lineFloor*float64(n) {
		t.Errorf("lines: %d of %d waits named at another line than the tracer's, above %.1f%%", n-agree, n, 100*(1-lineFloor))
	}
	for op, c := range p.byOp {
		lc := la.byOp[op]
		la.byOp[op] = [2]int{lc[0] + c[0], lc[1] + c[1]}
	}
	la.unended = [2]int{la.unended[0] + p.unended[0], la.unended[1] + p.unended[1]}
	la.explained = append(la.explained, p.explained...)
	la.wrong = append(la.wrong, p.wrong...)
	la.noFrame = append(la.noFrame, p.noFrame...)
}

// total is the number of waits compared and agreeing, over all operations.
func (la *lineAgreement) total() (n, agree int) {
	for _, c := range la.byOp {
		n, agree = n+c[0], agree+c[1]
	}
	return n, agree
}

// figures is the agreement per operation, "op agree/compared, ...".
func (la *lineAgreement) figures() string {
	var fs []string
	for _, op := range slices.Sorted(maps.Keys(la.byOp)) {
		c := la.byOp[op]
		fs = append(fs, fmt.Sprintf("%s %d/%d", op, c[1], c[0]))
	}
	return strings.Join(fs, ", ")
}

// report logs the totals over all programs.
func (la *lineAgreement) report(t *testing.T) {
	t.Helper()
	n, agree := la.total()
	t.Logf("lines of all programs: %d of %d waits agree with the tracer's line (%s), %d of them a shape named differently on purpose, %d of %d still blocked at the end; %d disagree; %d without a frame of the program",
		agree, n, la.figures(), len(la.explained), la.unended[1], la.unended[0], len(la.wrong), len(la.noFrame))
}
