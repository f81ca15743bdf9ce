package parser

// This file parses control flow: check if, if then, count, for each, repeat
// (while, until, forever, do-until), main loop, exit, break and continue,
// route, and try with its when, catch, otherwise and finally clauses.

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// checkIf parses `check if … end check`; chained is set for the `otherwise
// check if` links, which do not consume the `end check`.
func (p *parser) checkIf(chained bool) ast.Stmt {
	t := p.next()
	p.expect(token.KeywordIf, "'if' after 'check'")
	s := &ast.IfStmt{Check: true, Chained: chained}
	s.Cond = p.expr()
	p.optColon()
	p.skipEol()
	fr := p.ownFrame() // the first link's, for a chained one
	if !chained {
		fr = p.openFrame(token.KeywordCheck, func() {
			if p.atEOF() {
				p.failExpected(t, CodeEOF, "'end check' to close this 'check if'", endOfFile)
			}
			e := p.peek()
			if e.Kind != token.KeywordEnd {
				p.failExpected(e, CodeExpected, "'end check' after the if block", e)
			}
			p.next()
			if p.atEOF() {
				p.failExpected(e, CodeEOF, "'check' after 'end'", endOfFile)
			}
			p.expect(token.KeywordCheck, "'check' after 'end'")
		})
	}
	s.Then = p.block(p.lastEnd, stopAt(token.KeywordOtherwise, token.KeywordEnd))
	if !fr.ended && p.kind() == token.KeywordOtherwise {
		p.next()
		if p.kind() == token.KeywordCheck {
			s.Else = p.checkIf(true)
		} else {
			p.optColon()
			p.skipEol()
			s.Else = p.block(p.lastEnd, stopEnd)
		}
	}
	if !chained {
		p.closeFrame(fr)
	}
	s.Range = p.rng(t.Start)
	return s
}

// ifThen parses `if COND then STATEMENT` that ends the file (the
// reference's single-line if) and `if COND then … [otherwise …] end if`.
func (p *parser) ifThen() ast.Stmt {
	t := p.next()
	cond := p.expr()
	p.expect(token.KeywordThen, "'then' after the if condition")
	then := &ast.Block{Range: ast.Range{From: p.lastEnd}}
	multi := false
	for !p.atEOF() {
		k := p.kind()
		if k == token.KeywordOtherwise || k == token.KeywordEnd {
			multi = true
			break
		}
		if k == token.Eol {
			p.next()
			multi = true
			continue
		}
		then.Stmts = append(then.Stmts, p.stmtRecover())
		if p.atEOF() {
			break
		}
		if k := p.kind(); k == token.KeywordOtherwise || k == token.KeywordEnd {
			multi = true
			break
		}
	}
	then.To = max(then.From, p.lastEnd)
	var els ast.Stmt
	if p.kind() == token.KeywordOtherwise {
		p.next()
		els = p.block(p.lastEnd, stopEnd)
	}
	if multi {
		p.expect(token.KeywordEnd, "'end if' after the if block")
		p.expect(token.KeywordIf, "'if' after 'end'")
		return &ast.IfStmt{Range: p.rng(t.Start), Cond: cond, Then: then, Else: els}
	}
	if len(then.Stmts) == 0 {
		p.failTok(t, CodeExpected, "expected a statement after 'then'")
	}
	return &ast.SingleIfStmt{Range: p.rng(t.Start), Cond: cond, Then: then.Stmts[0]}
}

// countLoop parses `count from A [down] to B [by STEP] [as NAME]: … end
// count`.
func (p *parser) countLoop() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordFrom, "'from' after 'count'")
	s := &ast.CountStmt{}
	s.From = p.expr()
	n := p.peek()
	switch {
	case n.Kind == token.Identifier && strings.EqualFold(n.Text, "down"):
		p.next()
		p.expect(token.KeywordTo, "'to' after 'down'")
		s.Down = true
	case n.Kind == token.KeywordTo:
		p.next()
	case n.Kind == token.EOF:
		p.failExpected(t, CodeEOF, "'to' or 'down to' in the count loop", endOfFile)
	default:
		p.failExpected(n, CodeExpected, "'to' or 'down to' in the count loop", n)
	}
	s.To = p.expr()
	if p.got(token.KeywordBy) {
		s.Step = p.expr()
	}
	if p.got(token.KeywordAs) {
		s.Var = p.identOrEnd("a loop variable name after 'as'", t)
	}
	p.optColon()
	s.Body = p.body(token.KeywordCount, "count loop body")
	s.Range = p.rng(t.Start)
	return s
}

