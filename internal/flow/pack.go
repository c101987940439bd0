package flow

import (
	"go/ast"
	"go/token"
	"slices"

	"github.com/divergo/divergo/internal/tbb"
)

// Packed loops (docs/FORMAT.md, "Packed loops"). A probe in a tight loop
// costs a store and the writer's encoding of the word, about 1.4 ns, which
// is as much as the iteration of a small loop. In a loop that records
// nothing but its probes, the program keeps the probes' blocks as codes in
// a word instead, a shift and an or each, and records the word when it is
// full and when the loop ends; readers put the block events back in order.
// Nothing else of the goroutine can be recorded while the loop runs, so
// the events come out in the order the probes ran.

// Loop is a packed loop of a function: its head, its probed blocks (whose
// codes are their indexes here, in the order of their global ids once the
// analyzer has set them: see [Func.Loops]), the for statement (an
// *ast.ForStmt, or an *ast.RangeStmt over a slice, a pointer to an array
// or an integer), and the most probes one iteration runs.
type Loop struct {
	Head    *Block
	Blocks  []*Block
	Stmt    ast.Stmt
	PerIter int
}

// packLoops finds f's loops whose probes can be packed and marks their
// probed blocks (Block.Pack). A loop qualifies when:
//
//   - it is an unlabeled for statement with a head, or an unlabeled range
//     loop whose operand the oracle knows for a slice, a pointer to an
//     array or an integer (PlainRange; the head of another range may
//     receive from a channel or call an iterator), whose key and value
//     are identifiers its body does not declare again at its top and
//     whose header up to the operand is on one line (the instrumenter
//     turns it into a loop over an index: see instrument's packed loops),
//     with no loop inside it and no cycle but through its head, so that
//     one word per function is live at a time and an iteration runs each
//     block once at most;
//   - every block from its head to its done block is quiet and holds no
//     TCP but a decision the block order shows (branch, loop, switch), so
//     that nothing but its probes is recorded while it runs; a call the
//     oracle knows for a leaf (LeafOracle: strings.Builder's WriteString,
//     strconv.Itoa, math.Sqrt) is quiet here;
//   - it can end through its done block (the word is written after it);
//     a return, goto or labeled branch out of it is allowed, since the
//     instrumenter writes the word just before it: code on a way out of
//     the loop runs outside its cycle;
//   - it makes no closure and takes no address, and its init statement
//     is on one line: the instrumenter moves that statement out of the
//     for statement, on the same line (see instrument's packed loops),
//     which is the same program only while no iteration's variable can
//     outlive the iteration, and keeps every line number only while it
//     has no newline;
//   - it has a probed block, and an iteration runs at most half as many
//     probes as a word holds.
func packLoops(fset *token.FileSet, f *Func, leaf func(*ast.CallExpr) bool, plainRange func(*ast.RangeStmt) bool) {
	labeled := map[ast.Stmt]bool{}
	ast.Inspect(f.Body, func(n ast.Node) bool {
		if l, ok := n.(*ast.LabeledStmt); ok {
			labeled[l.Stmt] = true
		}
		return true
	})
	for _, h := range f.Blocks {
		var ok bool
		switch s := h.Stmt.(type) {
		case *ast.ForStmt:
			ok = h.Kind == "for.loop" && (s.Init == nil || fset.Position(s.Init.Pos()).Line == fset.Position(s.Init.End()).Line)
		case *ast.RangeStmt:
			ok = h.Kind == "range.loop" && plainRange != nil && plainRange(s) && rangeHeader(fset, s)
		}
		if !ok || labeled[h.Stmt] || !plainLoop(h.Stmt) {
			continue
		}
		if blocks, per, ok := loopBlocks(f, h, h.Stmt, leaf); ok {
			for _, b := range blocks {
				b.Pack = h
			}
			h.PackPerIter = per
		}
	}
}

// rangeHeader reports whether the range loop s can become a loop over an
// index on the lines it has: its key and value are absent or identifiers,
// on the line of its for keyword (they move into the body), and its body
// declares neither again in its outermost block (where they then are).
func rangeHeader(fset *token.FileSet, s *ast.RangeStmt) bool {
	if fset.Position(s.For).Line != fset.Position(s.X.Pos()).Line {
		return false
	}
	names := map[string]bool{}
	for _, e := range []ast.Expr{s.Key, s.Value} {
		if e == nil {
			continue
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return false
		}
		if id.Name != "_" && s.Tok == token.DEFINE {
			names[id.Name] = true
		}
	}
	for _, st := range s.Body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok != token.DEFINE {
				continue
			}
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && names[id.Name] {
					return false
				}
			}
		case *ast.DeclStmt:
			if g, ok := st.Decl.(*ast.GenDecl); ok {
				for _, sp := range g.Specs {
					switch sp := sp.(type) {
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							if names[id.Name] {
								return false
							}
						}
					case *ast.TypeSpec:
						if names[sp.Name.Name] {
							return false
						}
					}
				}
			}
		}
	}
	return true
}

