package parser

// This file parses the file statements: open (files here; urls and
// databases in web.go and database.go), close, write (content, binary, to;
// write line and chunk are in web.go), create directory, create file,
// delete, and the legacy call statements copy_file, move_file, makedirs,
// remove_file, remove_dir and delete_file.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// openStmt parses `open file [at] PATH …` (for a mode, to read its content,
// or as a handle); `open url` and `open database` go to their own parsers.
func (p *parser) openStmt() ast.Stmt {
	t := p.next()
	switch p.kind() {
	case token.KeywordFile:
		p.next()
	case token.KeywordDatabase:
		return p.openDatabase(t)
	case token.KeywordUrl:
		p.next()
		return p.openURL(t)
	case token.EOF:
		p.failExpected(t, CodeEOF, "'file', 'url' or 'database' after 'open'", endOfFile)
	default:
		p.failExpectedHere(CodeExpected, "'file', 'url' or 'database' after 'open'")
	}
	s := &ast.OpenFileStmt{Mode: ast.ModeRead}
	if p.got(token.KeywordAt) {
		s.Path = p.pathExpr()
		n := p.peek()
		switch n.Kind {
		case token.KeywordFor:
			p.next()
			m := p.peek()
			switch {
			case m.Kind == token.KeywordAppend || m.Kind == token.KeywordAppending:
				p.next()
				s.Mode = ast.ModeAppend
			case m.Kind == token.Identifier && (m.Text == "reading" || m.Text == "writing"):
				p.next()
				bin := p.got(token.KeywordBinary)
				switch {
				case m.Text == "reading" && bin:
					s.Mode = ast.ModeReadBinary
				case m.Text == "reading":
					s.Mode = ast.ModeRead
				case bin:
					s.Mode = ast.ModeWriteBinary
				default:
					s.Mode = ast.ModeWrite
				}
			case m.Kind == token.EOF:
				p.failExpected(n, CodeEOF, "a mode after 'for'", endOfFile)
			default:
				p.failExpected(m, CodeExpected, "'append', 'appending', 'reading' or 'writing' after 'for'", m)
			}
			p.expect(token.KeywordAs, "'as' after the file mode")
			s.Name = p.asName(t)
		case token.KeywordAnd:
			p.next()
			p.expect(token.KeywordRead, "'read' after 'and'")
			p.expect(token.KeywordContent, "'content' after 'read'")
			p.expect(token.KeywordAs, "'as' after 'content'")
			s.ReadContent = true
			if c := p.peek(); c.Kind == token.KeywordContent {
				p.next()
				s.Name = p.kwIdent(c)
			} else {
				s.Name = p.ident("a variable name")
			}
		case token.KeywordAs:
			p.next()
			s.Name = p.asName(t)
		case token.EOF:
			p.failExpected(t, CodeEOF, "'and' or 'as' after the file path", endOfFile)
		default:
			p.failExpected(n, CodeExpected, "'and' or 'as' after the file path", n)
		}
	} else {
		s.Path = p.pathExpr()
		p.expect(token.KeywordAs, "'as' after the file path")
		s.Name = p.asName(t)
	}
	s.Range = p.rng(t.Start)
	return s
}

// pathExpr parses a file path: a primary, then `with` concatenations.
func (p *parser) pathExpr() ast.Expr {
	x := p.primary(false)
	for p.kind() == token.KeywordWith {
		w := p.next()
		r := p.primary(false)
		x = &ast.ConcatExpr{Range: span(x, r.End()), X: x, WithPos: w.Start, Y: r}
	}
	return x
}

// asName consumes `NAME` after `as` (identifier only), reporting at kw at EOF.
func (p *parser) asName(kw token.Token) *ast.Ident {
	return p.identOrEnd("a name after 'as'", kw)
}

// closeStmt parses `close [file|server|database] X`.
func (p *parser) closeStmt() ast.Stmt {
	t := p.next()
	k := ast.CloseFile
	switch p.kind() {
	case token.KeywordServer:
		p.next()
		k = ast.CloseServer
	case token.KeywordDatabase:
		p.next()
		k = ast.CloseDatabase
	case token.KeywordFile:
		p.next()
	}
	x := p.expr()
	return &ast.CloseStmt{Range: p.rng(t.Start), Kind: k, X: x}
}

