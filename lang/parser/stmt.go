package parser

// This file parses statements, dispatching on the first token as the
// reference parser does.

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

func (p *parser) statement() ast.Stmt {
	p.enter()
	defer p.leave()
	t := p.peek()
	switch t.Kind {
	case token.KeywordStore:
		return p.varDecl()
	case token.KeywordLoad:
		return p.loadStmt(false)
	case token.KeywordInclude:
		return p.loadStmt(true)
	case token.KeywordExport:
		return p.exportStmt()
	case token.KeywordCreate:
		switch p.peekN(1).Kind {
		case token.KeywordContainer:
			return p.containerDecl()
		case token.KeywordInterface:
			return p.interfaceDecl()
		case token.KeywordNew:
			return p.newStmt()
		case token.KeywordPattern:
			return p.patternDecl()
		case token.KeywordDirectory:
			return p.createDirectory()
		case token.KeywordFile:
			return p.createFile()
		case token.KeywordList:
			return p.createList()
		case token.KeywordMap:
			return p.createMap()
		case token.KeywordDate, token.KeywordTime:
			return p.createDate()
		}
		return p.varDecl()
	case token.KeywordDisplay:
		return p.display()
	case token.KeywordCheck:
		return p.checkIf(false)
	case token.KeywordIf:
		return p.ifThen()
	case token.KeywordCount:
		return p.countLoop()
	case token.KeywordFor:
		return p.forEach()
	case token.KeywordRoute:
		return p.route()
	case token.KeywordDefine:
		return p.actionDecl()
	case token.KeywordChange:
		return p.change()
	case token.KeywordAdd:
		return p.addStmt()
	case token.KeywordSubtract:
		return p.subtract()
	case token.KeywordMultiply, token.KeywordDivide:
		return p.multiply()
	case token.KeywordRemove:
		return p.remove()
	case token.KeywordClear:
		return p.clear()
	case token.KeywordTry:
		return p.tryStmt()
	case token.KeywordIn:
		if n := p.peekN(1); n.Kind == token.Identifier && strings.EqualFold(n.Text, "transaction") {
			return p.transaction()
		}
	case token.KeywordRepeat:
		return p.repeat()
	case token.KeywordExit:
		return p.exit()
	case token.KeywordPush:
		return p.push()
	case token.KeywordEvent:
		return p.eventDecl()
	case token.KeywordTrigger:
		return p.trigger()
	case token.KeywordOn:
		if n := p.peekN(1); n.Kind == token.Identifier && strings.HasPrefix(n.Text, "websocket") {
			return p.wsHandler()
		}
		return p.onEvent()
	case token.KeywordParent:
		return p.parentCall()
	case token.KeywordBreak, token.KeywordContinue, token.KeywordSkip:
		return p.branch()
	case token.KeywordOpen:
		return p.openStmt()
	case token.KeywordExecute:
		if n := p.peekN(1); n.Kind == token.KeywordFile || (n.Kind == token.Identifier && n.Text == "wfl") {
			return p.execFile()
		}
		return p.execCommand(false)
	case token.KeywordSpawn:
		return p.execCommand(true)
	case token.KeywordKill:
		return p.kill()
	case token.KeywordRead:
		if p.peekN(1).Kind == token.KeywordOutput {
			return p.readOutput()
		}
		if p.pos+1 >= len(p.toks) {
			p.failTok(t, CodeEOF, "unexpected 'read' at the end of the file")
		}
		p.failTok(t, CodeUnexpected, "unexpected 'read' at the start of a statement: did you mean 'read output from process'?")
	case token.KeywordClose:
		return p.closeStmt()
	case token.KeywordDelete:
		return p.deleteStmt()
	case token.KeywordWrite:
		return p.writeStmt()
	case token.KeywordWait:
		return p.waitStmt()
	case token.KeywordListen:
		return p.listen()
	case token.KeywordRespond:
		return p.respond()
	case token.KeywordRegister:
		return p.signalHandler()
	case token.KeywordStop:
		return p.stopAccepting()
	case token.KeywordGive, token.KeywordReturn:
		return p.returnStmt()
	case token.KeywordStart:
		if n := p.peekN(1); n.Kind == token.Identifier && n.Text == "streaming" {
			return p.startStream()
		}
	case token.KeywordDescribe:
		return p.describe()
	case token.KeywordTest:
		return p.testBlock()
	case token.KeywordExpect:
		return p.expectStmt()
	case token.Identifier:
		id := t.Text
		n := p.peekN(1)
		switch {
		case strings.HasPrefix(id, "flush "):
			return p.flush()
		case id == "flush" && (n.Kind == token.LeftParen || n.Kind == token.KeywordCall):
			return p.flush()
		case strings.HasPrefix(id, "send websocket message"):
			return p.wsSend(false)
		case strings.HasPrefix(id, "broadcast websocket message"):
			return p.wsSend(true)
		case id == "connect" && n.Kind == token.KeywordTo && p.peekN(2).Kind == token.KeywordDatabase:
			p.next()
			p.next()
			return p.openDatabase(t)
		case (id == "copy_file" || id == "move_file") && n.Kind == token.KeywordFrom:
			return p.copyFile()
		case (id == "makedirs" || id == "remove_file" || id == "remove_dir" || id == "delete_file") &&
			(n.Kind == token.StringLiteral || n.Kind == token.KeywordAt || n.Kind == token.Identifier):
			return p.fileCall()
		case id == "main" && n.Kind == token.KeywordLoop:
			return p.mainLoop()
		}
	case token.EOF:
		p.failTok(t, CodeEOF, "unexpected end of file")
	}
	x := p.expr()
	return &ast.ExprStmt{Range: ast.Range{From: x.Pos(), To: x.End()}, X: x}
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

// addStmt parses `add VALUE to NAME`.
func (p *parser) addStmt() ast.Stmt {
	t := p.next()
	v := p.expr()
	if p.atEOF() {
		p.failTok(t, CodeEOF, "expected 'to' after the value in add, found end of file")
	}
	if p.kind() != token.KeywordTo {
		p.failTok(t, CodeExpected, "expected 'to' after the value in add, found "+describe(p.peek()))
	}
	p.next()
	name := p.nameWords()
	return &ast.AddStmt{Range: p.rng(t.Start), Value: v, List: name}
}

// subtract parses `subtract VALUE from NAME`.
func (p *parser) subtract() ast.Stmt {
	t := p.next()
	v := p.expr()
	p.expect(token.KeywordFrom, "'from' after the value in subtract")
	name := p.nameWords()
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

// remove parses `remove VALUE from LIST`.
func (p *parser) remove() ast.Stmt {
	t := p.next()
	v := p.expr()
	p.expect(token.KeywordFrom, "'from' after the value in remove")
	name := p.nameWords()
	return &ast.RemoveStmt{Range: p.rng(t.Start), Value: v, List: name}
}

// clear parses `clear LIST [list]`.
func (p *parser) clear() ast.Stmt {
	t := p.next()
	name := p.nameWords()
	p.got(token.KeywordList)
	return &ast.ClearStmt{Range: p.rng(t.Start), List: name}
}

// exit parses `exit`, `exit loop` and `exit program`.
func (p *parser) exit() ast.Stmt {
	t := p.next()
	prog := false
	switch n := p.peek(); {
	case n.Kind == token.KeywordLoop:
		p.next()
	case n.Kind == token.Identifier && strings.EqualFold(n.Text, "loop"):
		p.next()
	case n.Kind == token.Identifier && strings.EqualFold(n.Text, "program"):
		p.next()
		prog = true
	}
	return &ast.ExitStmt{Range: p.rng(t.Start), Program: prog}
}

// branch parses `break`, `continue` and `skip`.
func (p *parser) branch() ast.Stmt {
	t := p.next()
	if t.Kind == token.KeywordBreak {
		return &ast.BranchStmt{Range: p.rng(t.Start), Kind: ast.Break}
	}
	return &ast.BranchStmt{Range: p.rng(t.Start), Kind: ast.Continue}
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

// eventDecl parses `event NAME` outside a container.
func (p *parser) eventDecl() ast.Stmt {
	t := p.next()
	name := p.identOrEnd("an event name", t)
	return &ast.EventDecl{Range: p.rng(t.Start), Name: name}
}

// trigger parses `trigger NAME`.
func (p *parser) trigger() ast.Stmt {
	t := p.next()
	name := p.identOrEnd("an event name", t)
	return &ast.TriggerStmt{Range: p.rng(t.Start), Name: name}
}

// onEvent parses `on SOURCE EVENT`.
func (p *parser) onEvent() ast.Stmt {
	t := p.next()
	src := p.expr()
	name := p.identOrEnd("an event name", t)
	return &ast.OnEventStmt{Range: p.rng(t.Start), Source: src, Event: name}
}

// parentCall parses `parent METHOD`.
func (p *parser) parentCall() ast.Stmt {
	t := p.next()
	name := p.identOrEnd("a method name", t)
	return &ast.ParentCallStmt{Range: p.rng(t.Start), Method: name}
}

// kill parses `kill process PID`.
func (p *parser) kill() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordProcess, "'process' after 'kill'")
	pid := p.primary(false)
	return &ast.KillStmt{Range: p.rng(t.Start), Process: pid}
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
			p.failTok(t, CodeEOF, "expected 'file' or 'directory' after 'delete', found end of file")
		}
		p.failHere(CodeExpected, "expected 'file' or 'directory' after 'delete', found "+describe(p.peek()))
	}
	p.next()
	p.expect(token.KeywordAt, "'at' after 'delete "+map[bool]string{false: "file", true: "directory"}[dir]+"'")
	path := p.primary(false)
	return &ast.DeleteStmt{Range: p.rng(t.Start), Dir: dir, Path: path}
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
	return &ast.SignalStmt{Range: p.rng(t.Start), Signal: identOf(sig), Handler: h}
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
			r.Value = lit(n, ast.LitNothing)
		} else if k, ok := p.queryKind(); ok {
			r.Value = p.queryExpr(k)
		} else {
			r.Value = p.expr()
		}
	}
	r.Range = p.rng(t.Start)
	return r
}

