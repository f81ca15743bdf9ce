package parser

// This file parses a statement: it dispatches on the statement's first
// words, as the reference parser does, to the function of its form, which
// lives in the file named for its kind: variables.go, lists.go, control.go,
// actions.go, containers.go, patterns.go, files.go, processes.go, wait.go,
// web.go, database.go, modules.go or tests.go. Display and the expression
// statement, which are lists of expressions, are parsed here.

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// statement parses one statement at the current token.
func (p *parser) statement() ast.Stmt {
	p.enter()
	defer p.leave()
	p.pollDone()
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

// display parses `display VALUE {VALUE}`.
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
