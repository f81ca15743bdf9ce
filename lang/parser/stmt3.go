package parser

// This file parses files, processes, waiting, web and database statements.

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

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
		p.failTok(t, CodeEOF, "expected 'file', 'url' or 'database' after 'open', found end of file")
	default:
		p.failHere(CodeExpected, "expected 'file', 'url' or 'database' after 'open', found "+describe(p.peek()))
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
				p.failTok(n, CodeEOF, "expected a mode after 'for', found end of file")
			default:
				p.failTok(m, CodeExpected, "expected 'append', 'appending', 'reading' or 'writing' after 'for', found "+describe(m))
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
				s.Name = kwIdent(c)
			} else {
				s.Name = p.ident("a variable name")
			}
		case token.KeywordAs:
			p.next()
			s.Name = p.asName(t)
		case token.EOF:
			p.failTok(t, CodeEOF, "expected 'and' or 'as' after the file path, found end of file")
		default:
			p.failTok(n, CodeExpected, "expected 'and' or 'as' after the file path, found "+describe(n))
		}
	} else {
		s.Path = p.pathExpr()
		p.expect(token.KeywordAs, "'as' after the file path")
		s.Name = p.asName(t)
	}
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) openDatabase(start token.Token) ast.Stmt {
	p.next() // database
	p.expect(token.KeywordAt, "'at' after 'database'")
	u := p.primary(false)
	p.expect(token.KeywordAs, "'as' after the database URL")
	name := p.ident("a name after 'as'")
	return &ast.OpenDatabaseStmt{Range: p.rng(start.Start), URL: u, Name: name}
}

func isHTTPClause(t token.Token, w string) bool {
	return t.Kind == token.Identifier && (t.Text == w || strings.HasPrefix(t.Text, w+" "))
}

func (p *parser) openURL(t token.Token) ast.Stmt {
	if p.kind() != token.KeywordAt {
		p.failTok(t, CodeExpected, "expected 'at' after 'url', found "+describe(p.peek()))
	}
	p.next()
	s := &ast.HTTPStmt{Kind: ast.HTTPGet, URL: p.primary(false)}
	varName := func() *ast.Ident {
		n := p.peek()
		switch n.Kind {
		case token.Identifier:
			p.next()
			return identOf(n)
		case token.KeywordContent:
			p.next()
			return kwIdent(n)
		case token.EOF:
			p.failTok(t, CodeEOF, "expected a variable name, found end of file")
		}
		p.failTok(n, CodeExpected, "expected a variable name, found "+describe(n))
		return nil
	}
	for {
		if p.kind() == token.Eol {
			n := 1
			for p.peekN(n).Kind == token.Eol {
				n++
			}
			if k := p.peekN(n).Kind; k == token.KeywordAnd || k == token.KeywordWith {
				for ; n > 0; n-- {
					p.next()
				}
			}
		}
		n := p.peek()
		switch n.Kind {
		case token.KeywordAs:
			p.next()
			s.Name = varName()
			if s.Method != nil || s.Headers != nil || s.Body != nil {
				s.Kind = ast.HTTPRequest
			}
			s.Range = p.rng(t.Start)
			return s
		case token.KeywordAnd, token.KeywordWith:
			p.next()
		case token.EOF:
			p.failTok(t, CodeEOF, "expected 'and read content as NAME', 'and read response as NAME' or 'as NAME' after the URL, found end of file")
		default:
			p.failTok(n, CodeExpected, "expected 'and', 'with' or 'as' after the URL, found "+describe(n))
		}
		c := p.peek()
		switch {
		case c.Kind == token.KeywordRead:
			p.next()
			r := p.peek()
			switch r.Kind {
			case token.KeywordContent:
			case token.KeywordResponse:
				s.FullResponse = true
			case token.EOF:
				p.failTok(t, CodeEOF, "expected 'content' or 'response' after 'read', found end of file")
			default:
				p.failTok(r, CodeExpected, "expected 'content' or 'response' after 'read', found "+describe(r))
			}
			p.next()
			p.expect(token.KeywordAs, "'as' after 'content' or 'response'")
			s.Name = varName()
			if s.Method != nil || s.Headers != nil || s.Body != nil || s.FullResponse {
				s.Kind = ast.HTTPRequest
			}
			s.Range = p.rng(t.Start)
			return s
		case c.Kind == token.Identifier && c.Text == "stream":
			p.next()
			p.expect(token.KeywordResponse, "'response' after 'stream'")
			p.expect(token.KeywordAs, "'as' after 'stream response'")
			s.Name = varName()
			s.Kind = ast.HTTPStream
			s.Range = p.rng(t.Start)
			return s
		case isHTTPClause(c, "method"), isHTTPClause(c, "headers"), isHTTPClause(c, "body"):
			word := c.Text
			if i := strings.IndexByte(word, ' '); i >= 0 {
				word = word[:i]
			}
			slot := map[string]*ast.Expr{"method": &s.Method, "headers": &s.Headers, "body": &s.Body}[word]
			if *slot != nil {
				p.failTok(c, CodeDuplicate, "the '"+word+"' clause is given twice")
			}
			p.next()
			var v ast.Expr
			if len(c.Text) > len(word) {
				v = &ast.Ident{Range: ast.Range{From: c.Start + len(word) + 1, To: c.End}, Name: c.Text[len(word)+1:]}
				if v.Pos() > v.End() {
					v = &ast.Ident{Range: ast.Range{From: c.Start, To: c.End}, Name: c.Text[len(word)+1:]}
				}
			} else {
				v = p.primary(false)
			}
			*slot = p.httpValue(v)
		case c.Kind == token.EOF:
			p.failTok(t, CodeEOF, "expected 'method', 'headers', 'body' or 'read' after 'and', found end of file")
		default:
			p.failTok(c, CodeExpected, "expected 'method', 'headers', 'body' or 'read' after 'and'/'with', found "+describe(c))
		}
	}
}

