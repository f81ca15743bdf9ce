package parser

// This file parses WFL's test statements: describe with its setup and
// teardown, test, and expect with its assertions.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// describe parses `describe "TEXT":` with its setup, teardown, tests and
// nested describes, and `end describe`.
func (p *parser) describe() ast.Stmt {
	t := p.next()
	s := &ast.DescribeStmt{Desc: p.description(t)}
	p.skipEol()
	body := &ast.Block{Range: ast.Range{From: p.lastEnd}}
	hasSetup, hasTeardown := false, false
	fr := p.openFrameAt(t, token.KeywordDescribe, nil)
	defer p.popFrame(fr)
	fr.members = true
	// The closer check where the body stops, as takenFrom runs it for a
	// describe inside this one that would take this one's closer.
	fr.close = func() {
		switch n := p.peek(); n.Kind {
		case token.KeywordEnd:
			p.closeBlock(token.KeywordDescribe, "describe block")
		case token.EOF:
			p.failExpected(n, CodeEOF, "'end describe'", endOfFile)
		default:
			p.failExpected(n, CodeExpected, "'setup', 'test', 'teardown' or 'end' in the describe block", n)
		}
	}
	end := func(code, what string, n token.Token) ast.Stmt {
		msg, names := p.expected(what, n)
		p.membersEnd(fr, n, code, msg, names...)
		// A body the end of the text stopped ends with the header's
		// last token when it holds nothing, as the describe does.
		body.From = min(body.From, p.lastEnd)
		body.To = max(body.From, p.lastEnd)
		s.Body = body
		s.Range = p.rng(t.Start)
		return s
	}
	// The first member on a line indented at or left of the header: where
	// the layout ends the describe when the reference fails further on
	// (its `end describe` not typed, the next describe taken for a nested
	// one).
	cand, candN, candDiags, candOpens := -1, 0, 0, 0
	// From cand on, the changes to the statements parsed ahead are logged
	// (memoTable.mark), and undone when the layout cuts the describe there.
	mark, marked := 0, false
	defer func() {
		if marked {
			p.memo.release()
		}
	}()
	// endBy ends the describe by the layout before the token at index at:
	// what the members from cand reported, up to the diagnostics and
	// Opens raised before the reference's (diags, opens), is reported
	// again by the statement lists that read them. The reference's
	// diagnostic starts at index nd, or, when taken is set, is the one
	// takenFrom raised.
	endBy := func(at, diags, opens, nd int, taken bool) ast.Stmt {
		if cand >= 0 {
			p.dropRaisedSince(candDiags, diags, candOpens, opens, mark)
			marked = false
			body.Stmts = body.Stmts[:candN]
		}
		p.rewind(at)
		p.lastEnd = p.lastToken(at, p.lastEnd)
		fr.body = p.lastEnd
		p.lastEnd = p.bodyBlanks(fr, p.lastEnd, p.tokStart(at))
		if taken {
			p.annotate(fr, fr.taken[0], fr.taken[1], true)
			nd = len(p.diags)
		}
		p.unclosed(fr, nd, true)
		for p.pos > 0 && p.toks[p.pos-1].Kind == token.Eol {
			p.pos--
		}
		body.From = min(body.From, p.lastToken(at, body.From))
		body.To = max(body.From, p.lastEnd)
		s.Body = body
		s.Range = p.rng(t.Start)
		return s
	}
	// cut ends it before cand, where fail, the closer check at the current
	// position, reports what the reference reports.
	cut := func(fail func()) ast.Stmt {
		nd, no := len(p.diags), len(p.opens)
		p.note(p.pos)
		p.event = p.tokStart(p.pos)
		p.attempt(fail)
		p.event = -1
		p.note(p.pos)
		return endBy(cand, nd, no, nd, false)
	}
	// taken ends it when the closer at the current position is a
	// describe's around it, which the reference takes for this one's and
	// then fails further on: takenFrom raised the reference's diagnostic,
	// after index nd (and Opens after no). The body ends before the first
	// member lined up with the header, or else before the closer.
	taken := func(nd, no int) ast.Stmt {
		at := p.pos
		if cand >= 0 {
			at = cand
		}
		return endBy(at, nd, no, 0, true)
	}
	// w is what the members read past the layout's end make of the walk
	// from cand (pastWalk), denied the refusals to read ahead before it;
	// jumped is where the loop took a walk over and what it had read then,
	// to read the members again should the describe hold them.
	var w pastWalk
	denied := 0
	type jump struct {
		at, lastEnd     int
		setup, teardown bool
	}
	jumped, jumps := jump{at: -1}, readAhead.jump
	// member reads a member; past the layout's end it counts as read ahead.
	member := func(parse func() ast.Stmt) {
		if cand >= 0 {
			body.Stmts = append(body.Stmts, p.pastMember(&w, parse))
		} else {
			body.Stmts = append(body.Stmts, parse())
		}
	}
	// unjump goes back to where the loop took a walk over, to read the
	// members it holds: the describe holds them.
	unjump := func() {
		if jumped.at >= 0 {
			p.pos, p.lastEnd = jumped.at, jumped.lastEnd
			hasSetup, hasTeardown = jumped.setup, jumped.teardown
			jumped.at, jumps = -1, false
		}
	}
	for {
		p.skipEol()
		n := p.peek()
		if cand >= 0 && !p.mayReadAhead() {
			// The members read past the layout's end reached the bound
			// on that work: the describe holds them, as the reference
			// reads it.
			cand = -1
			if marked {
				p.memo.release()
				marked = false
			}
			if jumped.at >= 0 {
				unjump()
				continue
			}
		}
		if cand < 0 && n.Kind != token.KeywordEnd && n.Kind != token.EOF && p.outdented(fr, n) && p.mayReadAhead() {
			cand, candN, candDiags, candOpens = p.pos, len(body.Stmts), len(p.diags), len(p.opens)
			mark, marked = p.memo.mark(), true
			w, denied = pastWalk{}, p.denied
		}
		if cand >= 0 && describeMember(n.Kind) && jumps {
			if r, ok := p.pastWalks[p.pos]; ok && !(hasSetup && r.setup) && !(hasTeardown && r.teardown) {
				// A describe inside this one read the members from here
				// past its layout end, as this one reads them: take its
				// walk over, to where it stopped.
				jumped = jump{p.pos, p.lastEnd, hasSetup, hasTeardown}
				hasSetup, hasTeardown = hasSetup || r.setup, hasTeardown || r.teardown
				w.add(r)
				p.pos, p.lastEnd = r.to, r.lastEnd
				p.note(r.reach)
				p.walked++
				continue
			}
		}
		if cand >= 0 && p.pos > cand && !describeMember(n.Kind) && !w.context && p.denied == denied {
			p.recordPastWalk(cand, w)
		}
		switch n.Kind {
		case token.KeywordSetup, token.KeywordTeardown:
			tear := n.Kind == token.KeywordTeardown
			dup := !tear && hasSetup || tear && hasTeardown
			member(func() ast.Stmt { return p.hook(dup) })
			if tear {
				hasTeardown = true
			} else {
				hasSetup = true
			}
		case token.KeywordTest, token.KeywordDescribe:
			member(p.describeItem)
		case token.KeywordEnd:
			if nd, no := len(p.diags), len(p.opens); p.closes(fr) && p.takenFrom(fr) {
				return taken(nd, no)
			}
			if cand >= 0 && !p.closes(fr) {
				return cut(func() { p.closeBlock(token.KeywordDescribe, "describe block") })
			}
			if jumped.at >= 0 {
				unjump()
				continue
			}
			body.To = max(body.From, p.lastEnd)
			s.Body = body
			p.closeBlock(token.KeywordDescribe, "describe block")
			s.Range = p.rng(t.Start)
			return s
		case token.EOF:
			if cand >= 0 {
				return cut(func() { p.failExpected(n, CodeEOF, "'end describe'", endOfFile) })
			}
			return end(CodeEOF, "'end describe'", n)
		default:
			if cand >= 0 && cand != p.pos && !p.afterCut() {
				return cut(func() {
					p.failExpected(n, CodeExpected, "'setup', 'test', 'teardown' or 'end' in the describe block", n)
				})
			}
			return end(CodeExpected, "'setup', 'test', 'teardown' or 'end' in the describe block", n)
		}
	}
}