// forEach parses `for each NAME in [reversed] LIST: … end for`.
func (p *parser) forEach() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordEach, "'each' after 'for'")
	s := &ast.ForEachStmt{}
	s.Var = p.ident("a loop variable name after 'each'")
	p.expect(token.KeywordIn, "'in' after the loop variable")
	s.Reversed = p.got(token.KeywordReversed)
	s.Coll = p.expr()
	p.optColon()
	s.Body = p.body(token.KeywordFor, "for-each loop body")
	s.Range = p.rng(t.Start)
	return s
}

// repeat parses `repeat while|until COND: … end repeat`, `repeat forever:
// … end repeat` and `repeat: … until COND`.
func (p *parser) repeat() ast.Stmt {
	t := p.next()
	s := &ast.RepeatStmt{}
	switch p.kind() {
	case token.KeywordWhile, token.KeywordUntil:
		s.Kind = ast.RepeatWhile
		if p.next().Kind == token.KeywordUntil {
			s.Kind = ast.RepeatUntil
		}
		s.Cond = p.expr()
		p.optColon()
		s.Body = p.body(token.KeywordRepeat, "repeat body")
	case token.KeywordForever:
		p.next()
		s.Kind = ast.RepeatForever
		p.expect(token.Colon, "':' after 'forever'")
		s.Body = p.body(token.KeywordRepeat, "repeat forever body")
	case token.Colon:
		p.next()
		s.Kind = ast.RepeatDoUntil
		p.skipEol()
		b := &ast.Block{Range: ast.Range{From: p.lastEnd}}
		for !p.atEOF() && p.kind() != token.KeywordUntil {
			start := p.pos
			b.Stmts = append(b.Stmts, p.stmtRecover())
			if p.pos == start {
				p.next()
			}
		}
		b.To = max(b.From, p.lastEnd)
		s.Body = b
		p.expect(token.KeywordUntil, "'until' after the repeat body")
		s.Cond = p.expr()
	case token.EOF:
		p.failExpected(t, CodeEOF, "'while', 'until', 'forever' or ':' after 'repeat'", endOfFile)
	default:
		p.failExpectedHere(CodeExpected, "'while', 'until', 'forever' or ':' after 'repeat'")
	}
	s.Range = p.rng(t.Start)
	return s
}

// mainLoop parses `main loop [concurrently]: … end loop`.
func (p *parser) mainLoop() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordLoop, "'loop' after 'main'")
	s := &ast.MainLoopStmt{}
	if n := p.peek(); n.Kind == token.Identifier && n.Text == "concurrently" {
		p.next()
		s.Concurrent = true
	}
	p.expect(token.Colon, "':' after 'main loop'")
	s.Body = p.body(token.KeywordLoop, "main loop body")
	s.Range = p.rng(t.Start)
	return s
}

// exit parses `exit`, `exit loop` and `exit program`.
func (p *parser) exit() ast.Stmt {
	t := p.next()
	prog := false
	switch n := p.peek(); {
	case n.Kind == token.KeywordLoop:
		p.next()
	case n.Kind == token.Identifier && strings.EqualFold(n.Text, "loop"):
		p.next()
	case n.Kind == token.Identifier && strings.EqualFold(n.Text, "program"):
		p.next()
		prog = true
	}
	return &ast.ExitStmt{Range: p.rng(t.Start), Program: prog}
}

// branch parses `break`, `continue` and `skip`.
func (p *parser) branch() ast.Stmt {
	t := p.next()
	if t.Kind == token.KeywordBreak {
		return &ast.BranchStmt{Range: p.rng(t.Start), Kind: ast.Break}
	}
	return &ast.BranchStmt{Range: p.rng(t.Start), Kind: ast.Continue}
}

