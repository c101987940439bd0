package flow

// This file builds the compound statements: if, for, range, switch, select.

import "go/ast"

// ifStmt builds s. done is the block after the outermost if of an else-if
// chain, or nil: the inner ifs of a chain end where the outer one does, so
// they share its done block and its After probe.
func (b *builder) ifStmt(s *ast.IfStmt, done *Block) {
	if s.Init != nil {
		b.stmt(s.Init, nil)
	}
	b.add(s.Cond)
	b.decide(s)
	then := b.newBlock("if.then", s, Probe{Open, s.Body.Lbrace})
	own := done == nil
	if own {
		done = b.newBlock("if.done", s, Probe{After, s.End()})
	}
	var els *Block
	switch e := s.Else.(type) {
	case *ast.BlockStmt:
		els = b.newBlock("if.else", s, Probe{Open, e.Lbrace})
	case *ast.IfStmt:
		// The else block has no braces of its own and `else probe(); if`
		// is not Go, so it is implied: it only evaluates the inner if's
		// init and condition, and every successor of it is probed.
		els = b.newBlock("if.else", e, Probe{})
	default:
		els = done
	}
	b.branch(then, els)
	b.start(then)
	b.stmtList(s.Body.List)
	b.jump(done)
	switch e := s.Else.(type) {
	case *ast.BlockStmt:
		b.start(els)
		b.stmtList(e.List)
		b.jump(done)
	case *ast.IfStmt:
		b.start(els)
		b.ifStmt(e, done)
	}
	if own {
		b.start(done)
	}
}

func (b *builder) forStmt(s *ast.ForStmt, label *lblock) {
	if s.Init != nil {
		b.stmt(s.Init, nil)
	}
	head := b.newBlock("for.loop", s, Probe{})
	body := b.newBlock("for.body", s, Probe{Open, s.Body.Lbrace})
	done := b.newBlock("for.done", s, Probe{After, s.End()})
	cont := head
	var post *Block
	if s.Post != nil {
		post = b.newBlock("for.post", s, Probe{})
		cont = post
	}
	if label != nil {
		label.brk, label.cont = done, cont
	}
	b.jump(head)
	b.start(head)
	if s.Cond != nil {
		b.add(s.Cond)
		b.decide(s)
		b.branch(body, done)
	} else {
		// No condition, no decision: Branch is not asked.
		b.jump(body)
	}
	b.start(body)
	b.targets = &targets{tail: b.targets, brk: done, cont: cont}
	b.stmtList(s.Body.List)
	b.targets = b.targets.tail
	b.jump(cont)
	if post != nil {
		b.start(post)
		b.stmt(s.Post, nil)
		b.jump(head)
	}
	b.start(done)
}

func (b *builder) rangeStmt(s *ast.RangeStmt, label *lblock) {
	b.add(s.X)
	head := b.newBlock("range.loop", s, Probe{})
	body := b.newBlock("range.body", s, Probe{Open, s.Body.Lbrace})
	done := b.newBlock("range.done", s, Probe{After, s.End()})
	if label != nil {
		label.brk, label.cont = done, head
	}
	b.jump(head)
	b.start(head)
	// The key and value are assigned each time the loop advances.
	if s.Key != nil {
		b.add(s.Key)
	}
	if s.Value != nil {
		b.add(s.Value)
	}
	b.decide(s)
	b.branch(body, done)
	b.start(body)
	b.targets = &targets{tail: b.targets, brk: done, cont: head}
	b.stmtList(s.Body.List)
	b.targets = b.targets.tail
	b.jump(head)
	b.start(done)
}

// switchStmt builds the clauses of an expression or type switch whose init
// and tag are already in the current block. The current block evaluates the
// first clause's expressions and ends with the switch's decision; each further
// clause is tested in an implied "switch.next" block, all expressions of a
// clause in one block so that each clause body is reached by one path.
func (b *builder) switchStmt(s ast.Stmt, body *ast.BlockStmt, label *lblock, exprs bool) {
	b.decide(s)
	done := b.newBlock("switch.done", s, Probe{After, s.End()})
	if label != nil {
		label.brk = done
	}
	var clauses []*ast.CaseClause
	for _, c := range body.List {
		if cc, ok := c.(*ast.CaseClause); ok {
			clauses = append(clauses, cc)
		}
	}
	bodies := make([]*Block, len(clauses))
	for i, cc := range clauses {
		bodies[i] = b.newBlock("switch.case", cc, Probe{Open, cc.Colon})
	}
	fallback := done
	var match *Block // body of the last tested clause, waiting for its "no" edge
	for i, cc := range clauses {
		if cc.List == nil {
			fallback = bodies[i]
			continue
		}
		if match != nil {
			next := b.newBlock("switch.next", cc, Probe{})
			b.branch(match, next)
			b.start(next)
		}
		if exprs {
			for _, e := range cc.List {
				b.add(e)
			}
		}
		match = bodies[i]
	}
	if match != nil {
		b.branch(match, fallback)
	} else {
		b.jump(fallback)
	}
	for i, cc := range clauses {
		var fall *Block
		if i+1 < len(clauses) {
			fall = bodies[i+1]
		}
		b.start(bodies[i])
		b.targets = &targets{tail: b.targets, brk: done, fallthru: fall}
		b.stmtList(cc.Body)
		b.targets = b.targets.tail
		b.jump(done)
	}
	b.start(done)
}

// selectStmt builds s. The block before it evaluates every communication's
// operands and ends with the choice; each clause body is probed at its colon.
func (b *builder) selectStmt(s *ast.SelectStmt, label *lblock) {
	var clauses []*ast.CommClause
	for _, c := range s.Body.List {
		if cc, ok := c.(*ast.CommClause); ok {
			clauses = append(clauses, cc)
			if cc.Comm != nil {
				b.add(cc.Comm)
			}
		}
	}
	b.decide(s)
	done := b.newBlock("select.done", s, Probe{After, s.End()})
	if label != nil {
		label.brk = done
	}
	bodies := make([]*Block, len(clauses))
	for i, cc := range clauses {
		bodies[i] = b.newBlock("select.case", cc, Probe{Open, cc.Colon})
	}
	// A select without cases blocks forever: no successor.
	b.branch(bodies...)
	for i, cc := range clauses {
		b.start(bodies[i])
		b.targets = &targets{tail: b.targets, brk: done}
		b.stmtList(cc.Body)
		b.targets = b.targets.tail
		b.jump(done)
	}
	b.start(done)
}
