package parser

// This file parses wait for, whose forms wait for a write or append of
// content, a process, a request, the next chunk or line of a stream, a
// duration, or any statement.

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// waitStmt parses `wait for …`.
func (p *parser) waitStmt() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordFor, "'for' after 'wait'")
	n := p.peek()
	mode := ast.WriteFileContent
	switch {
	case n.Kind == token.KeywordAppend:
		p.next()
		mode = ast.AppendFileContent
	case n.Kind == token.KeywordWrite || (n.Kind == token.Identifier && n.Text == "write"):
		p.next()
	case n.Kind == token.KeywordProcess:
		p.next()
		s := &ast.WaitProcessStmt{Process: p.primary(false)}
		if c := p.peek(); c.Kind != token.EOF {
			if c.Kind != token.KeywordTo {
				p.failExpected(c, CodeExpected, "'to complete' after the process", c)
			}
			p.next()
		}
		if c := p.peek(); c.Kind != token.EOF {
			if c.Kind != token.Identifier || c.Text != "complete" {
				p.failExpected(c, CodeExpected, "'complete' after 'to'", c)
			}
			p.next()
		}
		if p.got(token.KeywordAs) {
			s.Name = p.nameWords()
		}
		s.Range = p.rng(t.Start)
		return s
	case n.Kind == token.KeywordRequest:
		p.next()
		p.got(token.KeywordThat)
		if c := p.peek(); c.Kind != token.EOF {
			if c.Kind != token.KeywordComes {
				p.failExpected(c, CodeExpected, "'comes' after 'request'", c)
			}
			p.next()
		}
		p.expect(token.KeywordIn, "'in' after 'comes'")
		p.expect(token.KeywordOn, "'on' after 'in'")
		s := &ast.WaitRequestStmt{Server: p.expr()}
		p.expect(token.KeywordAs, "'as' after the server")
		s.Name = p.nameWords()
		if p.got(token.KeywordWith) {
			p.expect(token.KeywordTimeout, "'timeout' after 'with'")
			s.Timeout = p.expr()
		}
		s.Range = p.rng(t.Start)
		return s
	case n.Kind == token.Identifier && (n.Text == "next chunk" || n.Text == "next line" ||
		(n.Text == "next" && p.peekN(1).Kind == token.Identifier && (p.peekN(1).Text == "chunk" || p.peekN(1).Text == "line"))):
		p.next()
		isLine := strings.HasSuffix(n.Text, "line")
		if n.Text == "next" {
			isLine = p.peek().Text != "chunk"
			p.next()
		}
		p.expect(token.KeywordFrom, "'from' after 'next chunk' or 'next line'")
		s := &ast.WaitNextStmt{Line: isLine, Source: p.primary(false)}
		p.expect(token.KeywordAs, "'as' after the stream")
		s.Name = p.nameWords()
		s.Range = p.rng(t.Start)
		return s
	case n.Kind == token.EOF:
		p.failExpected(n, CodeEOF, "what to wait for", endOfFile)
	default:
		save := p.pos
		var d ast.Expr
		if p.speculate(func() { d = p.expr() }) {
			u := p.peek()
			if u.Kind == token.KeywordMilliseconds || (u.Kind == token.Identifier && u.Text == "seconds") {
				p.next()
				unit := "milliseconds"
				if u.Kind == token.Identifier {
					unit = "seconds"
				}
				return &ast.WaitDurationStmt{Range: p.rng(t.Start), Duration: d, Unit: unit}
			}
		}
		p.rewind(save)
		inner := p.statement()
		return &ast.WaitForStmt{Range: p.rng(t.Start), Inner: inner}
	}
	if c := p.peek(); c.Kind == token.KeywordContent || (c.Kind == token.Identifier && c.Text == "content") {
		p.next()
		content := p.expr()
		p.expect(token.KeywordInto, "'into' after the content")
		file := p.expr()
		w := &ast.WriteStmt{Range: p.rng(n.Start), Kind: mode, Content: content, Target: file}
		return &ast.WaitForStmt{Range: p.rng(t.Start), Inner: w}
	}
	p.failExpected(t, CodeExpected, "'content' after 'write' or 'append'", p.peek())
	return nil
}