// route parses `route VALUE:` with its `when` arms, an optional last
// `otherwise` arm and `end route`.
func (p *parser) route() ast.Stmt {
	t := p.next()
	s := &ast.RouteStmt{Subject: p.expr()}
	p.optColon()
	p.skipEol()
	armStop := stopAt(token.KeywordWhen, token.KeywordOtherwise, token.KeywordEnd)
	fr := p.openFrame(token.KeywordRoute, func() {
		if n := p.peek(); n.Kind == token.EOF {
			p.failExpected(n, CodeEOF, "'when', 'otherwise' or 'end route' in the route", endOfFile)
		}
		p.closeBlock(token.KeywordRoute, "route")
	})
	for {
		if fr.ended {
			p.closeFrame(fr)
			s.Range = p.rng(t.Start)
			return s
		}
		p.skipEol()
		n := p.peek()
		switch n.Kind {
		case token.EOF:
			p.closeFrame(fr)
			s.Range = p.rng(t.Start)
			return s
		case token.KeywordWhen:
			if s.Otherwise != nil {
				p.failTok(n, CodeUnexpected, "'otherwise' must be the last arm of a route")
			}
			p.next()
			arm := &ast.RouteArm{}
			m := p.peek()
			switch {
			case m.Kind == token.EOF:
				p.failExpected(m, CodeEOF, "a pattern after 'when'", endOfFile)
			case m.Kind == token.KeywordContains:
				p.next()
				arm.Kind = ast.ArmContains
				arm.Values = []ast.Expr{p.primary(false)}
			case m.Kind == token.KeywordOne && p.peekN(1).Kind == token.KeywordOf:
				p.next()
				p.next()
				arm.Kind = ast.ArmOneOf
				arm.Values = []ast.Expr{p.primary(false)}
			case (m.Kind == token.KeywordStarts || m.Kind == token.KeywordEnds) && p.peekN(1).Kind == token.KeywordWith:
				p.next()
				p.next()
				arm.Kind = ast.ArmStartsWith
				if m.Kind == token.KeywordEnds {
					arm.Kind = ast.ArmEndsWith
				}
				arm.Values = []ast.Expr{p.primary(false)}
			default:
				arm.Kind = ast.ArmEquals
				arm.Values = []ast.Expr{p.primary(false)}
				for p.got(token.KeywordOr) {
					arm.Values = append(arm.Values, p.primary(false))
				}
			}
			p.optColon()
			p.skipEol()
			arm.Body = p.block(p.lastEnd, armStop)
			arm.Range = p.rng(n.Start)
			s.Arms = append(s.Arms, arm)
		case token.KeywordOtherwise:
			if s.Otherwise != nil {
				p.failTok(n, CodeDuplicate, "a route may have only one 'otherwise' arm")
			}
			p.next()
			p.optColon()
			p.skipEol()
			s.Otherwise = p.block(p.lastEnd, armStop)
		case token.KeywordEnd:
			p.closeFrame(fr)
			s.Range = p.rng(t.Start)
			return s
		default:
			p.failExpected(n, CodeExpected, "'when', 'otherwise' or 'end route'", n)
		}
	}
}

