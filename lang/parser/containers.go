package parser

// This file parses containers and interfaces: create container with its
// properties, methods and events, create interface with its required
// actions, create new (an instance, or a constant), and the event
// statements: event, trigger, on and parent.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// containerDecl parses `create container NAME [extends PARENT] [implements
// I, …]:` with its properties, actions and events, and `end`.
func (p *parser) containerDecl() ast.Stmt {
	t := p.next()
	p.next() // container
	d := &ast.ContainerDecl{Name: p.identOrEnd("a container name", t)}
	if e := p.peek(); e.Kind == token.KeywordExtends {
		p.next()
		d.Extends = p.identOrEnd("a container name after 'extends'", e)
	}
	if p.got(token.KeywordImplements) {
		for {
			d.Implements = append(d.Implements, p.ident("an interface name in the implements list"))
			if !p.got(token.Comma) {
				break
			}
		}
	}
	p.expect(token.Colon, "':' after the container name")
	fr := p.openFrame(0, func() {
		if n := p.peek(); n.Kind == token.EOF {
			p.failExpected(n, CodeEOF, "'end' to close the container '"+d.Name.Name+"'", endOfFile)
		} else {
			p.failTok(n, CodeUnexpected, "a container body holds properties, actions and events; found "+describe(n))
		}
	})
	fr.members = true
	if p.memberLines(fr, func(n token.Token) bool {
		switch n.Kind {
		case token.KeywordProperty:
			d.Members = append(d.Members, p.property(false, n))
		case token.KeywordStatic:
			p.next()
			switch p.kind() {
			case token.KeywordProperty:
				d.Members = append(d.Members, p.property(true, n))
			case token.KeywordAction:
				d.Members = append(d.Members, p.method(true, n))
			case token.EOF:
				p.failExpected(n, CodeEOF, "'property' or 'action' after 'static'", endOfFile)
			default:
				p.failExpectedHere(CodeExpected, "'property' or 'action' after 'static'")
			}
		case token.KeywordAction:
			d.Members = append(d.Members, p.method(false, n))
		case token.KeywordEvent:
			p.next()
			ev := &ast.EventDecl{Name: p.identOrEnd("an event name after 'event'", n)}
			if p.got(token.KeywordNeeds) {
				ev.Params = p.paramList()
			}
			ev.Range = p.rng(n.Start)
			d.Members = append(d.Members, ev)
		default:
			p.membersEnd(fr, n, CodeUnexpected, "a container body holds properties, actions and events; found "+describe(n))
			return false
		}
		return true
	}) {
		msg, names := p.expected("'end' to close the container '"+d.Name.Name+"'", endOfFile)
		p.membersEnd(fr, p.peek(), CodeEOF, msg, names...)
	}
	d.Range = p.rng(t.Start)
	return d
}

// property parses `[static] property NAME[: TYPE] [defaults VALUE]` in a
// container; start is its first word.
func (p *parser) property(static bool, start token.Token) ast.Stmt {
	kw := p.next() // property
	d := &ast.PropertyDecl{Static: static, Name: p.nameAfter(kw, "a property name", "'property'")}
	if p.got(token.Colon) {
		d.Type = p.propertyType(kw)
	}
	if p.got(token.KeywordDefaults) {
		d.Default = p.expr()
	}
	d.Range = p.rng(start.Start)
	return d
}

// method parses `[static] action NAME [needs P, …][: TYPE] … end` in a
// container; start is its first word.
func (p *parser) method(static bool, start token.Token) ast.Stmt {
	kw := p.next() // action
	d := &ast.ActionDecl{Method: true, Static: static, Name: p.nameAfter(kw, "an action name", "'action'")}
	if p.got(token.KeywordNeeds) {
		d.Params = p.paramList()
	}
	if p.got(token.Colon) {
		t := p.peek()
		explicit := false
		switch t.Kind {
		case token.KeywordText, token.KeywordPattern, token.KeywordAny, token.KeywordDate, token.KeywordTime, token.NothingLiteral:
			explicit = true
		case token.Identifier:
			explicit = t.Text != "" && t.Text[0] >= 'A' && t.Text[0] <= 'Z'
		}
		if explicit {
			name, _ := typeWord(t)
			p.next()
			d.ReturnType = p.typeExprOf(t, name)
		}
	}
	fr := p.openFrameAt(start, 0, func() {
		if p.atEOF() {
			p.failExpected(p.peek(), CodeEOF, "'end' to close the action '"+d.Name.Name+"'", endOfFile)
		}
		p.next() // end
	})
	fr.member = containerMember
	p.skipEol()
	d.Body = p.block(p.lastEnd, stopEnd)
	p.closeFrame(fr)
	d.Range = p.rng(start.Start)
	return d
}