// hook parses a describe's `setup:` or `teardown:` block; dup reports that
// the describe has one already.
func (p *parser) hook(dup bool) *ast.HookStmt {
	n := p.next()
	if dup {
		p.failTok(n, CodeDuplicate, "only one '"+n.Kind.Spelling()+"' block is allowed in a describe")
	}
	p.expectOf(token.Colon, "':' after '", n.Kind.Spelling(), "'")
	h := &ast.HookStmt{Teardown: n.Kind == token.KeywordTeardown}
	h.Body = p.strictBody(n, n.Kind, n.Kind.Spelling()+" block", describeMember)
	h.Range = p.rng(n.Start)
	return h
}

// describeItem parses the member of a describe at the current token: a
// test, a nested describe, or (read ahead, where one more is not known to
// be a duplicate) a setup or teardown block.
func (p *parser) describeItem() ast.Stmt {
	switch p.kind() {
	case token.KeywordTest:
		return p.testBlockOf(describeMember)
	case token.KeywordDescribe:
		return p.describe()
	}
	return p.hook(false)
}

// strictBody is body for the blocks of tests: unlike block, the end of the
// file inside it is an error of the statement parser.
func (p *parser) strictBody(hdr token.Token, kw token.Kind, what string, member func(token.Kind) bool) *ast.Block {
	fr := p.openFrameAt(hdr, kw, func() {
		if p.atEOF() {
			p.failTok(p.peek(), CodeEOF, "unexpected end of file: expected 'end'")
		}
		p.closeBlock(kw, what)
	})
	fr.member = member
	p.skipEol()
	b := p.block(p.lastEnd, stopEnd)
	p.closeFrame(fr)
	return b
}

