package parser

// This file parses the web statements: open url (get, request, stream),
// listen on port, respond, start streaming response, write line and write
// chunk, flush, the websocket handlers, send and broadcast, and stop
// accepting connections.

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// openURL parses what follows `open url`: `at URL`, the method, headers
// and body clauses, and `as NAME`, `and read content|response as NAME` or
// `and stream response as NAME`; t is the `open`.
func (p *parser) openURL(t token.Token) ast.Stmt {
	if p.kind() != token.KeywordAt {
		p.failExpected(t, CodeExpected, "'at' after 'url'", p.peek())
	}
	p.next()
	s := &ast.HTTPStmt{Kind: ast.HTTPGet, URL: p.primary(false)}
	varName := func() *ast.Ident {
		n := p.peek()
		switch n.Kind {
		case token.Identifier:
			p.next()
			return p.identOf(n)
		case token.KeywordContent:
			p.next()
			return p.kwIdent(n)
		case token.EOF:
			p.failExpected(t, CodeEOF, "a variable name", endOfFile)
		}
		p.failExpected(n, CodeExpected, "a variable name", n)
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
			p.failExpected(t, CodeEOF, "'and read content as NAME', 'and read response as NAME' or 'as NAME' after the URL", endOfFile)
		default:
			p.failExpected(n, CodeExpected, "'and', 'with' or 'as' after the URL", n)
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
				p.failExpected(t, CodeEOF, "'content' or 'response' after 'read'", endOfFile)
			default:
				p.failExpected(r, CodeExpected, "'content' or 'response' after 'read'", r)
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
				v = p.tailIdent(c, c.Text[len(word)+1:])
			} else {
				v = p.primary(false)
			}
			*slot = p.httpValue(v)
		case c.Kind == token.EOF:
			p.failExpected(t, CodeEOF, "'method', 'headers', 'body' or 'read' after 'and'", endOfFile)
		default:
			p.failExpected(c, CodeExpected, "'method', 'headers', 'body' or 'read' after 'and'/'with'", c)
		}
	}
}

// isHTTPClause reports whether t is the clause word w, alone or starting a
// multi-word name.
func isHTTPClause(t token.Token, w string) bool {
	return t.Kind == token.Identifier && (t.Text == w || strings.HasPrefix(t.Text, w+" "))
}

// httpValue continues a clause's value x with `with` concatenations, up
// to the next clause.
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