func (p *parser) httpValue(x ast.Expr) ast.Expr {
	for p.kind() == token.KeywordWith {
		n := p.peekN(1)
		if n.Kind == token.KeywordRead || isHTTPClause(n, "method") || isHTTPClause(n, "headers") || isHTTPClause(n, "body") {
			break
		}
		w := p.next()
		r := p.primary(false)
		x = &ast.ConcatExpr{Range: span(x, r.End()), X: x, WithPos: w.Start, Y: r}
	}
	return x
}

func (p *parser) execCommand(spawn bool) ast.Stmt {
	t := p.next()
	p.expect(token.KeywordCommand, "'command' after '"+t.Kind.Spelling()+"'")
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
	return identOf(p.nextOf(token.Identifier, kw, "a name after 'as'", "a name after 'as'"))
}

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

func (p *parser) readOutput() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordOutput, "'output' after 'read'")
	p.expect(token.KeywordFrom, "'from' after 'read output'")
	p.expect(token.KeywordProcess, "'process' after 'from'")
	s := &ast.ReadOutputStmt{Process: p.primary(false)}
	p.expect(token.KeywordAs, "'as' after the process")
	if p.atEOF() {
		p.failTok(t, CodeEOF, "expected a name after 'as', found end of file")
	}
	n := p.next()
	switch {
	case n.Kind == token.Identifier:
		s.Name = identOf(n)
	case n.Kind == token.KeywordOutput || n.Kind.IsContextual():
		s.Name = kwIdent(n)
	default:
		p.failTok(n, CodeExpected, "expected a name after 'as', found "+describe(n))
	}
	s.Range = p.rng(t.Start)
	return s
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
				p.failTok(c, CodeExpected, "expected 'to complete' after the process, found "+describe(c))
			}
			p.next()
		}
		if c := p.peek(); c.Kind != token.EOF {
			if c.Kind != token.Identifier || c.Text != "complete" {
				p.failTok(c, CodeExpected, "expected 'complete' after 'to', found "+describe(c))
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
				p.failTok(c, CodeExpected, "expected 'comes' after 'request', found "+describe(c))
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
		p.failTok(n, CodeEOF, "expected what to wait for, found end of file")
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
	p.failTok(t, CodeExpected, "expected 'content' after 'write' or 'append', found "+describe(p.peek()))
	return nil
}

func (p *parser) listen() ast.Stmt {
	t := p.next()
	s := &ast.ListenStmt{}
	if p.got(token.KeywordFor) {
		w := p.peek()
		if !(w.Kind == token.Identifier && (w.Text == "websockets" || w.Text == "websocket")) {
			if w.Kind == token.EOF {
				w = t
			}
			p.failTok(w, CodeExpected, "expected 'websockets' after 'listen for', found "+describe(p.peek()))
		}
		p.next()
		p.expect(token.KeywordOn, "'on' after 'listen for websockets'")
		p.expect(token.KeywordPort, "'port' after 'listen for websockets on'")
		s.WebSocket = true
		s.Port = p.expr()
		p.expect(token.KeywordAs, "'as' after the websocket port")
		s.Name = p.nameWords()
		s.Range = p.rng(t.Start)
		return s
	}
	p.expect(token.KeywordOn, "'on' after 'listen'")
	p.expect(token.KeywordPort, "'port' after 'listen on'")
	marker := ""
	if n := p.peek(); n.Kind == token.Identifier {
		for _, c := range []string{"secured", "redirecting"} {
			if strings.HasSuffix(n.Text, " "+c) {
				marker = c
				name := strings.TrimSuffix(n.Text, " "+c)
				s.Port = &ast.Ident{Range: ast.Range{From: n.Start, To: n.End}, Name: name}
				p.next()
				break
			}
		}
	}
	if s.Port == nil {
		s.Port = p.expr()
	}
	if marker == "" {
		if n := p.peek(); n.Kind == token.Identifier && (n.Text == "secured" || n.Text == "redirecting") {
			p.next()
			marker = n.Text
		}
	}
	switch marker {
	case "secured":
		s.Secured = true
		if p.got(token.KeywordWith) {
			s.Cert = p.tlsPath("certificate")
			p.expect(token.KeywordAnd, "'and key …' after the certificate path")
			s.Key = p.tlsPath("key")
		}
		if n := p.peek(); n.Kind == token.Identifier && (n.Text == "redirecting" || strings.HasPrefix(n.Text, "redirecting ")) {
			p.failTok(n, CodeUnexpected, "'secured' and 'redirecting to port' cannot be combined")
		}
	case "redirecting":
		p.expect(token.KeywordTo, "'to' after 'redirecting'")
		p.expect(token.KeywordPort, "'port' after 'redirecting to'")
		s.Redirect = p.primary(false)
	}
	p.expect(token.KeywordAs, "'as' after the port")
	s.Name = p.nameWords()
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) tlsPath(marker string) ast.Expr {
	n := p.peek()
	if n.Kind == token.Identifier {
		if n.Text == marker {
			p.next()
			return p.primary(false)
		}
		if strings.HasPrefix(n.Text, marker+" ") {
			p.next()
			return &ast.Ident{Range: ast.Range{From: n.Start, To: n.End}, Name: n.Text[len(marker)+1:]}
		}
	}
	p.failHere(CodeExpected, "expected '"+marker+"' and a file path, found "+describe(n))
	return nil
}

func (p *parser) respond() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordTo, "'to' after 'respond'")
	s := &ast.RespondStmt{Request: p.primary(false)}
	p.expect(token.KeywordWith, "'with' after the request")
	s.Content = p.primary(false)
	for p.kind() == token.KeywordAnd {
		n := p.peekN(1)
		switch {
		case n.Kind == token.KeywordStatus:
			p.next()
			p.next()
			s.Status = p.primary(false)
		case n.Kind == token.Identifier && (n.Text == "content_type" || n.Text == "content" ||
			strings.HasPrefix(n.Text, "content_type ") || strings.HasPrefix(n.Text, "content type")):
			p.next()
			p.next()
			var rest string
			if strings.HasPrefix(n.Text, "content_type") {
				rest = strings.TrimLeft(n.Text[len("content_type"):], " ")
			} else {
				rest = strings.TrimLeft(n.Text[len("content"):], " ")
				rest = strings.TrimLeft(strings.TrimPrefix(rest, "type"), " ")
			}
			if rest == "" {
				if ty := p.peek(); n.Text == "content" && ty.Kind == token.Identifier && ty.Text == "type" {
					p.next()
				}
				s.ContentType = p.primary(false)
			} else {
				s.ContentType = &ast.Ident{Range: ast.Range{From: n.Start, To: n.End}, Name: rest}
			}
		case isHTTPClause(n, "headers"):
			p.next()
			p.next()
			if rest := strings.TrimLeft(n.Text[len("headers"):], " "); rest != "" {
				s.Headers = &ast.Ident{Range: ast.Range{From: n.Start, To: n.End}, Name: rest}
			} else {
				s.Headers = p.primary(false)
			}
		default:
			s.Range = p.rng(t.Start)
			return s
		}
	}
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) startStream() ast.Stmt {
	t := p.next()
	p.next() // streaming
	p.expect(token.KeywordResponse, "'response' after 'start streaming'")
	p.expect(token.KeywordTo, "'to REQUEST' after 'start streaming response'")
	s := &ast.StartStreamStmt{Request: p.primary(false)}
loop:
	for k := p.kind(); k == token.KeywordWith || k == token.KeywordAnd; k = p.kind() {
		n := p.peekN(1)
		switch {
		case n.Kind == token.KeywordStatus:
			p.next()
			p.next()
			s.Status = p.seeded(p.primary(true), true)
		case n.Kind == token.KeywordContent:
			p.next()
			p.next()
			if ty := p.peek(); ty.Kind == token.Identifier && (ty.Text == "type" || strings.HasPrefix(ty.Text, "type ")) {
				p.next()
				if rest := strings.TrimLeft(ty.Text[4:], " "); rest != "" {
					s.ContentType = p.seeded(&ast.Ident{Range: ast.Range{From: ty.Start, To: ty.End}, Name: rest}, true)
					continue
				}
			}
			s.ContentType = p.seeded(p.primary(true), true)
		case n.Kind == token.Identifier && (n.Text == "content_type" || strings.HasPrefix(n.Text, "content_type ") || strings.HasPrefix(n.Text, "content type")):
			p.next()
			p.next()
			rest := strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(n.Text, "content_type"), "content type"), " ")
			if rest == "" {
				s.ContentType = p.seeded(p.primary(true), true)
			} else {
				s.ContentType = p.seeded(&ast.Ident{Range: ast.Range{From: n.Start, To: n.End}, Name: rest}, true)
			}
		case isHTTPClause(n, "headers"):
			p.next()
			p.next()
			if rest := strings.TrimLeft(n.Text[len("headers"):], " "); rest != "" {
				s.Headers = p.seeded(&ast.Ident{Range: ast.Range{From: n.Start, To: n.End}, Name: rest}, true)
			} else {
				s.Headers = p.seeded(p.primary(true), true)
			}
		case n.Kind == token.KeywordAs:
			p.next()
			break loop
		default:
			break loop
		}
	}
	p.expect(token.KeywordAs, "'as NAME' after 'start streaming response …'")
	s.Name = p.nameWords()
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) flush() ast.Stmt {
	t := p.next()
	rest := strings.TrimLeft(strings.TrimPrefix(t.Text, "flush"), " ")
	var target ast.Expr
	if rest == "" {
		target = p.seeded(p.primary(false), false)
	} else {
		target = p.seeded(&ast.Ident{Range: ast.Range{From: t.Start, To: t.End}, Name: rest}, false)
	}
	return &ast.FlushStmt{Range: p.rng(t.Start), Target: target}
}