// tryStmt parses `try: …` with its `when KIND [as NAME]:`, `catch [with
// NAME]:`, `otherwise:` and `finally:` clauses and `end try`.
func (p *parser) tryStmt() ast.Stmt {
	t := p.next()
	s := &ast.TryStmt{}
	clauseStop := stopAt(token.KeywordWhen, token.KeywordCatch, token.KeywordOtherwise, token.KeywordFinally, token.KeywordEnd)
	inClause := false // a clause is being parsed (not yet in s)
	var fr *frame
	fr = p.openFrame(token.KeywordTry, func() {
		if len(s.Clauses) == 0 && s.Finally == nil && !inClause && !fr.clauses {
			p.failTok(t, CodeTry, "a try needs at least one 'when', 'catch' or 'finally' clause")
		}
		p.closeBlock(token.KeywordTry, "try block")
	})
	// clause parses the body of a clause begun by c, after the header
	// named after, and adds the clause to s.
	clause := func(cl *ast.CatchClause, c token.Token, after string) {
		inClause = true
		cl.Body = p.colonBlock(after, clauseStop)
		inClause = false
		cl.Range = p.rng(c.Start)
		s.Clauses = append(s.Clauses, cl)
	}
	s.Body = p.colonBlock("'try'", clauseStop)
loop:
	for !p.atEOF() && !fr.ended {
		c := p.peek()
		switch c.Kind {
		case token.KeywordWhen:
			p.next()
			cl := &ast.CatchClause{Kind: ast.ErrGeneral}
			n := p.peek()
			switch n.Kind {
			case token.KeywordError:
				p.next()
			case token.Colon:
			case token.KeywordFile:
				p.next()
				p.expect(token.KeywordNot, "'not' after 'file'")
				p.expect(token.KeywordFound, "'found' after 'not'")
				cl.Kind = ast.ErrFileNotFound
			case token.KeywordPermission:
				p.next()
				p.expect(token.KeywordDenied, "'denied' after 'permission'")
				cl.Kind = ast.ErrPermissionDenied
			case token.KeywordProcess:
				p.next()
				m := p.peek()
				switch {
				case m.Kind == token.KeywordNot:
					p.next()
					p.expect(token.KeywordFound, "'found' after 'not'")
					cl.Kind = ast.ErrProcessNotFound
				case m.Kind == token.Identifier && (m.Text == "spawn" || m.Text == "kill"):
					p.next()
					f := p.peek()
					if f.Kind != token.Identifier || f.Text != "failed" {
						if f.Kind == token.EOF {
							f = m
						}
						p.failExpected(f, CodeExpected, "'failed' after '"+m.Text+"'", p.peek())
					}
					p.next()
					cl.Kind = ast.ErrProcessSpawnFailed
					if m.Text == "kill" {
						cl.Kind = ast.ErrProcessKillFailed
					}
				case m.Kind == token.EOF:
					p.failExpected(n, CodeEOF, "'not found', 'spawn failed' or 'kill failed' after 'process'", endOfFile)
				default:
					p.failExpected(m, CodeExpected, "'not found', 'spawn failed' or 'kill failed' after 'process'", m)
				}
			case token.KeywordCommand:
				p.next()
				p.expect(token.KeywordNot, "'not' after 'command'")
				p.expect(token.KeywordFound, "'found' after 'not'")
				cl.Kind = ast.ErrCommandNotFound
			case token.EOF:
				p.failExpected(c, CodeEOF, "an error kind after 'when'", endOfFile)
			default:
				p.failExpected(n, CodeExpected, "'error', 'file', 'permission', 'process' or 'command' after 'when'", n)
			}
			if a := p.peek(); a.Kind == token.KeywordAs {
				p.next()
				nm := p.peek()
				if nm.Kind != token.Identifier {
					if nm.Kind == token.EOF {
						nm = a
					}
					p.failExpected(nm, CodeExpected, "a name after 'as' in the error handler", p.peek())
				}
				p.next()
				cl.Name = p.identOf(nm)
			}
			clause(cl, c, "the error kind")
		case token.KeywordCatch:
			p.next()
			cl := &ast.CatchClause{Catch: true, Kind: ast.ErrGeneral}
			if p.got(token.KeywordWith) {
				if nm := p.peek(); nm.Kind == token.Identifier {
					p.next()
					cl.Name = p.identOf(nm)
				}
			}
			clause(cl, c, "'catch'")
		case token.KeywordOtherwise:
			p.next()
			s.Otherwise = p.colonBlock("'otherwise'", stopAt(token.KeywordFinally, token.KeywordEnd))
		case token.KeywordFinally:
			p.next()
			inClause = true
			s.Finally = p.colonBlock("'finally'", stopEnd)
			inClause = false
			break loop
		case token.KeywordEnd:
			break loop
		default:
			p.failExpected(c, CodeExpected, "'when', 'catch', 'otherwise' or 'end'", c)
		}
	}
	p.closeFrame(fr)
	s.Range = p.rng(t.Start)
	return s
}
