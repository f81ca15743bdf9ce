package parser

// This file parses the process statements: execute command, spawn command,
// execute file, read output from process, kill process and register signal
// handler.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// execCommand parses `execute|spawn command C [with arguments A] [using
// shell] [as NAME]` (spawn needs the name).
func (p *parser) execCommand(spawn bool) ast.Stmt {
	t := p.next()
	p.expectOf(token.KeywordCommand, "'command' after '", t.Kind.Spelling(), "'")
	s := &ast.ExecCommandStmt{Spawn: spawn, Command: p.primary(false)}
	if p.got(token.KeywordWith) {
		p.expect(token.KeywordArguments, "'arguments' after 'with'")
		s.Args = p.primary(false)
	}
	if p.got(token.KeywordUsing) {
		p.expect(token.KeywordShell, "'shell' after 'using'")
		s.Shell = true
	}
	if spawn {
		p.expect(token.KeywordAs, "'as' after the spawn command")
		s.Name = p.asNameAny(t)
	} else if p.got(token.KeywordAs) {
		s.Name = p.asNameAny(t)
	}
	s.Range = p.rng(t.Start)
	return s
}

// asNameAny consumes the next token, which must be an identifier.
func (p *parser) asNameAny(kw token.Token) *ast.Ident {
	return p.identOf(p.nextOf(token.Identifier, kw, "a name after 'as'", "a name after 'as'"))
}

// execFile parses `execute [wfl] file at PATH [with REQUEST] [and read
// output as NAME]`.
func (p *parser) execFile() ast.Stmt {
	t := p.next()
	if n := p.peek(); n.Kind == token.Identifier && n.Text == "wfl" {
		p.next()
	}
	p.expect(token.KeywordFile, "'file' after 'execute'")
	p.expect(token.KeywordAt, "'at' after 'execute file'")
	s := &ast.ExecFileStmt{Path: p.primary(false)}
	if p.got(token.KeywordWith) {
		s.Request = p.primary(false)
	}
	if p.got(token.KeywordAnd) {
		p.expect(token.KeywordRead, "'read' after 'and'")
		p.expect(token.KeywordOutput, "'output' after 'read'")
		p.expect(token.KeywordAs, "'as' after 'read output'")
		s.Name = p.asNameAny(t)
	}
	s.Range = p.rng(t.Start)
	return s
}

// readOutput parses `read output from process P as NAME`.
func (p *parser) readOutput() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordOutput, "'output' after 'read'")
	p.expect(token.KeywordFrom, "'from' after 'read output'")
	p.expect(token.KeywordProcess, "'process' after 'from'")
	s := &ast.ReadOutputStmt{Process: p.primary(false)}
	p.expect(token.KeywordAs, "'as' after the process")
	if p.atEOF() {
		p.failExpected(t, CodeEOF, "a name after 'as'", endOfFile)
	}
	n := p.next()
	switch {
	case n.Kind == token.Identifier:
		s.Name = p.identOf(n)
	case n.Kind == token.KeywordOutput || n.Kind.IsContextual():
		s.Name = p.kwIdent(n)
	default:
		p.failExpected(n, CodeExpected, "a name after 'as'", n)
	}
	s.Range = p.rng(t.Start)
	return s
}

// kill parses `kill process PID`.
func (p *parser) kill() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordProcess, "'process' after 'kill'")
	pid := p.primary(false)
	return &ast.KillStmt{Range: p.rng(t.Start), Process: pid}
}

// signalHandler parses `register signal handler for SIGNAL as HANDLER`.
func (p *parser) signalHandler() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordSignal, "'signal' after 'register'")
	p.expect(token.KeywordHandler, "'handler' after 'signal'")
	p.expect(token.KeywordFor, "'for' after 'handler'")
	sig := p.nextOf(token.Identifier, t, "a signal name", "a signal name (SIGINT, SIGTERM, …)")
	p.expect(token.KeywordAs, "'as' after the signal name")
	h := p.nameWords()
	return &ast.SignalStmt{Range: p.rng(t.Start), Signal: p.identOf(sig), Handler: h}
}