func (p *parser) wsHandler() ast.Stmt {
	t := p.next()
	n := p.peek()
	event := ""
	switch n.Text {
	case "websocket connect":
		event = "connect"
	case "websocket message":
		event = "message"
	case "websocket disconnect":
		event = "disconnect"
	default:
		p.failTok(n, CodeExpected, "expected 'websocket connect', 'websocket message' or 'websocket disconnect', found "+describe(n))
	}
	p.next()
	switch p.kind() {
	case token.KeywordTo, token.KeywordFrom:
		p.next()
	case token.EOF:
		p.failTok(t, CodeEOF, "expected 'to' or 'from' after the websocket event, found end of file")
	default:
		p.failHere(CodeExpected, "expected 'to' or 'from' after the websocket event, found "+describe(p.peek()))
	}
	s := &ast.WebSocketHandlerStmt{Event: event, Server: p.primary(false)}
	p.expect(token.KeywordAs, "'as NAME' after the websocket server")
	s.Name = p.nameWords()
	p.expect(token.Colon, "':' after the websocket handler name")
	s.Body = p.block(p.lastEnd, stopEnd)
	if p.atEOF() {
		p.failTok(t, CodeEOF, "expected 'end on' to close the websocket handler, found end of file")
	}
	p.closeBlock(token.KeywordOn, "websocket handler")
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) wsSend(broadcast bool) ast.Stmt {
	t := p.next()
	prefix := "send websocket message"
	if broadcast {
		prefix = "broadcast websocket message"
	}
	rest := strings.TrimLeft(strings.TrimPrefix(t.Text, prefix), " ")
	s := &ast.WebSocketSendStmt{Broadcast: broadcast}
	if rest == "" {
		s.Message = p.expr()
	} else {
		left := &ast.Ident{Range: ast.Range{From: t.Start, To: t.End}, Name: rest}
		switch p.kind() {
		case token.KeywordOf:
			p.next()
			obj := p.primary(false)
			s.Message = &ast.CallExpr{Range: p.rng(t.Start), Fun: left, Args: []*ast.Arg{argOf(obj)}}
		case token.KeywordTo:
			s.Message = left
		default:
			p.failHere(CodeUnexpected, "a computed websocket message must be stored in a variable first; found "+describe(p.peek()))
		}
	}
	p.expect(token.KeywordTo, "'to' after the websocket message")
	s.Target = p.expr()
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) transaction() ast.Stmt {
	t := p.next()
	p.next() // transaction
	p.expect(token.KeywordOn, "'on' after 'in transaction'")
	s := &ast.TransactionStmt{DB: p.primary(false)}
	p.expect(token.Colon, "':' after the database of the transaction")
	p.skipEol()
	s.Body = p.block(p.lastEnd, stopEnd)
	p.expect(token.KeywordEnd, "'end transaction' to close the transaction")
	if n := p.peek(); !(n.Kind == token.Identifier && strings.EqualFold(n.Text, "transaction")) {
		p.failHere(CodeExpected, "expected 'transaction' after 'end', found "+describe(n))
	}
	p.next()
	s.Range = p.rng(t.Start)
	return s
}

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

