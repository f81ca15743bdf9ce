package parser

// This file parses the statements on lists and maps: create list and
// create map with their bodies, push, remove and clear.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// createList parses `create list NAME:` with its `add VALUE` lines and
// `end list`.
func (p *parser) createList() ast.Stmt {
	t := p.next()
	p.next() // list
	s := &ast.CreateListStmt{Name: p.identOrEnd("a list name after 'create list'", t)}
	p.expect(token.Colon, "':' after the list name")
	p.skipEol()
	fr := p.openFrame(token.KeywordList, nil)
	p.memberLines(fr, func(n token.Token) bool {
		if n.Kind != token.KeywordAdd {
			msg, names := p.expected("'add' or 'end list' in the list", n)
			p.membersEnd(fr, n, CodeExpected, msg, names...)
			return false
		}
		p.next()
		s.Values = append(s.Values, p.expr())
		return true
	})
	s.Range = p.rng(t.Start)
	return s
}

// createMap parses `create map NAME:` with its `KEY is VALUE` lines and
// `end map`.
func (p *parser) createMap() ast.Stmt {
	t := p.next()
	p.next() // map
	s := &ast.CreateMapStmt{Name: p.identOrEnd("a map name after 'create map'", t)}
	p.expect(token.Colon, "':' after the map name")
	fr := p.openFrame(token.KeywordMap, nil)
	p.memberLines(fr, func(n token.Token) bool {
		if n.Kind != token.Identifier && n.Kind != token.StringLiteral {
			msg, names := p.expected("a map key (a name or a text) or 'end map'", n)
			p.membersEnd(fr, n, CodeExpected, msg, names...)
			return false
		}
		return !p.member(fr, n, func() {
			p.next()
			var key ast.Expr = p.identOf(n)
			if n.Kind == token.StringLiteral {
				key = p.lit(n, ast.LitString)
			}
			p.expect(token.KeywordIs, "'is' after the map key")
			v := p.expr()
			s.Entries = append(s.Entries, &ast.MapEntry{Range: p.rng(n.Start), Key: key, Value: v})
		})
	})
	s.Range = p.rng(t.Start)
	return s
}

// push parses `push with LIST and VALUE`.
func (p *parser) push() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordWith, "'with' after 'push'")
	l := p.primary(false)
	p.expect(token.KeywordAnd, "'and' after the list")
	var v ast.Expr
	if k := p.kind(); k != token.Eol && !isStatementStarter(k) {
		v = p.binary(0, exprCtx{})
	} else {
		v = p.primary(false)
	}
	return &ast.PushStmt{Range: p.rng(t.Start), List: l, Value: v}
}

// remove parses `remove VALUE from LIST`.
func (p *parser) remove() ast.Stmt {
	t, v, name := p.valueFrom()
	return &ast.RemoveStmt{Range: p.rng(t.Start), Value: v, List: name}
}

// clear parses `clear LIST [list]`.
func (p *parser) clear() ast.Stmt {
	t := p.next()
	name := p.nameWords()
	p.got(token.KeywordList)
	return &ast.ClearStmt{Range: p.rng(t.Start), List: name}
}

// memberLines reads the body of fr's statement when it is made of member
// lines (a list's `add` lines, a map's entries, a new instance's property
// values, a container's members) up to its `end`, which the word of fr's
// closer then follows (`end list`). It skips blank lines and calls line at
// the first token of each other line; line parses it and reports whether
// the body goes on, false where it ended there (p.member, p.membersEnd).
// It reports whether the text ended before the body did.
func (p *parser) memberLines(fr *frame, line func(n token.Token) bool) (unclosed bool) {
	end := p.lastEnd // where the last line read ends
	for !p.atEOF() {
		switch n := p.peek(); n.Kind {
		case token.Eol:
			p.next()
		case token.KeywordEnd:
			p.next()
			if fr.kw != 0 {
				p.expect(fr.kw, "'"+fr.kw.Spelling()+"' after 'end'")
			}
			return false
		default:
			if !line(n) {
				return false
			}
			end = p.lastEnd
		}
	}
	// Ended by the end of the text, the body ends with its last line, not
	// with the blank lines after it: where the layout ends it when more
	// text follows.
	p.lastEnd = end
	return true
}