// listen parses `listen on port P [secured [with certificate C and key K]
// | redirecting to port Q] as NAME` and `listen for websockets on port P
// as NAME`.
func (p *parser) listen() ast.Stmt {
	t := p.next()
	s := &ast.ListenStmt{}
	if p.got(token.KeywordFor) {
		w := p.peek()
		if !(w.Kind == token.Identifier && (w.Text == "websockets" || w.Text == "websocket")) {
			if w.Kind == token.EOF {
				w = t
			}
			p.failExpected(w, CodeExpected, "'websockets' after 'listen for'", p.peek())
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
				s.Port = p.headIdent(n, name)
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

// tlsPath parses `certificate PATH` or `key PATH` (marker is the word).
func (p *parser) tlsPath(marker string) ast.Expr {
	n := p.peek()
	if n.Kind == token.Identifier {
		if n.Text == marker {
			p.next()
			return p.primary(false)
		}
		if strings.HasPrefix(n.Text, marker+" ") {
			p.next()
			return p.tailIdent(n, n.Text[len(marker)+1:])
		}
	}
	p.failExpectedHere(CodeExpected, "'"+marker+"' and a file path")
	return nil
}

// respond parses `respond to REQUEST with CONTENT [and status S] [and
// content_type T] [and headers H]`.
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
				s.ContentType = p.tailIdent(n, rest)
			}
		case isHTTPClause(n, "headers"):
			p.next()
			p.next()
			if rest := strings.TrimLeft(n.Text[len("headers"):], " "); rest != "" {
				s.Headers = p.tailIdent(n, rest)
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

// startStream parses `start streaming response to REQUEST [with status S]
// [and content type T] [and headers H] as NAME`.
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
					s.ContentType = p.seeded(p.tailIdent(ty, rest), true)
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
				s.ContentType = p.seeded(p.tailIdent(n, rest), true)
			}
		case isHTTPClause(n, "headers"):
			p.next()
			p.next()
			if rest := strings.TrimLeft(n.Text[len("headers"):], " "); rest != "" {
				s.Headers = p.seeded(p.tailIdent(n, rest), true)
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
	var classic *ast.Ident
	if rest == "" {
		v = p.seeded(p.primary(false), false)
	} else {
		start := p.pos
		v = p.seeded(p.tailIdent(n, rest), false)
		classic = p.sameReading(n, start)
	}
	p.expectOf(token.KeywordTo, "'to STREAM' after the value of 'write ", word, "'")
	target := p.primary(false)
	k := ast.WriteChunk
	if isLine {
		k = ast.WriteLine
	}
	return &ast.WriteStmt{Range: p.rng(t.Start), Kind: k, Content: v, Target: target, Classic: classic}
}

// sameReading returns the merged token n as one name when an operand led by
// it reads the tokens from start to where the operand just parsed ends, as
// the reference's second reading of `write line NAME …` must; else nil. What
// it parses is dropped.
func (p *parser) sameReading(n token.Token, start int) *ast.Ident {
	end, last, nd := p.pos, p.lastEnd, len(p.diags)
	p.pos = start
	if start > 0 {
		p.lastEnd = p.toks[start-1].End
	}
	id := p.identOf(n)
	same := p.speculate(func() { p.seeded(id, false) }) && p.pos == end && len(p.diags) == nd
	p.diags, p.raised = p.diags[:nd], p.raised[:nd]
	p.pos, p.lastEnd = end, last
	if !same {
		return nil
	}
	return id
}

// flush parses `flush STREAM`.
func (p *parser) flush() ast.Stmt {
	t := p.next()
	rest := strings.TrimLeft(strings.TrimPrefix(t.Text, "flush"), " ")
	var target ast.Expr
	if rest == "" {
		target = p.seeded(p.primary(false), false)
	} else {
		target = p.seeded(p.tailIdent(t, rest), false)
	}
	return &ast.FlushStmt{Range: p.rng(t.Start), Target: target, Legacy: p.identOf(t)}
}

// wsHandler parses `on websocket connect|message|disconnect to|from SERVER
// as NAME: … end on`.
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
		p.failExpected(n, CodeExpected, "'websocket connect', 'websocket message' or 'websocket disconnect'", n)
	}
	p.next()
	switch p.kind() {
	case token.KeywordTo, token.KeywordFrom:
		p.next()
	case token.EOF:
		p.failExpected(t, CodeEOF, "'to' or 'from' after the websocket event", endOfFile)
	default:
		p.failExpectedHere(CodeExpected, "'to' or 'from' after the websocket event")
	}
	s := &ast.WebSocketHandlerStmt{Event: event, Server: p.primary(false)}
	p.expect(token.KeywordAs, "'as NAME' after the websocket server")
	s.Name = p.nameWords()
	p.expect(token.Colon, "':' after the websocket handler name")
	fr := p.openFrame(token.KeywordOn, func() {
		if p.atEOF() {
			p.failExpected(t, CodeEOF, "'end on' to close the websocket handler", endOfFile)
		}
		p.closeBlock(token.KeywordOn, "websocket handler")
	})
	s.Body = p.block(p.lastEnd, stopEnd)
	p.closeFrame(fr)
	s.Range = p.rng(t.Start)
	return s
}

// wsSend parses `send websocket message M to CLIENT` and `broadcast
// websocket message M to SERVER`.
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
		left := p.tailIdent(t, rest)
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

// stopAccepting parses `stop accepting connections on SERVER`.
func (p *parser) stopAccepting() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordAccepting, "'accepting' after 'stop'")
	p.expect(token.KeywordConnections, "'connections' after 'accepting'")
	p.expect(token.KeywordOn, "'on' after 'connections'")
	s := p.expr()
	return &ast.StopAcceptingStmt{Range: p.rng(t.Start), Server: s}
}