// copyFile parses the legacy call statements `copy_file|move_file from A to B`.
func (p *parser) copyFile() ast.Stmt {
	t := p.next()
	p.next() // from
	a := p.pathExpr()
	p.expect(token.KeywordTo, "'to' after the source path")
	b := p.pathExpr()
	call := &ast.ActionCallExpr{Range: p.rng(t.Start), Name: identOf(t), Args: []*ast.Arg{argOf(a), argOf(b)}, Legacy: true}
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
	call := &ast.ActionCallExpr{Range: p.rng(t.Start), Name: identOf(t), Args: args, Legacy: true}
	return &ast.ExprStmt{Range: call.Range, X: call}
}

// identOrEnd consumes an identifier; at the end of the file it reports at
// the statement's keyword as the reference does.
func (p *parser) identOrEnd(what string, kw token.Token) *ast.Ident {
	if p.atEOF() {
		p.failTok(kw, CodeEOF, "expected "+what+", found end of file")
	}
	return p.ident(what)
}

// declName parses the name of `store|create NAME as`: an identifier or a
// contextual keyword, then more identifiers.
func (p *parser) declName() *ast.Ident {
	t := p.peek()
	var id *ast.Ident
	switch {
	case t.Kind == token.Identifier:
		id = identOf(t)
	case t.Kind == token.IntLiteral || t.Kind == token.FloatLiteral:
		p.failTok(t, CodeExpected, "a number cannot be a variable name: found "+describe(t))
	case t.Kind == token.KeywordAs:
		p.failTok(t, CodeExpected, "expected a variable name before 'as'")
	case t.Kind == token.EOF:
		p.failTok(t, CodeEOF, "expected a variable name, found end of file")
	case t.Kind.IsStructural():
		p.failTok(t, CodeReserved, "'"+t.Kind.Spelling()+"' is a reserved keyword and cannot be a variable name")
	case t.Kind.IsContextual():
		id = kwIdent(t)
	default:
		p.failTok(t, CodeExpected, "expected a variable name, found "+describeName(t))
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
			p.failTok(n, CodeExpected, "expected 'as' after the variable name, found "+describe(n))
		}
		break
	}
	return id
}