// writeStmt parses `write content|binary VALUE into FILE` and `write VALUE
// to FILE`; `write line|chunk` goes to streamWrite.
func (p *parser) writeStmt() ast.Stmt {
	if p.atStreamWrite() {
		return p.streamWrite()
	}
	t := p.next()
	n := p.peek()
	switch n.Kind {
	case token.KeywordBinary, token.KeywordContent:
		p.next()
		c := p.expr()
		p.expect(token.KeywordInto, "'into' after the content")
		target := p.primary(false)
		k := ast.WriteContent
		if n.Kind == token.KeywordBinary {
			k = ast.WriteBinaryContent
		}
		return &ast.WriteStmt{Range: p.rng(t.Start), Kind: k, Content: c, Target: target}
	}
	c := p.expr()
	p.expect(token.KeywordTo, "'to' after the content in write")
	target := p.primary(false)
	return &ast.WriteStmt{Range: p.rng(t.Start), Kind: ast.WriteTo, Content: c, Target: target}
}

// createDirectory parses `create directory at PATH`.
func (p *parser) createDirectory() ast.Stmt {
	t := p.next()
	p.next() // directory
	p.expect(token.KeywordAt, "'at' after 'create directory'")
	path := p.primary(false)
	return &ast.CreateDirStmt{Range: p.rng(t.Start), Path: path}
}

// createFile parses `create file at PATH with CONTENT`.
func (p *parser) createFile() ast.Stmt {
	t := p.next()
	p.next() // file
	p.expect(token.KeywordAt, "'at' after 'create file'")
	path := p.primary(false)
	p.expect(token.KeywordWith, "'with' after the file path")
	content := p.expr()
	return &ast.CreateFileStmt{Range: p.rng(t.Start), Path: path, Content: content}
}

// deleteStmt parses `delete file|directory at PATH`.
func (p *parser) deleteStmt() ast.Stmt {
	t := p.next()
	dir := false
	switch p.kind() {
	case token.KeywordFile:
	case token.KeywordDirectory:
		dir = true
	default:
		if p.atEOF() {
			p.failExpected(t, CodeEOF, "'file' or 'directory' after 'delete'", endOfFile)
		}
		p.failExpectedHere(CodeExpected, "'file' or 'directory' after 'delete'")
	}
	p.next()
	p.expectOf(token.KeywordAt, "'at' after 'delete ", map[bool]string{false: "file", true: "directory"}[dir], "'")
	path := p.primary(false)
	return &ast.DeleteStmt{Range: p.rng(t.Start), Dir: dir, Path: path}
}

// copyFile parses the legacy call statements `copy_file|move_file from A to B`.
func (p *parser) copyFile() ast.Stmt {
	t := p.next()
	p.next() // from
	a := p.pathExpr()
	p.expect(token.KeywordTo, "'to' after the source path")
	b := p.pathExpr()
	call := &ast.ActionCallExpr{Range: p.rng(t.Start), Name: p.identOf(t), Args: []*ast.Arg{argOf(a), argOf(b)}, Legacy: true}
	return &ast.ExprStmt{Range: call.Range, X: call}
}

// fileCall parses the legacy call statements `makedirs|remove_file|
// remove_dir|delete_file [at] PATH [recursive|with FLAG]`.
func (p *parser) fileCall() ast.Stmt {
	t := p.next()
	p.got(token.KeywordAt)
	args := []*ast.Arg{argOf(p.primary(false))}
	if m := p.peek(); (m.Kind == token.Identifier && m.Text == "recursive") || m.Kind == token.KeywordWith {
		p.next()
		args = append(args, argOf(p.primary(false)))
	}
	call := &ast.ActionCallExpr{Range: p.rng(t.Start), Name: p.identOf(t), Args: args, Legacy: true}
	return &ast.ExprStmt{Range: call.Range, X: call}
}