// plainLoop reports whether s makes no closure and takes no address.
func plainLoop(s ast.Stmt) bool {
	ok := true
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// loopBlocks returns the probed blocks of the loop of s whose head is h,
// in the order of f.Blocks, and the most of them one iteration runs, when
// the loop qualifies (see packLoops).
func loopBlocks(f *Func, h *Block, s ast.Stmt, leaf func(*ast.CallExpr) bool) ([]*Block, int, bool) {
	var done *Block
	seen := map[*Block]bool{h: true}
	work := []*Block{h}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b != h && (b.Kind == "for.loop" || b.Kind == "range.loop") {
			return nil, 0, false // a loop inside
		}
		quiet := quietWith(b, leaf)
		if b == h {
			quiet = quietNodes(b, leaf) // a range head: packLoops asked PlainRange
		}
		if !quiet || !orderShows(b) {
			return nil, 0, false
		}
		for _, n := range b.Succs {
			if (n.Kind == "for.done" || n.Kind == "range.done") && n.Stmt == s {
				done = n
				continue
			}
			if n.Pos < s.Pos() || n.Pos >= s.End() {
				continue // a goto or labeled branch out: the word is written before it
			}
			if !seen[n] {
				seen[n] = true
				work = append(work, n)
			}
		}
	}
	if done == nil {
		return nil, 0, false
	}
	per, ok := mostProbes(h, seen)
	if !ok {
		return nil, 0, false
	}
	var probed []*Block
	for _, b := range f.Blocks {
		if seen[b] && b.Probed() {
			probed = append(probed, b)
		}
	}
	if len(probed) == 0 {
		return nil, 0, false
	}
	if bits := tbb.PackBits(len(probed)); bits > 0 && per > int(64/bits)/2 {
		return nil, 0, false
	}
	return probed, per, true
}

// mostProbes returns the most probed blocks a path from h through the
// blocks in loop (back to h or out of it) runs, and false when the blocks
// other than h hold a cycle.
func mostProbes(h *Block, loop map[*Block]bool) (int, bool) {
	const visiting = -1
	memo := map[*Block]int{}
	var walk func(b *Block) (int, bool)
	walk = func(b *Block) (int, bool) {
		if m, ok := memo[b]; ok {
			return m, m != visiting
		}
		memo[b] = visiting
		most := 0
		for _, n := range b.Succs {
			if n == h || !loop[n] {
				continue
			}
			m, ok := walk(n)
			if !ok {
				return 0, false
			}
			most = max(most, m)
		}
		if b.Probed() {
			most++
		}
		memo[b] = most
		return most, true
	}
	return walk(h)
}

// Unpack gives every probe of f's packed loops its own event again.
func (f *Func) Unpack() {
	for _, b := range f.Blocks {
		b.Pack, b.PackPerIter = nil, 0
	}
}

// orderShows reports whether every TCP of b is a decision the order of the
// blocks shows, so that it records no outcome.
func orderShows(b *Block) bool {
	for _, t := range b.TCPs() {
		switch t.Kind {
		case tbb.Branch, tbb.Loop, tbb.Switch:
		default:
			return false
		}
	}
	return true
}

// Loops returns f's packed loops, with their blocks in the order of their
// global ids: call it once the analyzer has set them.
func (f *Func) Loops() []Loop {
	var loops []Loop
	for _, h := range f.Blocks {
		if h.Kind != "for.loop" && h.Kind != "range.loop" {
			continue
		}
		var l *Loop
		for _, b := range f.Blocks {
			if b.Pack != h {
				continue
			}
			if l == nil {
				l = &Loop{Head: h, Stmt: h.Stmt}
			}
			l.Blocks = append(l.Blocks, b)
		}
		if l != nil {
			slices.SortFunc(l.Blocks, func(a, b *Block) int { return a.ID - b.ID })
			l.PerIter = h.PackPerIter
			loops = append(loops, *l)
		}
	}
	return loops
}