func (p *parser) varDecl() ast.Stmt {
	t := p.next()
	d := &ast.VarDecl{Create: t.Kind == token.KeywordCreate}
	if !d.Create && p.kind() == token.KeywordNew {
		p.next()
		if p.atEOF() {
			p.failTok(t, CodeEOF, "expected 'constant' after 'new', found end of file")
		}
		if p.kind() != token.KeywordConstant {
			p.failHere(CodeExpected, "expected 'constant' after 'new', found "+describe(p.peek()))
		}
		p.next()
		d.Constant = true
	}
	d.Name = p.declName()
	if p.atEOF() {
		p.failTok(t, CodeEOF, "expected 'as' after the variable name '"+d.Name.Name+"', found end of file")
	}
	if p.kind() != token.KeywordAs {
		p.failHere(CodeExpected, "expected 'as' after the variable name '"+d.Name.Name+"', found "+describe(p.peek()))
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
			w = identOf(n)
		} else if n.Kind.IsContextual() {
			w = kwIdent(n)
		} else if id != nil {
			p.failTok(n, CodeExpected, "expected 'to' after the variable name, found "+describe(n))
		} else {
			p.failTok(n, CodeExpected, "expected a variable name or 'to', found "+describe(n))
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
		id = &ast.Ident{Range: ast.Range{From: t.End, To: t.End}}
	}
	return &ast.AssignStmt{Range: p.rng(t.Start), Kind: ast.AssignChange, Name: id, Value: v}
}

func (p *parser) display() ast.Stmt {
	t := p.next()
	d := &ast.DisplayStmt{}
	d.Values = append(d.Values, p.expr())
	for !p.atEOF() {
		k := p.kind()
		if !isValueStart(k) {
			break
		}
		if (k == token.KeywordCount && p.peekN(1).Kind == token.KeywordFrom) ||
			(k == token.KeywordRead && p.peekN(1).Kind == token.KeywordOutput) {
			break
		}
		d.Values = append(d.Values, p.expr())
	}
	d.Range = p.rng(t.Start)
	return d
}

func (p *parser) optColon() {
	p.got(token.Colon)
}

