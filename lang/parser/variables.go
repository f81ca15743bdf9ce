package parser

// This file parses variable declarations and assignments: store and create
// NAME as VALUE (and store new constant), create date and create time,
// change NAME to VALUE, and add, subtract, multiply and divide.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// varDecl parses `store|create NAME as VALUE` and `store new constant NAME
// as VALUE`; VALUE may be a database query.
func (p *parser) varDecl() ast.Stmt {
	t := p.next()
	d := &ast.VarDecl{Create: t.Kind == token.KeywordCreate}
	if !d.Create && p.kind() == token.KeywordNew {
		p.next()
		if p.atEOF() {
			p.failExpected(t, CodeEOF, "'constant' after 'new'", endOfFile)
		}
		if p.kind() != token.KeywordConstant {
			p.failExpectedHere(CodeExpected, "'constant' after 'new'")
		}
		p.next()
		d.Constant = true
	}
	d.Name = p.declName()
	if p.atEOF() {
		p.failExpected(t, CodeEOF, "'as' after the variable name '"+d.Name.Name+"'", endOfFile)
	}
	if p.kind() != token.KeywordAs {
		p.failExpectedHere(CodeExpected, "'as' after the variable name '"+d.Name.Name+"'")
	}
	p.next()
	if k, ok := p.queryKind(); ok {
		d.Value = p.queryExpr(k)
	} else {
		d.Value = p.expr()
	}
	d.Range = p.rng(t.Start)
	return d
}

// declName parses the name of `store|create NAME as`: an identifier or a
// contextual keyword, then more identifiers.
func (p *parser) declName() *ast.Ident {
	t := p.peek()
	var id *ast.Ident
	switch {
	case t.Kind == token.Identifier:
		id = p.identOf(t)
	case t.Kind == token.IntLiteral || t.Kind == token.FloatLiteral:
		p.failTok(t, CodeExpected, "a number cannot be a variable name: found "+describe(t))
	case t.Kind == token.KeywordAs:
		p.failTok(t, CodeExpected, "expected a variable name before 'as'")
	case t.Kind == token.EOF:
		p.failExpected(t, CodeEOF, "a variable name", endOfFile)
	case t.Kind.IsStructural():
		p.failTok(t, CodeReserved, "'"+t.Kind.Spelling()+"' is a reserved keyword and cannot be a variable name")
	case t.Kind.IsContextual():
		id = p.kwIdent(t)
	default:
		p.failExpectedSaid(t, CodeExpected, "a variable name", t, describeName(t))
	}
	p.next()
	for !p.atEOF() {
		n := p.peek()
		switch n.Kind {
		case token.Identifier:
			p.next()
			id.Name += " " + n.Text
			id.To = n.End
			continue
		case token.KeywordAs:
		default:
			p.failExpected(n, CodeExpected, "'as' after the variable name", n)
		}
		break
	}
	return id
}

// createDate parses `create date|time NAME [as VALUE]`.
func (p *parser) createDate() ast.Stmt {
	t := p.next()
	isTime := p.next().Kind == token.KeywordTime
	name := p.nameWords()
	var v ast.Expr
	if p.got(token.KeywordAs) {
		v = p.expr()
	}
	return &ast.CreateDateStmt{Range: p.rng(t.Start), Time: isTime, Name: name, Value: v}
}

// change parses `change NAME to VALUE`.
func (p *parser) change() ast.Stmt {
	t := p.next()
	var id *ast.Ident
	for !p.atEOF() {
		n := p.peek()
		if n.Kind == token.KeywordTo {
			break
		}
		var w *ast.Ident
		if n.Kind == token.Identifier {
			w = p.identOf(n)
		} else if n.Kind.IsContextual() {
			w = p.kwIdent(n)
		} else if id != nil {
			p.failExpected(n, CodeExpected, "'to' after the variable name", n)
		} else {
			p.failExpected(n, CodeExpected, "a variable name or 'to'", n)
		}
		p.next()
		if id == nil {
			id = w
		} else {
			id.Name += " " + w.Name
			id.To = w.To
		}
	}
	p.expect(token.KeywordTo, "'to' after the variable name in change")
	v := p.expr()
	if id == nil {
		id = p.newIdent(t.End, t.End, "")
	}
	return &ast.AssignStmt{Range: p.rng(t.Start), Kind: ast.AssignChange, Name: id, Value: v}
}

// addStmt parses `add VALUE to NAME`.
func (p *parser) addStmt() ast.Stmt {
	t := p.next()
	v := p.expr()
	if p.atEOF() {
		p.failExpected(t, CodeEOF, "'to' after the value in add", endOfFile)
	}
	if p.kind() != token.KeywordTo {
		p.failExpected(t, CodeExpected, "'to' after the value in add", p.peek())
	}
	p.next()
	name := p.nameWords()
	return &ast.AddStmt{Range: p.rng(t.Start), Value: v, List: name}
}

// subtract parses `subtract VALUE from NAME`.
func (p *parser) subtract() ast.Stmt {
	t, v, name := p.valueFrom()
	return &ast.AssignStmt{Range: p.rng(t.Start), Kind: ast.AssignSubtract, Name: name, Value: v}
}

// multiply parses `multiply|divide NAME by VALUE`.
func (p *parser) multiply() ast.Stmt {
	t := p.next()
	name := p.nameWords()
	p.expect(token.KeywordBy, "'by' after the variable name")
	v := p.expr()
	k := ast.AssignMultiply
	if t.Kind == token.KeywordDivide {
		k = ast.AssignDivide
	}
	return &ast.AssignStmt{Range: p.rng(t.Start), Kind: k, Name: name, Value: v}
}

// valueFrom parses `VERB VALUE from NAME` (subtract, remove) and returns its
// three parts.
func (p *parser) valueFrom() (verb token.Token, v ast.Expr, name *ast.Ident) {
	verb = p.next()
	v = p.expr()
	p.expectOf(token.KeywordFrom, "'from' after the value in ", verb.Kind.Spelling())
	return verb, v, p.nameWords()
}