// description parses the quoted description and the ':' after `describe`
// or `test` (kw).
func (p *parser) description(kw token.Token) *ast.BasicLit {
	word := kw.Kind.Spelling()
	d := p.peek()
	if d.Kind != token.StringLiteral {
		p.failExpectedHere(CodeExpected, "the description text after '"+word+"'")
	}
	p.next()
	p.expectOf(token.Colon, "':' after the ", word, " description")
	return p.lit(d, ast.LitString)
}

// testBlock parses `test "TEXT": … end test`.
func (p *parser) testBlock() ast.Stmt {
	return p.testBlockOf(nil)
}

// testBlockOf is testBlock for a member of a statement (a describe's test)
// whose members start with the words member reports.
func (p *parser) testBlockOf(member func(token.Kind) bool) ast.Stmt {
	t := p.next()
	s := &ast.TestStmt{Desc: p.description(t)}
	s.Body = p.strictBody(t, token.KeywordTest, "test block", member)
	s.Range = p.rng(t.Start)
	return s
}

// expectStmt parses `expect VALUE to ASSERTION`.
func (p *parser) expectStmt() ast.Stmt {
	t := p.next()
	s := &ast.ExpectStmt{Subject: p.expr()}
	p.expect(token.KeywordTo, "'to' after the expect subject")
	n := p.peek()
	switch n.Kind {
	case token.KeywordEqual:
		p.next()
		s.Kind, s.Value = ast.AssertEqual, p.expr()
	case token.KeywordBe:
		p.next()
		m := p.peek()
		switch m.Kind {
		case token.BooleanLiteral:
			p.next()
			s.Kind = ast.AssertBeNo
			if m.Text == "true" {
				s.Kind = ast.AssertBeYes
			}
		case token.KeywordGreater, token.KeywordLess:
			p.compareAssertion(s)
		case token.KeywordEmpty:
			p.next()
			s.Kind = ast.AssertBeEmpty
		case token.KeywordOf:
			p.next()
			if ty := p.peek(); ty.Kind == token.Identifier && ty.Text == "type" {
				p.next()
				nm := p.peek()
				if nm.Kind != token.StringLiteral {
					p.failExpectedHere(CodeExpected, "the type name as text after 'be of type'")
				}
				p.next()
				s.Kind, s.TypeName = ast.AssertBeOfType, p.lit(nm, ast.LitString)
			} else {
				p.failExpectedHere(CodeExpected, "'type' after 'be of'")
			}
		case token.EOF:
			p.failExpected(m, CodeEOF, "a value after 'be'", endOfFile)
		default:
			s.Kind, s.Value = ast.AssertBe, p.expr()
		}
	case token.KeywordGreater, token.KeywordLess:
		p.compareAssertion(s)
	case token.KeywordContain:
		p.next()
		s.Kind, s.Value = ast.AssertContain, p.expr()
	case token.KeywordExist:
		p.next()
		s.Kind = ast.AssertExist
	case token.KeywordHave:
		p.next()
		if l := p.peek(); l.Kind == token.Identifier && l.Text == "length" {
			p.next()
			s.Kind, s.Value = ast.AssertHaveLength, p.expr()
		} else {
			p.failExpectedHere(CodeExpected, "'length' after 'have'")
		}
	case token.EOF:
		p.failExpected(n, CodeEOF, "an assertion after 'to'", endOfFile)
	default:
		p.failExpected(n, CodeExpected, "an assertion ('equal', 'be', 'contain', 'exist', 'have length', …)", n)
	}
	s.Range = p.rng(t.Start)
	return s
}