// checkIf parses `check if … end check`; chained is set for the `otherwise
// check if` links, which do not consume the `end check`.
func (p *parser) checkIf(chained bool) ast.Stmt {
	t := p.next()
	p.expect(token.KeywordIf, "'if' after 'check'")
	s := &ast.IfStmt{Check: true, Chained: chained}
	s.Cond = p.expr()
	p.optColon()
	p.skipEol()
	s.Then = p.block(p.lastEnd, stopAt(token.KeywordOtherwise, token.KeywordEnd))
	if p.kind() == token.KeywordOtherwise {
		p.next()
		if p.kind() == token.KeywordCheck {
			s.Else = p.checkIf(true)
		} else {
			p.optColon()
			p.skipEol()
			s.Else = p.block(p.lastEnd, stopEnd)
		}
	}
	if !chained {
		if p.atEOF() {
			p.failTok(t, CodeEOF, "expected 'end check' to close this 'check if', found end of file")
		}
		e := p.peek()
		if e.Kind != token.KeywordEnd {
			p.failTok(e, CodeExpected, "expected 'end check' after the if block, found "+describe(e))
		}
		p.next()
		if p.atEOF() {
			p.failTok(e, CodeEOF, "expected 'check' after 'end', found end of file")
		}
		p.expect(token.KeywordCheck, "'check' after 'end'")
	}
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) ifThen() ast.Stmt {
	t := p.next()
	cond := p.expr()
	p.expect(token.KeywordThen, "'then' after the if condition")
	then := &ast.Block{Range: ast.Range{From: p.lastEnd}}
	multi := false
	for !p.atEOF() {
		k := p.kind()
		if k == token.KeywordOtherwise || k == token.KeywordEnd {
			multi = true
			break
		}
		if k == token.Eol {
			p.next()
			multi = true
			continue
		}
		then.Stmts = append(then.Stmts, p.stmtRecover())
		if p.atEOF() {
			break
		}
		if k := p.kind(); k == token.KeywordOtherwise || k == token.KeywordEnd {
			multi = true
			break
		}
	}
	then.To = max(then.From, p.lastEnd)
	var els ast.Stmt
	if p.kind() == token.KeywordOtherwise {
		p.next()
		els = p.block(p.lastEnd, stopEnd)
	}
	if multi {
		p.expect(token.KeywordEnd, "'end if' after the if block")
		p.expect(token.KeywordIf, "'if' after 'end'")
		return &ast.IfStmt{Range: p.rng(t.Start), Cond: cond, Then: then, Else: els}
	}
	if len(then.Stmts) == 0 {
		p.failTok(t, CodeExpected, "expected a statement after 'then'")
	}
	return &ast.SingleIfStmt{Range: p.rng(t.Start), Cond: cond, Then: then.Stmts[0]}
}

// closeBlock expects `end KW` after a block body.
func (p *parser) closeBlock(kw token.Kind, what string) {
	p.expect(token.KeywordEnd, "'end "+kw.Spelling()+"' after the "+what)
	p.expect(kw, "'"+kw.Spelling()+"' after 'end'")
}

// body parses a block's statements, from the line after its header to the
// `end KW` that closes it; what names the block in messages.
func (p *parser) body(kw token.Kind, what string) *ast.Block {
	p.skipEol()
	b := p.block(p.lastEnd, stopEnd)
	p.closeBlock(kw, what)
	return b
}

func (p *parser) forEach() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordEach, "'each' after 'for'")
	s := &ast.ForEachStmt{}
	s.Var = p.ident("a loop variable name after 'each'")
	p.expect(token.KeywordIn, "'in' after the loop variable")
	s.Reversed = p.got(token.KeywordReversed)
	s.Coll = p.expr()
	p.optColon()
	s.Body = p.body(token.KeywordFor, "for-each loop body")
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) countLoop() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordFrom, "'from' after 'count'")
	s := &ast.CountStmt{}
	s.From = p.expr()
	n := p.peek()
	switch {
	case n.Kind == token.Identifier && strings.EqualFold(n.Text, "down"):
		p.next()
		p.expect(token.KeywordTo, "'to' after 'down'")
		s.Down = true
	case n.Kind == token.KeywordTo:
		p.next()
	case n.Kind == token.EOF:
		p.failTok(t, CodeEOF, "expected 'to' or 'down to' in the count loop, found end of file")
	default:
		p.failTok(n, CodeExpected, "expected 'to' or 'down to' in the count loop, found "+describe(n))
	}
	s.To = p.expr()
	if p.got(token.KeywordBy) {
		s.Step = p.expr()
	}
	if p.got(token.KeywordAs) {
		s.Var = p.identOrEnd("a loop variable name after 'as'", t)
	}
	p.optColon()
	s.Body = p.body(token.KeywordCount, "count loop body")
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) mainLoop() ast.Stmt {
	t := p.next()
	p.expect(token.KeywordLoop, "'loop' after 'main'")
	s := &ast.MainLoopStmt{}
	if n := p.peek(); n.Kind == token.Identifier && n.Text == "concurrently" {
		p.next()
		s.Concurrent = true
	}
	p.expect(token.Colon, "':' after 'main loop'")
	s.Body = p.body(token.KeywordLoop, "main loop body")
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) repeat() ast.Stmt {
	t := p.next()
	s := &ast.RepeatStmt{}
	switch p.kind() {
	case token.KeywordWhile, token.KeywordUntil:
		s.Kind = ast.RepeatWhile
		if p.next().Kind == token.KeywordUntil {
			s.Kind = ast.RepeatUntil
		}
		s.Cond = p.expr()
		p.optColon()
		s.Body = p.body(token.KeywordRepeat, "repeat body")
	case token.KeywordForever:
		p.next()
		s.Kind = ast.RepeatForever
		p.expect(token.Colon, "':' after 'forever'")
		s.Body = p.body(token.KeywordRepeat, "repeat forever body")
	case token.Colon:
		p.next()
		s.Kind = ast.RepeatDoUntil
		p.skipEol()
		b := &ast.Block{Range: ast.Range{From: p.lastEnd}}
		for !p.atEOF() && p.kind() != token.KeywordUntil {
			start := p.pos
			b.Stmts = append(b.Stmts, p.stmtRecover())
			if p.pos == start {
				p.next()
			}
		}
		b.To = max(b.From, p.lastEnd)
		s.Body = b
		p.expect(token.KeywordUntil, "'until' after the repeat body")
		s.Cond = p.expr()
	case token.EOF:
		p.failTok(t, CodeEOF, "expected 'while', 'until', 'forever' or ':' after 'repeat', found end of file")
	default:
		p.failHere(CodeExpected, "expected 'while', 'until', 'forever' or ':' after 'repeat', found "+describe(p.peek()))
	}
	s.Range = p.rng(t.Start)
	return s
}

