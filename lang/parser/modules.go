package parser

// This file parses the module statements: load module, include and export.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// loadStmt parses `load module from PATH` and `include from PATH`.
func (p *parser) loadStmt(include bool) ast.Stmt {
	t := p.next()
	if !include {
		p.expect(token.KeywordModule, "'module' after 'load'")
	}
	p.expectOf(token.KeywordFrom, "'from' after '", map[bool]string{false: "module", true: "include"}[include], "'")
	path := p.expr()
	if !include && p.kind() == token.KeywordAs {
		p.failHere(CodeUnsupported, "module aliases are not supported: write load module from \"path\"")
	}
	return &ast.LoadStmt{Range: p.rng(t.Start), Include: include, Path: path}
}

// exportStmt parses `export container|action|constant NAME`.
func (p *parser) exportStmt() ast.Stmt {
	t := p.next()
	k := p.peek()
	switch k.Kind {
	case token.KeywordContainer, token.KeywordAction, token.KeywordConstant:
		p.next()
	case token.EOF:
		p.failExpected(t, CodeEOF, "'container', 'action' or 'constant' after 'export'", endOfFile)
	default:
		p.failExpected(k, CodeExpected, "'container', 'action' or 'constant' after 'export'", k)
	}
	name := p.identOrEnd("a name after the export kind", t)
	return &ast.ExportStmt{Range: p.rng(t.Start), Kind: k.Kind.Spelling(), Name: name}
}
