package parser

// This file parses the database statements: open database, connect to
// database, in transaction, and the query and execute forms of a value.

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// openDatabase parses `database at URL as NAME` after `open` or `connect
// to` (start is the first word).
func (p *parser) openDatabase(start token.Token) ast.Stmt {
	p.next() // database
	p.expect(token.KeywordAt, "'at' after 'database'")
	u := p.primary(false)
	p.expect(token.KeywordAs, "'as' after the database URL")
	name := p.ident("a name after 'as'")
	return &ast.OpenDatabaseStmt{Range: p.rng(start.Start), URL: u, Name: name}
}

// transaction parses `in transaction on DB: … end transaction`.
func (p *parser) transaction() ast.Stmt {
	t := p.next()
	p.next() // transaction
	p.expect(token.KeywordOn, "'on' after 'in transaction'")
	s := &ast.TransactionStmt{DB: p.primary(false)}
	fr := p.openFrame(0, func() {
		p.expect(token.KeywordEnd, "'end transaction' to close the transaction")
		if n := p.peek(); !(n.Kind == token.Identifier && strings.EqualFold(n.Text, "transaction")) {
			p.failExpectedHere(CodeExpected, "'transaction' after 'end'")
		}
		p.next()
	})
	fr.kw, fr.word, fr.closer = token.Identifier, "transaction", "end transaction"
	s.Body = p.colonBlock("the database of the transaction", stopEnd)
	p.closeFrame(fr)
	s.Range = p.rng(t.Start)
	return s
}

// queryKind reports whether a database query value starts here: `query DB
// with` or `execute DB with`.
func (p *parser) queryKind() (ast.QueryKind, bool) {
	t := p.peek()
	switch {
	case t.Kind == token.Identifier && strings.HasPrefix(t.Text, "query ") && p.peekN(1).Kind == token.KeywordWith:
		return ast.QueryQuery, true
	case t.Kind == token.KeywordExecute && p.peekN(1).Kind == token.Identifier && p.peekN(2).Kind == token.KeywordWith:
		return ast.QueryExecute, true
	}
	return 0, false
}

// queryExpr parses `query|execute DB with SQL [and parameters P]`.
func (p *parser) queryExpr(k ast.QueryKind) ast.Expr {
	t := p.next()
	q := &ast.DatabaseQueryExpr{Kind: k}
	if k == ast.QueryQuery {
		q.DB = p.tailIdent(t, t.Text[len("query "):])
	} else {
		q.DB = p.primary(false)
	}
	p.expect(token.KeywordWith, "'with' after the database handle")
	q.SQL = p.primary(false)
	if p.kind() == token.KeywordAnd && p.peekN(1).Kind == token.KeywordParameters {
		p.next()
		p.next()
		q.Params = p.primary(false)
	}
	q.Range = p.rng(t.Start)
	return q
}
