package parser

// This file parses actions: define action called NAME with its parameters,
// optional return type and body, and return or give back. Methods of
// containers are in containers.go; type names in types.go.

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// actionDecl parses `define action called NAME [needs|with [parameters]
// P [as TYPE] [default VALUE] {and P …}]: [TYPE:] … end action`.
func (p *parser) actionDecl() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordAction, "'action' after 'define'")
	p.expect(token.KeywordCalled, "'called' after 'action'")
	d := &ast.ActionDecl{}
	d.Name = p.ident("an action name after 'called'")
	if k := p.kind(); k == token.KeywordNeeds || k == token.KeywordWith {
		p.next()
		p.got(token.KeywordParameters)
		for p.kind() == token.Identifier {
			pt := p.next()
			prm := &ast.Param{Name: p.identOf(pt)}
			if p.got(token.KeywordAs) {
				tt := p.peek()
				name, ok := typeWord(tt)
				if !ok {
					p.failExpectedHere(CodeExpected, "a type name after 'as'")
				}
				p.next()
				prm.Type = p.typeExprOf(tt, name)
			}
			if n := p.peek(); n.Kind == token.Identifier && strings.EqualFold(n.Text, "default") {
				p.next()
				prm.Default = p.expr()
			}
			prm.Range = p.rng(pt.Start)
			d.Params = append(d.Params, prm)
			if !p.got(token.KeywordAnd) {
				break
			}
		}
	}
	p.expect(token.Colon, "':' after the action header")
	save := p.pos
	if rt := p.actionReturnType(); rt != nil && p.kind() == token.Colon {
		p.next()
		d.ReturnType = rt
	} else {
		p.rewind(save)
	}
	fr := p.openFrame(token.KeywordAction, func() {
		if p.atEOF() {
			p.failExpected(p.peek(), CodeEOF, "'end action' to close the action '"+d.Name.Name+"'", endOfFile)
		}
		p.next() // end
		if p.atEOF() {
			p.failExpected(p.peek(), CodeEOF, "'action' after 'end'", endOfFile)
		}
		if p.kind() != token.KeywordAction {
			p.failExpectedHere(CodeExpected, "'action' after 'end'")
		}
		p.next()
	})
	p.skipEol()
	d.Body = p.block(p.lastEnd, stopEnd)
	p.closeFrame(fr)
	d.Range = p.rng(t.Start)
	return d
}

// returnStmt parses `return [VALUE]` and `give back [VALUE]`, where the
// value may be a database query.
func (p *parser) returnStmt() ast.Stmt {
	t := p.next()
	r := &ast.ReturnStmt{GiveBack: t.Kind == token.KeywordGive}
	if r.GiveBack {
		p.expect(token.KeywordBack, "'back' after 'give'")
	}
	if !p.atEOF() {
		if n := p.peek(); n.Kind == token.NothingLiteral {
			p.next()
			r.Value = p.lit(n, ast.LitNothing)
		} else if k, ok := p.queryKind(); ok {
			r.Value = p.queryExpr(k)
		} else {
			r.Value = p.expr()
		}
	}
	r.Range = p.rng(t.Start)
	return r
}