// typeWord names the type a token spells, as the reference's
// type_from_token and colon_type_from_token do (they agree): text,
// pattern, any, date, time, nothing or an identifier.
func typeWord(t token.Token) (string, bool) {
	switch t.Kind {
	case token.KeywordText, token.KeywordPattern, token.KeywordAny, token.KeywordDate, token.KeywordTime:
		return t.Kind.Spelling(), true
	case token.NothingLiteral:
		return "nothing", true
	case token.Identifier:
		return t.Text, true
	}
	return "", false
}

func (p *parser) typeExprOf(t token.Token, name string) *ast.TypeExpr {
	return &ast.TypeExpr{Range: ast.Range{From: t.Start, To: t.End}, Name: name}
}

// colonType parses the type name after a ':' (a parameter's, a property's,
// a required action's); at the end of the file it reports at at, the name
// or keyword the type belongs to.
func (p *parser) colonType(at token.Token) *ast.TypeExpr {
	t := p.peek()
	if t.Kind == token.EOF {
		p.failTok(at, CodeEOF, "expected a type name after ':', found end of file")
	}
	name, ok := typeWord(t)
	if !ok {
		p.failTok(t, CodeExpected, "expected a type name after ':', found "+describe(t))
	}
	p.next()
	return p.typeExprOf(t, name)
}