// paramList parses `name[: Type] {, name[: Type]}` (container methods,
// events, interface signatures).
func (p *parser) paramList() []*ast.Param {
	var ps []*ast.Param
	for p.kind() == token.Identifier {
		n := p.next()
		prm := &ast.Param{Name: p.identOf(n)}
		if p.got(token.Colon) {
			prm.Type = p.colonType(n)
		}
		prm.Range = p.rng(n.Start)
		ps = append(ps, prm)
		if !p.got(token.Comma) {
			break
		}
	}
	return ps
}

// interfaceDecl parses `create interface NAME [extends J, …]`, with an
// optional body of `requires action` lines closed by `end`.
func (p *parser) interfaceDecl() ast.Stmt {
	t := p.next()
	p.next() // interface
	d := &ast.InterfaceDecl{Name: p.identOrEnd("an interface name", t)}
	if e := p.peek(); e.Kind == token.KeywordExtends {
		p.next()
		for {
			d.Extends = append(d.Extends, p.identOrEnd("an interface name after 'extends'", e))
			if !p.got(token.Comma) {
				break
			}
		}
	}
	if p.got(token.Colon) {
		fr := p.openFrame(0, nil)
		if p.memberLines(fr, func(n token.Token) bool {
			if n.Kind != token.KeywordRequires {
				p.membersEnd(fr, n, CodeUnexpected, "an interface body holds 'requires action' lines; found "+describe(n))
				return false
			}
			p.next()
			p.expect(token.KeywordAction, "'action' after 'requires'")
			sig := &ast.ActionSig{Name: p.identOrEnd("an action name after 'requires action'", n)}
			if k := p.kind(); k == token.KeywordNeeds || k == token.KeywordWith {
				p.next()
				sig.Params = p.paramList()
			}
			if p.got(token.Colon) {
				sig.ReturnType = p.colonType(n)
			}
			sig.Range = p.rng(n.Start)
			d.Actions = append(d.Actions, sig)
			return true
		}) {
			msg, names := p.expected("'end' to close the interface '"+d.Name.Name+"'", endOfFile)
			p.membersEnd(fr, p.peek(), CodeEOF, msg, names...)
		}
	}
	d.Range = p.rng(t.Start)
	return d
}

// newStmt parses `create new CONTAINER as NAME:` with its `PROPERTY is
// VALUE` lines and `end`, and `create new constant NAME as VALUE`.
func (p *parser) newStmt() ast.Stmt {
	t := p.next()
	p.next() // new
	if p.kind() == token.KeywordConstant {
		p.next()
		d := &ast.VarDecl{Create: true, Constant: true}
		d.Name = p.declName()
		p.expect(token.KeywordAs, "'as' after the constant name")
		d.Value = p.expr()
		d.Range = p.rng(t.Start)
		return d
	}
	s := &ast.NewStmt{Container: p.identOrEnd("a container name after 'create new'", t)}
	p.expect(token.KeywordAs, "'as' after the container name")
	s.Name = p.nameAfter(t, "an instance name", "'as'")
	p.expect(token.Colon, "':' after the instance name")
	fr := p.openFrame(0, nil)
	p.memberLines(fr, func(n token.Token) bool {
		if n.Kind != token.Identifier {
			p.membersEnd(fr, n, CodeUnexpected, "an instance body holds 'property is value' lines; found "+describe(n))
			return false
		}
		return !p.member(fr, n, func() {
			p.next()
			if k := p.kind(); k != token.KeywordIs && k != token.Colon {
				if k == token.EOF {
					p.failExpected(n, CodeEOF, "'is' or ':' after the property name", endOfFile)
				}
				p.failExpectedHere(CodeExpected, "'is' or ':' after the property name")
			}
			p.next()
			v := p.expr()
			s.Inits = append(s.Inits, &ast.PropInit{Range: p.rng(n.Start), Name: p.identOf(n), Value: v})
		})
	})
	s.Range = p.rng(t.Start)
	return s
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

// nameAfter consumes the name a member or an instance has after the word
// said in after ("'property'"), or fails: with "expected WHAT after …,
// found X", or at the end of the file, at the token at, with "expected
// WHAT, found end of file".
func (p *parser) nameAfter(at token.Token, what, after string) *ast.Ident {
	if p.atEOF() {
		p.failExpected(at, CodeEOF, what, endOfFile)
	}
	return p.ident(what + " after " + after)
}
