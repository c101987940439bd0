package flow

import (
	"go/ast"
	"go/token"
)

// noEventCalls are the builtins and predeclared types whose calls (and
// conversions) never reach instrumented code, so they record nothing. min,
// max, print and println are left out: old code often declares functions of
// those names, and without types a call of one cannot be told from the
// builtin.
var noEventCalls = map[string]bool{
	"len": true, "cap": true, "append": true, "make": true, "new": true, "copy": true,
	"delete": true, "complex": true, "real": true, "imag": true, "clear": true,
	"bool": true, "byte": true, "rune": true, "string": true, "uintptr": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true,
}

// quiet reports whether evaluating the block can record no event of its
// frame's stream: no call that may reach instrumented code (which records
// its own entry and exit), no channel operation, go or defer statement, and
// no select. It is syntactic and errs on the side of "not quiet": without
// types, a conversion to a named type looks like a call.
func quiet(b *Block) bool { return quietWith(b, nil) }

// quietWith is quiet, where the calls leaf accepts (nil: none) are quiet
// too. Only packLoops asks with a leaf: which blocks get a probe, and where
// (minimize), stays syntactic, so that it does not depend on how much the
// types say.
func quietWith(b *Block, leaf func(*ast.CallExpr) bool) bool {
	if b.Kind == "range.loop" {
		// The head of a range receives from a channel (the rewrite records
		// the receive there) or calls an iterator function; its operand
		// alone does not say which.
		return false
	}
	return quietNodes(b, leaf)
}

// quietNodes is quietWith without the range loop's head: a plain range's
// head (packLoops) only assigns its key and value.
func quietNodes(b *Block, leaf func(*ast.CallExpr) bool) bool {
	for _, s := range b.Succs {
		if s.Kind == "select.case" {
			return false // the block ends with a select: its begin is recorded
		}
	}
	for _, n := range b.Nodes {
		if !quietNode(n, leaf) {
			return false
		}
	}
	return true
}

func quietNode(n ast.Node, leaf func(*ast.CallExpr) bool) bool {
	ok := true
	ast.Inspect(n, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // making a closure runs nothing
		case *ast.CallExpr:
			id, isID := ast.Unparen(n.Fun).(*ast.Ident)
			if (!isID || !noEventCalls[id.Name]) && (leaf == nil || !leaf(n)) {
				ok = false
			}
		case *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt, *ast.SelectStmt:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// hasDefer reports whether body defers a call outside nested function
// literals: the deferred calls then record their events after the last
// block of the function and before its exit.
func hasDefer(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			found = true
		}
		return !found
	})
	return found
}