// actionReturnType speculatively parses `T` of the `…: T:` header.
func (p *parser) actionReturnType() *ast.TypeExpr {
	t := p.peek()
	is := func(k token.Kind, spelling string) bool {
		return t.Kind == k || (t.Kind == token.Identifier && strings.EqualFold(t.Text, spelling))
	}
	switch {
	case is(token.KeywordList, "list"), is(token.KeywordOptional, "optional"):
		p.next()
		if !p.got(token.KeywordOf) {
			return nil
		}
		inner := p.actionReturnType()
		if inner == nil {
			return nil
		}
		return &ast.TypeExpr{Range: p.rng(t.Start), Name: strings.ToLower(t.Kind.Spelling() + t.Text), Args: []*ast.TypeExpr{inner}}
	case is(token.KeywordMap, "map"):
		p.next()
		if !p.got(token.KeywordOf) {
			return nil
		}
		k := p.actionReturnType()
		if k == nil || !p.got(token.KeywordTo) {
			return nil
		}
		v := p.actionReturnType()
		if v == nil {
			return nil
		}
		return &ast.TypeExpr{Range: p.rng(t.Start), Name: "map", Args: []*ast.TypeExpr{k, v}}
	case is(token.KeywordBinary, "binary"):
		p.next()
		return p.typeExprOf(t, "binary")
	}
	if name, ok := typeWord(t); ok {
		p.next()
		return p.typeExprOf(t, name)
	}
	return nil
}

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
			prm := &ast.Param{Name: identOf(pt)}
			if p.got(token.KeywordAs) {
				tt := p.peek()
				name, ok := typeWord(tt)
				if !ok {
					p.failHere(CodeExpected, "expected a type name after 'as', found "+describe(tt))
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
	p.skipEol()
	d.Body = p.block(p.lastEnd, stopEnd)
	if p.atEOF() {
		p.failTok(p.peek(), CodeEOF, "expected 'end action' to close the action '"+d.Name.Name+"', found end of file")
	}
	p.next() // end
	if p.atEOF() {
		p.failTok(p.peek(), CodeEOF, "expected 'action' after 'end', found end of file")
	}
	if p.kind() != token.KeywordAction {
		p.failHere(CodeExpected, "expected 'action' after 'end', found "+describe(p.peek()))
	}
	p.next()
	d.Range = p.rng(t.Start)
	return d
}

func (p *parser) tryStmt() ast.Stmt {
	t := p.next()
	p.expect(token.Colon, "':' after 'try'")
	p.skipEol()
	s := &ast.TryStmt{}
	clauseStop := stopAt(token.KeywordWhen, token.KeywordCatch, token.KeywordOtherwise, token.KeywordFinally, token.KeywordEnd)
	s.Body = p.block(p.lastEnd, clauseStop)
loop:
	for !p.atEOF() {
		c := p.peek()
		switch c.Kind {
		case token.KeywordWhen:
			p.next()
			cl := &ast.CatchClause{Kind: ast.ErrGeneral}
			n := p.peek()
			switch n.Kind {
			case token.KeywordError:
				p.next()
			case token.Colon:
			case token.KeywordFile:
				p.next()
				p.expect(token.KeywordNot, "'not' after 'file'")
				p.expect(token.KeywordFound, "'found' after 'not'")
				cl.Kind = ast.ErrFileNotFound
			case token.KeywordPermission:
				p.next()
				p.expect(token.KeywordDenied, "'denied' after 'permission'")
				cl.Kind = ast.ErrPermissionDenied
			case token.KeywordProcess:
				p.next()
				m := p.peek()
				switch {
				case m.Kind == token.KeywordNot:
					p.next()
					p.expect(token.KeywordFound, "'found' after 'not'")
					cl.Kind = ast.ErrProcessNotFound
				case m.Kind == token.Identifier && (m.Text == "spawn" || m.Text == "kill"):
					p.next()
					f := p.peek()
					if f.Kind != token.Identifier || f.Text != "failed" {
						if f.Kind == token.EOF {
							f = m
						}
						p.failTok(f, CodeExpected, "expected 'failed' after '"+m.Text+"', found "+describe(p.peek()))
					}
					p.next()
					cl.Kind = ast.ErrProcessSpawnFailed
					if m.Text == "kill" {
						cl.Kind = ast.ErrProcessKillFailed
					}
				case m.Kind == token.EOF:
					p.failTok(n, CodeEOF, "expected 'not found', 'spawn failed' or 'kill failed' after 'process', found end of file")
				default:
					p.failTok(m, CodeExpected, "expected 'not found', 'spawn failed' or 'kill failed' after 'process', found "+describe(m))
				}
			case token.KeywordCommand:
				p.next()
				p.expect(token.KeywordNot, "'not' after 'command'")
				p.expect(token.KeywordFound, "'found' after 'not'")
				cl.Kind = ast.ErrCommandNotFound
			case token.EOF:
				p.failTok(c, CodeEOF, "expected an error kind after 'when', found end of file")
			default:
				p.failTok(n, CodeExpected, "expected 'error', 'file', 'permission', 'process' or 'command' after 'when', found "+describe(n))
			}
			if a := p.peek(); a.Kind == token.KeywordAs {
				p.next()
				nm := p.peek()
				if nm.Kind != token.Identifier {
					if nm.Kind == token.EOF {
						nm = a
					}
					p.failTok(nm, CodeExpected, "expected a name after 'as' in the error handler, found "+describe(p.peek()))
				}
				p.next()
				cl.Name = identOf(nm)
			}
			p.expect(token.Colon, "':' after the error kind")
			p.skipEol()
			cl.Body = p.block(p.lastEnd, clauseStop)
			cl.Range = p.rng(c.Start)
			s.Clauses = append(s.Clauses, cl)
		case token.KeywordCatch:
			p.next()
			cl := &ast.CatchClause{Catch: true, Kind: ast.ErrGeneral}
			if p.got(token.KeywordWith) {
				if nm := p.peek(); nm.Kind == token.Identifier {
					p.next()
					cl.Name = identOf(nm)
				}
			}
			p.expect(token.Colon, "':' after 'catch'")
			p.skipEol()
			cl.Body = p.block(p.lastEnd, clauseStop)
			cl.Range = p.rng(c.Start)
			s.Clauses = append(s.Clauses, cl)
		case token.KeywordOtherwise:
			p.next()
			p.expect(token.Colon, "':' after 'otherwise'")
			p.skipEol()
			s.Otherwise = p.block(p.lastEnd, stopAt(token.KeywordFinally, token.KeywordEnd))
		case token.KeywordFinally:
			p.next()
			p.expect(token.Colon, "':' after 'finally'")
			p.skipEol()
			s.Finally = p.block(p.lastEnd, stopEnd)
			break loop
		case token.KeywordEnd:
			break loop
		default:
			p.failTok(c, CodeExpected, "expected 'when', 'catch', 'otherwise' or 'end', found "+describe(c))
		}
	}
	if len(s.Clauses) == 0 && s.Finally == nil {
		p.failTok(t, CodeTry, "a try needs at least one 'when', 'catch' or 'finally' clause")
	}
	p.closeBlock(token.KeywordTry, "try block")
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) createList() ast.Stmt {
	t := p.next()
	p.next() // list
	s := &ast.CreateListStmt{Name: p.identOrEnd("a list name after 'create list'", t)}
	p.expect(token.Colon, "':' after the list name")
	p.skipEol()
	for !p.atEOF() {
		n := p.peek()
		switch n.Kind {
		case token.KeywordEnd:
			p.next()
			p.expect(token.KeywordList, "'list' after 'end'")
			s.Range = p.rng(t.Start)
			return s
		case token.KeywordAdd:
			p.next()
			s.Values = append(s.Values, p.expr())
		case token.Eol:
			p.next()
		default:
			p.failTok(n, CodeExpected, "expected 'add' or 'end list' in the list, found "+describe(n))
		}
	}
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) createMap() ast.Stmt {
	t := p.next()
	p.next() // map
	s := &ast.CreateMapStmt{Name: p.identOrEnd("a map name after 'create map'", t)}
	p.expect(token.Colon, "':' after the map name")
	for !p.atEOF() {
		n := p.peek()
		switch n.Kind {
		case token.Eol:
			p.next()
		case token.KeywordEnd:
			p.next()
			p.expect(token.KeywordMap, "'map' after 'end'")
			s.Range = p.rng(t.Start)
			return s
		case token.Identifier, token.StringLiteral:
			p.next()
			var key ast.Expr = identOf(n)
			if n.Kind == token.StringLiteral {
				key = lit(n, ast.LitString)
			}
			p.expect(token.KeywordIs, "'is' after the map key")
			v := p.expr()
			s.Entries = append(s.Entries, &ast.MapEntry{Range: p.rng(n.Start), Key: key, Value: v})
		default:
			p.failTok(n, CodeExpected, "expected a map key (a name or a text) or 'end map', found "+describe(n))
		}
	}
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) route() ast.Stmt {
	t := p.next()
	s := &ast.RouteStmt{Subject: p.expr()}
	p.optColon()
	p.skipEol()
	armStop := stopAt(token.KeywordWhen, token.KeywordOtherwise, token.KeywordEnd)
	for {
		p.skipEol()
		n := p.peek()
		switch n.Kind {
		case token.EOF:
			p.failTok(n, CodeEOF, "expected 'when', 'otherwise' or 'end route' in the route, found end of file")
		case token.KeywordWhen:
			if s.Otherwise != nil {
				p.failTok(n, CodeUnexpected, "'otherwise' must be the last arm of a route")
			}
			p.next()
			arm := &ast.RouteArm{}
			m := p.peek()
			switch {
			case m.Kind == token.EOF:
				p.failTok(m, CodeEOF, "expected a pattern after 'when', found end of file")
			case m.Kind == token.KeywordContains:
				p.next()
				arm.Kind = ast.ArmContains
				arm.Values = []ast.Expr{p.primary(false)}
			case m.Kind == token.KeywordOne && p.peekN(1).Kind == token.KeywordOf:
				p.next()
				p.next()
				arm.Kind = ast.ArmOneOf
				arm.Values = []ast.Expr{p.primary(false)}
			case (m.Kind == token.KeywordStarts || m.Kind == token.KeywordEnds) && p.peekN(1).Kind == token.KeywordWith:
				p.next()
				p.next()
				arm.Kind = ast.ArmStartsWith
				if m.Kind == token.KeywordEnds {
					arm.Kind = ast.ArmEndsWith
				}
				arm.Values = []ast.Expr{p.primary(false)}
			default:
				arm.Kind = ast.ArmEquals
				arm.Values = []ast.Expr{p.primary(false)}
				for p.got(token.KeywordOr) {
					arm.Values = append(arm.Values, p.primary(false))
				}
			}
			p.optColon()
			p.skipEol()
			arm.Body = p.block(p.lastEnd, armStop)
			arm.Range = p.rng(n.Start)
			s.Arms = append(s.Arms, arm)
		case token.KeywordOtherwise:
			if s.Otherwise != nil {
				p.failTok(n, CodeDuplicate, "a route may have only one 'otherwise' arm")
			}
			p.next()
			p.optColon()
			p.skipEol()
			s.Otherwise = p.block(p.lastEnd, armStop)
		case token.KeywordEnd:
			p.closeBlock(token.KeywordRoute, "route")
			s.Range = p.rng(t.Start)
			return s
		default:
			p.failTok(n, CodeExpected, "expected 'when', 'otherwise' or 'end route', found "+describe(n))
		}
	}
}

func (p *parser) loadStmt(include bool) ast.Stmt {
	t := p.next()
	if !include {
		p.expect(token.KeywordModule, "'module' after 'load'")
	}
	p.expect(token.KeywordFrom, "'from' after '"+map[bool]string{false: "module", true: "include"}[include]+"'")
	path := p.expr()
	if !include && p.kind() == token.KeywordAs {
		p.failHere(CodeUnsupported, "module aliases are not supported: write load module from \"path\"")
	}
	return &ast.LoadStmt{Range: p.rng(t.Start), Include: include, Path: path}
}

func (p *parser) exportStmt() ast.Stmt {
	t := p.next()
	k := p.peek()
	switch k.Kind {
	case token.KeywordContainer, token.KeywordAction, token.KeywordConstant:
		p.next()
	case token.EOF:
		p.failTok(t, CodeEOF, "expected 'container', 'action' or 'constant' after 'export', found end of file")
	default:
		p.failTok(k, CodeExpected, "expected 'container', 'action' or 'constant' after 'export', found "+describe(k))
	}
	name := p.identOrEnd("a name after the export kind", t)
	return &ast.ExportStmt{Range: p.rng(t.Start), Kind: k.Kind.Spelling(), Name: name}
}

func (p *parser) describe() ast.Stmt {
	t := p.next()
	d := p.peek()
	if d.Kind != token.StringLiteral {
		p.failHere(CodeExpected, "expected the description text after 'describe', found "+describe(d))
	}
	p.next()
	s := &ast.DescribeStmt{Desc: lit(d, ast.LitString)}
	p.expect(token.Colon, "':' after the describe description")
	p.skipEol()
	body := &ast.Block{Range: ast.Range{From: p.lastEnd}}
	hasSetup, hasTeardown := false, false
	for {
		p.skipEol()
		n := p.peek()
		switch n.Kind {
		case token.KeywordSetup, token.KeywordTeardown:
			tear := n.Kind == token.KeywordTeardown
			p.next()
			if (!tear && hasSetup) || (tear && hasTeardown) {
				p.failTok(n, CodeDuplicate, "only one '"+n.Kind.Spelling()+"' block is allowed in a describe")
			}
			p.expect(token.Colon, "':' after '"+n.Kind.Spelling()+"'")
			h := &ast.HookStmt{Teardown: tear}
			h.Body = p.strictBody(n.Kind, n.Kind.Spelling()+" block")
			h.Range = p.rng(n.Start)
			body.Stmts = append(body.Stmts, h)
			if tear {
				hasTeardown = true
			} else {
				hasSetup = true
			}
		case token.KeywordTest:
			body.Stmts = append(body.Stmts, p.testBlock())
		case token.KeywordDescribe:
			body.Stmts = append(body.Stmts, p.describe())
		case token.KeywordEnd:
			body.To = max(body.From, p.lastEnd)
			s.Body = body
			p.closeBlock(token.KeywordDescribe, "describe block")
			s.Range = p.rng(t.Start)
			return s
		case token.EOF:
			p.failTok(n, CodeEOF, "expected 'end describe', found end of file")
		default:
			p.failTok(n, CodeExpected, "expected 'setup', 'test', 'teardown' or 'end' in the describe block, found "+describe(n))
		}
	}
}

// strictBody is body for the blocks of tests: unlike block, the end of the
// file inside it is an error of the statement parser.
func (p *parser) strictBody(kw token.Kind, what string) *ast.Block {
	p.skipEol()
	b := &ast.Block{Range: ast.Range{From: p.lastEnd}}
	for {
		p.skipEol()
		if p.kind() == token.KeywordEnd || p.atEOF() {
			break
		}
		start := p.pos
		b.Stmts = append(b.Stmts, p.stmtRecover())
		if p.pos == start {
			p.next()
		}
	}
	if p.atEOF() {
		p.failTok(p.peek(), CodeEOF, "unexpected end of file: expected 'end'")
	}
	b.To = max(b.From, p.lastEnd)
	p.closeBlock(kw, what)
	return b
}

func (p *parser) testBlock() ast.Stmt {
	t := p.next()
	d := p.peek()
	if d.Kind != token.StringLiteral {
		p.failHere(CodeExpected, "expected the description text after 'test', found "+describe(d))
	}
	p.next()
	s := &ast.TestStmt{Desc: lit(d, ast.LitString)}
	p.expect(token.Colon, "':' after the test description")
	s.Body = p.strictBody(token.KeywordTest, "test block")
	s.Range = p.rng(t.Start)
	return s
}

func (p *parser) expectStmt() ast.Stmt {
	t := p.next()
	s := &ast.ExpectStmt{Subject: p.expr()}
	p.expect(token.KeywordTo, "'to' after the expect subject")
	n := p.peek()
	switch n.Kind {
	case token.KeywordEqual:
		p.next()
		s.Kind, s.Value = ast.AssertEqual, p.expr()
	case token.KeywordBe:
		p.next()
		m := p.peek()
		switch m.Kind {
		case token.BooleanLiteral:
			p.next()
			s.Kind = ast.AssertBeNo
			if m.Text == "true" {
				s.Kind = ast.AssertBeYes
			}
		case token.KeywordGreater, token.KeywordLess:
			p.next()
			p.expect(token.KeywordThan, "'than' after '"+m.Kind.Spelling()+"'")
			s.Kind = ast.AssertGreaterThan
			if m.Kind == token.KeywordLess {
				s.Kind = ast.AssertLessThan
			}
			s.Value = p.expr()
		case token.KeywordEmpty:
			p.next()
			s.Kind = ast.AssertBeEmpty
		case token.KeywordOf:
			p.next()
			if ty := p.peek(); ty.Kind == token.Identifier && ty.Text == "type" {
				p.next()
				nm := p.peek()
				if nm.Kind != token.StringLiteral {
					p.failHere(CodeExpected, "expected the type name as text after 'be of type', found "+describe(nm))
				}
				p.next()
				s.Kind, s.TypeName = ast.AssertBeOfType, lit(nm, ast.LitString)
			} else {
				p.failHere(CodeExpected, "expected 'type' after 'be of', found "+describe(ty))
			}
		case token.EOF:
			p.failTok(m, CodeEOF, "expected a value after 'be', found end of file")
		default:
			s.Kind, s.Value = ast.AssertBe, p.expr()
		}
	case token.KeywordGreater, token.KeywordLess:
		p.next()
		p.expect(token.KeywordThan, "'than' after '"+n.Kind.Spelling()+"'")
		s.Kind = ast.AssertGreaterThan
		if n.Kind == token.KeywordLess {
			s.Kind = ast.AssertLessThan
		}
		s.Value = p.expr()
	case token.KeywordContain:
		p.next()
		s.Kind, s.Value = ast.AssertContain, p.expr()
	case token.KeywordExist:
		p.next()
		s.Kind = ast.AssertExist
	case token.KeywordHave:
		p.next()
		if l := p.peek(); l.Kind == token.Identifier && l.Text == "length" {
			p.next()
			s.Kind, s.Value = ast.AssertHaveLength, p.expr()
		} else {
			p.failHere(CodeExpected, "expected 'length' after 'have', found "+describe(l))
		}
	case token.EOF:
		p.failTok(n, CodeEOF, "expected an assertion after 'to', found end of file")
	default:
		p.failTok(n, CodeExpected, "expected an assertion ('equal', 'be', 'contain', 'exist', 'have length', …), found "+describe(n))
	}
	s.Range = p.rng(t.Start)
	return s
}