// compareAssertion parses `greater|less than VALUE`, after `to` or `to be`.
func (p *parser) compareAssertion(s *ast.ExpectStmt) {
	w := p.next()
	p.expectOf(token.KeywordThan, "'than' after '", w.Kind.Spelling(), "'")
	s.Kind = ast.AssertGreaterThan
	if w.Kind == token.KeywordLess {
		s.Kind = ast.AssertLessThan
	}
	s.Value = p.expr()
}

// A pastWalk is the walk of a describe's members past the line where the
// layout ends it (describe: cand), read to learn where the reference
// fails: from its first member to the token that stopped it (to, with
// p.lastEnd there). Describes left open one after another each read the
// rest as their members, as the reference nests them, and each does so
// again from where the one inside it stopped (its cand), so that each
// read the rest once for each describe around it, twice the work at each
// describe (walkPerToken). A walk that read none of the frames around its
// members (context), and that reading ahead was never refused (its members
// read ahead as far as the text says), reads alike for any describe whose
// loop reaches its first member: the describe around takes it over (from
// the describe inside's cand, where that one returned), as a body takes over
// the walk of a block inside it (walkRec). Its members are not kept: a
// describe cut by the layout drops them, and one that holds them (its
// closer found, or the bound reached) reads them again.
type pastWalk struct {
	to, lastEnd int
	reach       int  // the furthest token its members' parses looked at
	setup       bool // it holds a setup block (one more, after a describe's own, fails)
	teardown    bool // and a teardown block
	context     bool // a member's parse read the frames around it
}

// add notes in w a walk taken over.
func (w *pastWalk) add(r pastWalk) {
	w.reach = max(w.reach, r.reach)
	w.setup, w.teardown = w.setup || r.setup, w.teardown || r.teardown
}

// pastMember reads with parse a member of a describe past the line where
// the layout ends it (readPastLayout), noting in w what the walk of such
// members needs to be taken over (pastWalk).
func (p *parser) pastMember(w *pastWalk, parse func() ast.Stmt) ast.Stmt {
	k := p.kind()
	w.setup = w.setup || k == token.KeywordSetup
	w.teardown = w.teardown || k == token.KeywordTeardown
	reach, low := p.reach, p.low
	p.reach, p.low = p.pos, len(p.frames)
	defer func() {
		w.reach = max(w.reach, p.reach, p.pos)
		p.reach = max(reach, p.reach, p.pos)
		if p.low < len(p.frames) {
			w.context = true
			p.low = min(low, p.low)
		} else {
			p.low = low // it read no frame
		}
	}()
	return p.readPastLayout(parse)
}

// recordPastWalk records w, the walk of members from token index at that
// stopped at the current position, unless it read past the stretch parsed
// (UnitsAhead), where what follows decides.
func (p *parser) recordPastWalk(at int, w pastWalk) {
	if p.rest != nil && max(p.pos, w.reach) >= p.window {
		return
	}
	if p.pastWalks == nil {
		p.pastWalks = make(map[int]pastWalk)
	}
	w.to, w.lastEnd = p.pos, p.lastEnd
	p.pastWalks[at] = w
}