func (p *parser) queryExpr(k ast.QueryKind) ast.Expr {
	t := p.next()
	q := &ast.DatabaseQueryExpr{Kind: k}
	if k == ast.QueryQuery {
		q.DB = &ast.Ident{Range: ast.Range{From: t.Start, To: t.End}, Name: t.Text[len("query "):]}
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

// atStreamWrite reports whether the `write` about to be parsed is `write
// line|chunk VALUE to STREAM`: the word after `write` is line or chunk (or a
// multi-word name starting with them), and no operator follows a lone one.
func (p *parser) atStreamWrite() bool {
	n := p.peekN(1)
	marker := n.Kind == token.Identifier && (n.Text == "line" || n.Text == "chunk" ||
		strings.HasPrefix(n.Text, "line ") || strings.HasPrefix(n.Text, "chunk "))
	if marker && (n.Text == "line" || n.Text == "chunk") {
		switch p.peekN(2).Kind {
		case token.KeywordTo, token.KeywordWith, token.KeywordAt, token.Dot, token.LeftBracket, token.KeywordOf,
			token.Plus, token.KeywordPlus, token.Minus, token.KeywordMinus, token.KeywordTimes, token.KeywordDividedBy,
			token.KeywordDivided, token.Slash, token.Percent, token.KeywordModulo, token.Equals, token.KeywordIs,
			token.KeywordAnd, token.KeywordOr, token.KeywordMatches, token.KeywordContains, token.KeywordFind,
			token.KeywordReplace, token.KeywordSplit, token.KeywordStarts, token.KeywordEnds, token.Colon:
			marker = false
		}
	}
	return marker
}

// streamWrite parses `write line|chunk VALUE to STREAM`.
func (p *parser) streamWrite() ast.Stmt {
	t := p.next()
	n := p.next()
	isLine := strings.HasPrefix(n.Text, "line")
	word := "chunk"
	if isLine {
		word = "line"
	}
	rest := strings.TrimLeft(n.Text[len(word):], " ")
	var v ast.Expr
	if rest == "" {
		v = p.seeded(p.primary(false), false)
	} else {
		v = p.seeded(&ast.Ident{Range: ast.Range{From: n.Start, To: n.End}, Name: rest}, false)
	}
	p.expect(token.KeywordTo, "'to STREAM' after the value of 'write "+word+"'")
	target := p.primary(false)
	k := ast.WriteChunk
	if isLine {
		k = ast.WriteLine
	}
	return &ast.WriteStmt{Range: p.rng(t.Start), Kind: k, Content: v, Target: target}
}
