package parser

// This file parses expressions: a precedence-climbing loop over primaries,
// with the reference parser's levels and its greedy `with`, `matches`,
// `find`, `replace` and `split` continuations.

import (
	"strconv"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// exprCtx carries the two context flags of the reference expression parser.
type exprCtx struct {
	clause bool       // stop before `as` and before `and|with` + a streaming clause word
	term   token.Kind // stop before this keyword (With or In), or 0
}

func (p *parser) expr() ast.Expr { return p.binary(0, exprCtx{}) }

func (p *parser) exprCtx(clause bool) ast.Expr { return p.binary(0, exprCtx{clause: clause}) }

func (p *parser) binary(prec int, c exprCtx) ast.Expr {
	left := p.primary(c.clause)
	return p.binaryRest(left, prec, c)
}

func isStreamingClauseWord(t token.Token) bool {
	switch t.Kind {
	case token.KeywordAs, token.KeywordContent, token.KeywordStatus:
		return true
	case token.Identifier:
		id := t.Text
		return id == "headers" || strings.HasPrefix(id, "headers ") || id == "content_type" ||
			strings.HasPrefix(id, "content_type ") || strings.HasPrefix(id, "content type")
	}
	return false
}

func span(x ast.Node, to int) ast.Range {
	from := x.Pos()
	if to < from {
		to = from
	}
	return ast.Range{From: from, To: to}
}

// binaryRest continues left with operators at precedence prec and above.
// A chain of operators is a loop here, which builds a tree as deep as the
// chain is long (the operators are left-associative); boundDepth measures
// it, and the loop gives up as soon as the chain alone makes the tree too
// deep, rather than build the rest of it. What it parses recursively
// starts with a primary, which counts the parser's own depth. The phrases
// other than a plain operator are parsed by functions of their own, so
// that the frame that stays on the stack while a right operand is parsed
// is small.
func (p *parser) binaryRest(left ast.Expr, prec int, c exprCtx) ast.Expr {
	chain, last := 0, left // the nodes built around the first operand; the latest
	for !p.atEOF() {
		if left != last {
			// The levels above (p.depth), the chain's, and at least
			// one of the first operand's.
			chain, last = chain+1, left
			if p.depth+chain >= MaxDepth {
				p.failHere(CodeDepth, depthMessage)
			}
		}
		t := p.peek()
		k := t.Kind
		if p.stops(k, c) {
			break
		}
		var op ast.BinaryOp
		opPrec := 0
		consumed := false
		switch k {
		case token.Plus, token.KeywordPlus:
			op, opPrec = ast.OpPlus, 2
		case token.Minus, token.KeywordMinus:
			op, opPrec = ast.OpMinus, 2
		case token.KeywordTimes:
			op, opPrec = ast.OpMultiply, 3
		case token.KeywordDividedBy, token.Slash:
			op, opPrec = ast.OpDivide, 3
		case token.Percent, token.KeywordModulo:
			op, opPrec = ast.OpModulo, 3
		case token.KeywordDivided:
			if p.peekN(1).Kind != token.KeywordBy {
				p.dividedWithoutBy(t)
			}
			op, opPrec = ast.OpDivide, 3
		case token.Equals:
			op, opPrec = ast.OpEquals, 1
		case token.KeywordIs:
			if 1 < prec {
				return left
			}
			var between ast.Expr
			if op, between = p.isPhrase(t, left, c); between != nil {
				left = between
				continue
			}
			consumed, opPrec = true, 1
		case token.KeywordWith:
			left = p.withPhrase(left, c)
			continue
		case token.KeywordAnd:
			op, opPrec = ast.OpAnd, 0
		case token.KeywordOr:
			if 0 < prec {
				return left
			}
			p.next()
			consumed = true
			if p.orEqualTo(left) {
				continue
			}
			op, opPrec = ast.OpOr, 0
		case token.KeywordMatches:
			p.next()
			p.got(token.KeywordPattern)
			left = p.matchesRest(left, prec, c)
			continue
		case token.KeywordFind:
			left = p.findPhrase(left, prec, c)
			continue
		case token.KeywordReplace:
			left = p.replacePhrase(t, left, prec, c)
			continue
		case token.KeywordSplit:
			left = p.splitPhrase(t, left, prec, c)
			continue
		case token.KeywordStarts, token.KeywordEnds:
			if 1 < prec || p.peekN(1).Kind != token.KeywordWith {
				return left
			}
			left = p.startsPhrase(t, left, c)
			continue
		case token.KeywordContains:
			if 1 < prec {
				return left
			}
			p.next()
			consumed = true
			if p.got(token.KeywordPattern) {
				left = p.matchesRest(left, prec, c)
				continue
			}
			op, opPrec = ast.OpContains, 1
		case token.Colon:
			p.next()
			continue
		default:
			return left
		}
		if opPrec < prec {
			return left
		}
		if !consumed {
			p.next()
			if k == token.KeywordDivided {
				p.expect(token.KeywordBy, "'by' after 'divided'")
			}
		}
		right := p.binary(opPrec+1, c)
		left = &ast.BinaryExpr{Range: span(left, right.End()), X: left, Op: op, OpPos: t.Start, Y: right}
	}
	return left
}

// stops reports whether an expression ends before a token of kind k.
func (p *parser) stops(k token.Kind, c exprCtx) bool {
	if k == token.Eol || isStatementStarter(k) {
		return true
	}
	if c.term != 0 && k == c.term {
		return true
	}
	if c.clause {
		if k == token.KeywordAs {
			return true
		}
		if (k == token.KeywordAnd || k == token.KeywordWith) && isStreamingClauseWord(p.peekN(1)) {
			return true
		}
	}
	return false
}

func (p *parser) dividedWithoutBy(t token.Token) {
	p.failExpected(t, CodeExpected, "'by' after 'divided'", p.peekN(1))
}

// isPhrase parses the comparison that starts with `is` (the token t, not
// yet consumed) up to its right operand: it returns the operator, or, for
// `is between A and B`, the whole expression.
func (p *parser) isPhrase(t token.Token, left ast.Expr, c exprCtx) (ast.BinaryOp, ast.Expr) {
	p.next()
	if p.atEOF() {
		p.failExpected(t, CodeEOF, "a value after 'is'", endOfFile)
	}
	switch p.kind() {
	case token.KeywordBetween:
		p.next()
		lo := p.binary(2, c)
		p.expect(token.KeywordAnd, "'and' between the bounds of 'is between'")
		hi := p.binary(2, c)
		return 0, &ast.BetweenExpr{Range: span(left, hi.End()), X: left, Lo: lo, Hi: hi}
	case token.KeywordAbove:
		p.next()
		return ast.OpGreaterThan, nil
	case token.KeywordBelow:
		p.next()
		return ast.OpLessThan, nil
	case token.KeywordEqual:
		p.next()
		if p.atEOF() {
			p.failExpected(t, CodeEOF, "a value after 'is equal'", endOfFile)
		}
		p.got(token.KeywordTo)
		return ast.OpEquals, nil
	case token.KeywordNot:
		p.next()
		if p.got(token.KeywordEqual) {
			p.got(token.KeywordTo)
		}
		return ast.OpNotEquals, nil
	case token.KeywordGreater, token.KeywordLess:
		gt := p.kind() == token.KeywordGreater
		p.next()
		if p.atEOF() {
			p.failExpected(t, CodeEOF, "a value after the comparison", endOfFile)
		}
		op := ast.OpLessThan
		if gt {
			op = ast.OpGreaterThan
		}
		if p.got(token.KeywordThan) {
			if p.got(token.KeywordOr) {
				if p.got(token.KeywordEqual) {
					p.got(token.KeywordTo)
					op = ast.OpLessThanOrEqual
					if gt {
						op = ast.OpGreaterThanOrEqual
					}
				}
			}
		}
		return op, nil
	}
	return ast.OpEquals, nil
}

// orEqualTo reads `equal to` after an `or` that follows a comparison
// (`a is less than b or equal to c` is `a <= c`), making the comparison
// left inclusive, and reports whether it did. The words are consumed
// whether or not they make one.
func (p *parser) orEqualTo(left ast.Expr) bool {
	if !p.got(token.KeywordEqual) || !p.got(token.KeywordTo) {
		return false
	}
	b, ok := left.(*ast.BinaryExpr)
	if !ok || b.Op != ast.OpLessThan && b.Op != ast.OpGreaterThan {
		return false
	}
	if b.Op == ast.OpLessThan {
		b.Op = ast.OpLessThanOrEqual
	} else {
		b.Op = ast.OpGreaterThanOrEqual
	}
	b.To = p.lastEnd
	return true
}

// withPhrase parses `with` after left: a builtin's legacy call (`length
// with x`), else a concatenation.
func (p *parser) withPhrase(left ast.Expr, c exprCtx) ast.Expr {
	if id, ok := left.(*ast.Ident); ok && id.Name != "count" && builtins.IsBuiltin(id.Name) {
		p.next()
		args := p.argList(c.clause)
		return &ast.ActionCallExpr{Range: p.rng(id.From), Name: id, Args: args, Legacy: true}
	}
	w := p.next()
	right := p.binary(0, c)
	return &ast.ConcatExpr{Range: span(left, right.End()), X: left, WithPos: w.Start, Y: right}
}

// matchesRest parses the pattern of `left matches [pattern] P` or `left
// contains pattern P`, the words before it consumed.
func (p *parser) matchesRest(left ast.Expr, prec int, c exprCtx) ast.Expr {
	pat := p.binary(prec+1, c)
	return &ast.MatchesExpr{Range: span(left, pat.End()), X: left, Pattern: pat}
}

// findPhrase parses `left find [pattern] P [in T]`.
func (p *parser) findPhrase(left ast.Expr, prec int, c exprCtx) ast.Expr {
	p.next()
	p.got(token.KeywordPattern)
	pat := p.binary(prec+1, exprCtx{clause: c.clause, term: token.KeywordIn})
	if p.got(token.KeywordIn) {
		text := p.binary(prec+1, c)
		return &ast.FindExpr{Range: span(left, text.End()), Discarded: left, Pattern: pat, Text: text}
	}
	return &ast.FindExpr{Range: span(left, pat.End()), Pattern: pat, Text: left}
}

// replacePhrase parses `left replace [pattern] P with R [in T]`; t is the
// `replace`.
func (p *parser) replacePhrase(t token.Token, left ast.Expr, prec int, c exprCtx) ast.Expr {
	p.next()
	p.got(token.KeywordPattern)
	pat := p.binary(prec+1, exprCtx{clause: c.clause, term: token.KeywordWith})
	if !p.got(token.KeywordWith) {
		p.failExpected(t, CodeExpected, "'with' after the pattern in replace", p.peek())
	}
	repl := p.binary(prec+1, exprCtx{clause: c.clause, term: token.KeywordIn})
	if p.got(token.KeywordIn) {
		text := p.binary(prec+1, c)
		return &ast.ReplaceExpr{Range: span(left, text.End()), Discarded: left, Pattern: pat, Replacement: repl, Text: text}
	}
	return &ast.ReplaceExpr{Range: span(left, repl.End()), Pattern: pat, Replacement: repl, Text: left}
}

// splitPhrase parses `left split [of] T by D` and `… on [pattern] D`; t
// is the `split`.
func (p *parser) splitPhrase(t token.Token, left ast.Expr, prec int, c exprCtx) ast.Expr {
	p.next()
	p.got(token.KeywordOf)
	text := p.binary(prec+1, c)
	switch p.kind() {
	case token.KeywordBy:
		p.next()
		d := p.binary(prec+1, c)
		return &ast.SplitExpr{Range: span(left, d.End()), Discarded: left, Text: text, Delim: d}
	case token.KeywordOn:
		p.next()
		p.got(token.KeywordPattern)
		d := p.binary(prec+1, c)
		return &ast.SplitExpr{Range: span(left, d.End()), Discarded: left, Text: text, Delim: d, OnPattern: true}
	}
	p.failExpected(t, CodeExpected, "'by' or 'on' after the text in split", p.peek())
	return nil
}

// startsPhrase parses `left starts with R` and `left ends with R`; t is
// `starts` or `ends`.
func (p *parser) startsPhrase(t token.Token, left ast.Expr, c exprCtx) ast.Expr {
	p.next()
	w := p.next()
	right := p.binary(2, c)
	name := "starts_with"
	if t.Kind == token.KeywordEnds {
		name = "ends_with"
	}
	fn := p.newIdent(t.Start, w.End, name)
	return &ast.CallExpr{Range: span(left, right.End()), Fun: fn, Sugar: true,
		Args: []*ast.Arg{argOf(left), argOf(right)}}
}

// pollDone moves to the end of the text once p.done is closed: the
// statement being parsed fails there, and so do the blocks around it.
func (p *parser) pollDone() {
	if p.done == nil {
		return
	}
	select {
	case <-p.done:
		p.pos = len(p.toks)
	default:
	}
}

// depthMessage reports a statement nested deeper than MaxDepth.
var depthMessage = "nesting is too deep (more than " + strconv.Itoa(MaxDepth) + " levels)"

// boundDepth replaces each top-level statement whose tree is deeper than
// MaxDepth by a BadStmt over its text, with a CodeDepth error first among
// its unit's diagnostics; stmts are the statements of units, in order.
// The parser's recursion counts its own depth (enter), but a chain of
// operators is parsed by a loop and its tree is as deep as it is long, so
// the tree itself is measured, without recursion. A tree has at most about
// one level a byte of its text, so short statements are not measured.
func boundDepth(units []Unit, stmts []ast.Stmt) {
	i := 0
	for k := range units {
		u := &units[k]
		if u.Stmt == nil {
			continue
		}
		if st := u.Stmt; st.End()-st.Pos() > MaxDepth/2 {
			if deep := ast.Deeper(st, MaxDepth); deep != nil {
				// Point at the first word of the deepest level: for a
				// chain, its first operand.
				for {
					var first ast.Node
					ast.Children(deep, func(c ast.Node) {
						if first == nil {
							first = c
						}
					})
					if first == nil {
						break
					}
					deep = first
				}
				d := diag.Diagnostic{Span: token.Span{Start: deep.Pos(), End: deep.End()}, Severity: diag.Error,
					Category: diag.Parse, Code: CodeDepth, Message: depthMessage}
				u.Diags = append([]diag.Diagnostic{d}, u.Diags...)
				u.Stmt = &ast.BadStmt{Range: ast.Range{From: st.Pos(), To: st.End()}}
				stmts[i] = u.Stmt
			}
		}
		i++
	}
}

// seeded continues an expression from lead: postfix members, `of` calls,
// then binary operators (the reference's seeded continuation).
func (p *parser) seeded(lead ast.Expr, clause bool) ast.Expr {
	for {
		lead = p.memberPostfix(lead, clause, -1)
		if p.kind() != token.KeywordOf {
			break
		}
		p.next()
		lead = p.ofCall(lead, clause)
	}
	return p.binaryRest(lead, 0, exprCtx{clause: clause})
}

func argOf(x ast.Expr) *ast.Arg {
	return &ast.Arg{Range: ast.Range{From: x.Pos(), To: x.End()}, Value: x}
}

// argList parses `[name:] value {and [name:] value}` with values at level 1.
func (p *parser) argList(clause bool) []*ast.Arg {
	var args []*ast.Arg
	start := p.pos
	for {
		var name *ast.Ident
		t := p.peek()
		if t.Kind == token.Identifier && p.peekN(1).Kind == token.Colon {
			p.next()
			p.next()
			name = p.identOf(t)
		}
		v := p.binary(1, exprCtx{clause: clause})
		a := &ast.Arg{Value: v}
		if name != nil {
			a.Range = ast.Range{From: name.From, To: v.End()}
			a.Name = name
		} else {
			a.Range = ast.Range{From: v.Pos(), To: v.End()}
		}
		args = append(args, a)
		if p.kind() == token.KeywordAnd {
			if clause && isStreamingClauseWord(p.peekN(1)) {
				break
			}
			p.next()
			continue
		}
		break
	}
	if p.pos == start {
		p.failExpectedHere(CodeUnexpected, "an argument")
	}
	return args
}

// ofArg parses one argument of an `of` call: additive and multiplicative
// arithmetic over primaries, nothing looser.
func (p *parser) ofArg(clause bool) ast.Expr {
	left := p.ofTerm(clause)
	for {
		t := p.peek()
		var op ast.BinaryOp
		switch t.Kind {
		case token.Plus, token.KeywordPlus:
			op = ast.OpPlus
		case token.Minus, token.KeywordMinus:
			op = ast.OpMinus
		default:
			return left
		}
		p.next()
		right := p.ofTerm(clause)
		left = &ast.BinaryExpr{Range: span(left, right.End()), X: left, Op: op, OpPos: t.Start, Y: right}
	}
}

func (p *parser) ofTerm(clause bool) ast.Expr {
	left := p.primary(clause)
	for {
		t := p.peek()
		var op ast.BinaryOp
		switch t.Kind {
		case token.KeywordTimes:
			op = ast.OpMultiply
		case token.KeywordDividedBy, token.Slash:
			op = ast.OpDivide
		case token.Percent, token.KeywordModulo:
			op = ast.OpModulo
		case token.KeywordDivided:
			if p.peekN(1).Kind != token.KeywordBy {
				return left
			}
			op = ast.OpDivide
		default:
			return left
		}
		p.next()
		if t.Kind == token.KeywordDivided {
			p.expect(token.KeywordBy, "'by' after 'divided'")
		}
		right := p.primary(clause)
		left = &ast.BinaryExpr{Range: span(left, right.End()), X: left, Op: op, OpPos: t.Start, Y: right}
	}
}

// ofCall parses the arguments after `of` (already consumed) of fun.
func (p *parser) ofCall(fun ast.Expr, clause bool) ast.Expr {
	args := []*ast.Arg{argOf(p.ofArg(clause))}
	for {
		t := p.peek()
		sep := t.Kind == token.KeywordAnd || t.Kind == token.KeywordFrom || t.Kind == token.KeywordBy ||
			(t.Kind == token.Identifier && strings.EqualFold(t.Text, "length"))
		if !sep {
			break
		}
		if clause && t.Kind == token.KeywordAnd && isStreamingClauseWord(p.peekN(1)) {
			break
		}
		p.next()
		args = append(args, argOf(p.ofArg(clause)))
	}
	return &ast.CallExpr{Range: p.rng(fun.Pos()), Fun: fun, Args: args}
}

// canStartPrimary reports the tokens a primary expression may start with.
func canStartPrimary(k token.Kind) bool {
	switch k {
	case token.LeftBracket, token.LeftParen, token.StringLiteral, token.IntLiteral, token.FloatLiteral,
		token.BooleanLiteral, token.NothingLiteral, token.KeywordCall, token.Identifier, token.KeywordNot,
		token.Minus, token.KeywordWith, token.KeywordCount, token.KeywordPattern, token.KeywordLoop,
		token.KeywordOutput, token.KeywordRepeat, token.KeywordExit, token.KeywordBack, token.KeywordTry,
		token.KeywordWhen, token.KeywordError, token.KeywordFile, token.KeywordDirectory, token.KeywordProcess,
		token.KeywordHeader, token.KeywordCurrent, token.KeywordList, token.KeywordRead, token.KeywordFind,
		token.KeywordReplace, token.KeywordSplit:
		return true
	}
	return k.IsContextual()
}

// isValueStart reports the tokens that begin another value of a display.
func isValueStart(k token.Kind) bool {
	if !canStartPrimary(k) {
		return false
	}
	switch k {
	case token.KeywordLoop, token.KeywordExit, token.KeywordRepeat, token.KeywordTry, token.KeywordWhen,
		token.KeywordCreate, token.KeywordChange, token.KeywordPush, token.KeywordParent, token.KeywordSkip,
		token.KeywordGive, token.KeywordWith, token.KeywordFind, token.KeywordReplace, token.KeywordSplit,
		token.Minus, token.LeftBracket:
		return false
	}
	return true
}

func isIndexable(x ast.Expr) bool {
	switch x.(type) {
	case *ast.Ident, *ast.IndexExpr, *ast.CallExpr, *ast.PropertyExpr, *ast.MethodCallExpr:
		return true
	}
	return false
}

func (p *parser) lit(t token.Token, k ast.LitKind) *ast.BasicLit {
	v := t.Text
	switch k {
	case ast.LitNothing:
		v = "nothing"
	}
	return p.newLit(t.Start, t.End, k, v)
}

// primary parses a primary expression with its postfix operators.
func (p *parser) primary(clause bool) ast.Expr {
	p.enter()
	defer p.leave()
	// The forms that nest most, without primaryBase's frame.
	switch t := p.peek(); t.Kind {
	case token.LeftParen:
		return p.paren(t)
	case token.LeftBracket:
		return p.listLit(t)
	case token.KeywordNot, token.Minus:
		return p.postfix(p.unary(t, clause), clause)
	}
	x, postfix := p.primaryBase(clause)
	if !postfix {
		return x
	}
	return p.postfix(x, clause)
}

// postfix applies the operators that follow most primaries: a bare integer
// index, `of` calls, `at` and `[ ]` indexes, and `.member` on keywords.
func (p *parser) postfix(x ast.Expr, clause bool) ast.Expr {
	for !p.atEOF() {
		t := p.peek()
		switch t.Kind {
		case token.IntLiteral:
			if !isIndexable(x) {
				return x
			}
			p.next()
			x = &ast.IndexExpr{Range: p.rng(x.Pos()), X: x, Index: p.lit(t, ast.LitInt), Kind: ast.IndexBare}
		case token.KeywordOf:
			p.next()
			switch x.(type) {
			case *ast.Ident, *ast.CallExpr:
			default:
				// The reference parses the argument before it complains.
				p.ofArg(clause)
				p.failTok(t, CodeUnexpected, "'of' calls need a function name on the left")
			}
			x = p.ofCall(x, clause)
		case token.KeywordAt:
			p.next()
			idx := p.exprCtx(clause)
			x = &ast.IndexExpr{Range: p.rng(x.Pos()), X: x, Index: idx, Kind: ast.IndexAt}
		case token.LeftBracket:
			p.next()
			idx := p.expr()
			if p.kind() != token.RightBracket {
				p.failExpectedHere(CodeExpected, "']' after the index")
			}
			p.next()
			x = &ast.IndexExpr{Range: p.rng(x.Pos()), X: x, Index: idx, Kind: ast.IndexBracket}
		case token.Dot:
			p.next()
			m := p.peek()
			if m.Kind != token.Identifier {
				p.failExpectedHere(CodeExpected, "a member name after '.'")
			}
			p.next()
			id, ok := x.(*ast.Ident)
			if !ok {
				p.failTok(t, CodeUnexpected, "a static member needs a container name before '.'")
			}
			x = &ast.StaticMemberExpr{Range: p.rng(x.Pos()), Container: id, Member: p.identOf(m)}
		default:
			return x
		}
	}
	return x
}

// memberPostfix applies `[i]` (only directly adjacent to adjEnd; anywhere
// when adjEnd is negative, a seeded operand's first postfix), `.prop`,
// `.method(args)` and `at i` after a member access, as the reference does.
func (p *parser) memberPostfix(x ast.Expr, clause bool, adjEnd int) ast.Expr {
	for !p.atEOF() {
		t := p.peek()
		switch t.Kind {
		case token.LeftBracket:
			if adjEnd >= 0 && adjEnd != t.Start {
				return x
			}
			p.next()
			idx := p.expr()
			c := p.peek()
			if c.Kind != token.RightBracket {
				p.failExpectedHere(CodeExpected, "']' after the index")
			}
			p.next()
			adjEnd = c.End
			x = &ast.IndexExpr{Range: p.rng(x.Pos()), X: x, Index: idx, Kind: ast.IndexBracket}
		case token.Dot:
			p.next()
			prop := p.peek()
			if prop.Kind != token.Identifier && prop.Kind != token.KeywordStatus {
				p.failExpectedHere(CodeExpected, "a property name after '.'")
			}
			p.next()
			pid := p.identOf(prop)
			if prop.Kind == token.KeywordStatus {
				pid = p.kwIdent(prop)
			}
			adjEnd = prop.End
			if p.kind() == token.LeftParen {
				p.next()
				args := p.methodArgs()
				adjEnd = p.lastEnd
				x = &ast.MethodCallExpr{Range: p.rng(x.Pos()), X: x, Method: pid, Args: args}
			} else {
				x = &ast.PropertyExpr{Range: p.rng(x.Pos()), X: x, Prop: pid}
			}
		case token.IntLiteral:
			// A seeded operand, before any member: direct indexing
			// (`write line values 0 to f`).
			if adjEnd >= 0 || !isIndexable(x) {
				return x
			}
			p.next()
			x = &ast.IndexExpr{Range: p.rng(x.Pos()), X: x, Index: p.lit(t, ast.LitInt), Kind: ast.IndexBare}
		case token.KeywordAt:
			p.next()
			idx := p.exprCtx(clause)
			x = &ast.IndexExpr{Range: p.rng(x.Pos()), X: x, Index: idx, Kind: ast.IndexAt}
		default:
			return x
		}
	}
	return x
}

// methodArgs parses `a, b)` after a method's '('.
func (p *parser) methodArgs() []*ast.Arg {
	var args []*ast.Arg
	if p.kind() != token.RightParen && !p.atEOF() {
		args = append(args, argOf(p.expr()))
		for p.got(token.Comma) {
			args = append(args, argOf(p.expr()))
		}
	}
	p.expect(token.RightParen, "')' after the method arguments")
	return args
}

// primaryBase parses the primary itself; postfix reports whether the
// reference applies the general postfix loop after it. It only dispatches:
// each form that holds other expressions is parsed by a function of its
// own, so that an expression nested N levels deep holds N small frames on
// the stack, not N frames as large as all the forms' locals together.
func (p *parser) primaryBase(clause bool) (ast.Expr, bool) {
	t := p.peek()
	switch t.Kind {
	case token.EOF:
		p.failTokOf(t, diag.ExpectedValue, CodeEOF, "expected an expression, found end of file", "")
	case token.LeftBracket:
		return p.listLit(t), false
	case token.LeftParen:
		return p.paren(t), false
	case token.StringLiteral:
		p.next()
		return p.lit(t, ast.LitString), true
	case token.IntLiteral:
		p.next()
		return p.lit(t, ast.LitInt), true
	case token.FloatLiteral:
		p.next()
		return p.lit(t, ast.LitFloat), true
	case token.BooleanLiteral:
		p.next()
		return p.lit(t, ast.LitBool), true
	case token.NothingLiteral:
		p.next()
		return p.lit(t, ast.LitNothing), true
	case token.KeywordCall:
		return p.callPrimary(t, clause), false
	case token.Identifier:
		return p.identPrimary(t, clause)
	case token.KeywordNot, token.Minus:
		return p.unary(t, clause), true
	case token.KeywordWith:
		p.next()
		return p.exprCtx(clause), true
	case token.KeywordCount, token.KeywordLoop, token.KeywordOutput, token.KeywordRepeat, token.KeywordExit,
		token.KeywordBack, token.KeywordTry, token.KeywordWhen, token.KeywordError:
		p.next()
		return p.kwIdent(t), true
	case token.KeywordPattern:
		p.next()
		if s := p.peek(); s.Kind == token.StringLiteral {
			p.next()
			return &ast.PatternLit{Range: p.rng(t.Start), Lit: p.lit(s, ast.LitString)}, false
		}
		return p.kwIdent(t), true
	case token.KeywordFile:
		return p.filePrimary(t, clause)
	case token.KeywordDirectory:
		return p.directoryPrimary(t, clause)
	case token.KeywordProcess:
		return p.processPrimary(t, clause), true
	case token.KeywordHeader:
		return p.headerPrimary(t, clause), true
	case token.KeywordCurrent:
		return p.currentTime(t), true
	case token.KeywordList:
		return p.listPrimary(t, clause)
	case token.KeywordRead:
		return p.readPrimary(t, clause)
	case token.KeywordFind:
		return p.findPrimary(t, clause), true
	case token.KeywordReplace:
		return p.replacePrimary(t, clause), true
	case token.KeywordSplit:
		return p.splitPrimary(t, clause), true
	}
	if t.Kind.IsContextual() {
		return p.contextualPrimary(t, clause)
	}
	p.failTokOf(t, diag.ExpectedValue, CodeUnexpected, "expected an expression, found "+describe(t), keywordOf(t))
	return nil, false
}

// listLit parses `[a, b and c]` from its '[' t.
func (p *parser) listLit(t token.Token) ast.Expr {
	p.next()
	l := &ast.ListLit{}
	if p.got(token.RightBracket) {
		l.Range = p.rng(t.Start)
		return l
	}
	l.Elems = append(l.Elems, p.primary(false))
	for !p.atEOF() {
		switch p.kind() {
		case token.RightBracket:
			p.next()
			l.Range = p.rng(t.Start)
			return l
		case token.KeywordAnd, token.Colon, token.Comma:
			p.next()
			l.Elems = append(l.Elems, p.primary(false))
		default:
			p.notInList()
		}
	}
	p.failTokOf(t, diag.Expected, CodeEOF, "the list is not closed: expected ']', found end of file", "", "", "]")
	return nil
}

func (p *parser) notInList() {
	p.failExpectedHere(CodeExpected, "']', ',' or 'and' in the list")
}

// paren parses `( expr )` from its '(' t.
func (p *parser) paren(t token.Token) ast.Expr {
	p.next()
	x := p.expr()
	if p.kind() != token.RightParen {
		p.unclosedParen(t)
	}
	p.next()
	return &ast.ParenExpr{Range: p.rng(t.Start), X: x}
}

// unclosedParen reports a '(' t whose ')' is not where it should be.
func (p *parser) unclosedParen(t token.Token) {
	c := p.peek()
	if c.Kind == token.EOF {
		p.failExpected(t, CodeEOF, "')'", endOfFile)
	}
	p.failExpected(c, CodeExpected, "')'", c)
}

// callPrimary parses `call NAME [with ARGS]` from its 'call' t.
func (p *parser) callPrimary(t token.Token, clause bool) ast.Expr {
	p.next()
	n := p.peek()
	if n.Kind != token.Identifier {
		p.failExpectedHere(CodeExpected, "an action name after 'call'")
	}
	p.next()
	call := &ast.ActionCallExpr{Name: p.identOf(n)}
	if p.got(token.KeywordWith) {
		call.Args = p.argList(clause)
	}
	call.Range = p.rng(t.Start)
	return call
}

// identPrimary parses a name t, and `.prop` or `.method(…)` after it.
func (p *parser) identPrimary(t token.Token, clause bool) (ast.Expr, bool) {
	p.next()
	id := p.identOf(t)
	if p.kind() != token.Dot {
		return id, true
	}
	p.next()
	prop := p.peek()
	if prop.Kind != token.Identifier && prop.Kind != token.KeywordStatus {
		if prop.Kind == token.EOF {
			p.failExpected(t, CodeEOF, "a property name after '.'", endOfFile)
		}
		p.failExpected(prop, CodeExpected, "a property name after '.'", prop)
	}
	p.next()
	pid := p.identOf(prop)
	if prop.Kind == token.KeywordStatus {
		pid = p.kwIdent(prop)
	}
	if p.kind() == token.LeftParen {
		p.next()
		args := p.methodArgs()
		m := &ast.MethodCallExpr{Range: p.rng(t.Start), X: id, Method: pid, Args: args}
		return p.memberPostfix(m, clause, p.lastEnd), false
	}
	pr := &ast.PropertyExpr{Range: p.rng(t.Start), X: id, Prop: pid}
	return p.memberPostfix(pr, clause, prop.End), false
}

// unary parses `not X` or `- X` from its operator t.
func (p *parser) unary(t token.Token, clause bool) ast.Expr {
	p.next()
	x := p.primary(clause)
	op := ast.OpNot
	if t.Kind == token.Minus {
		op = ast.OpNeg
	}
	return &ast.UnaryExpr{Range: ast.Range{From: t.Start, To: max(t.End, x.End())}, Op: op, X: x}
}

// filePrimary parses `file size of X`, `file exists at X`, or the word
// `file` as a name.
func (p *parser) filePrimary(t token.Token, clause bool) (ast.Expr, bool) {
	p.next()
	if n := p.peek(); n.Kind == token.Identifier && n.Text == "size" {
		p.next()
		p.expect(token.KeywordOf, "'of' after 'file size'")
		h := p.primary(clause)
		return &ast.FileSizeExpr{Range: p.rng(t.Start), File: h}, false
	}
	if p.got(token.KeywordExists) {
		p.expect(token.KeywordAt, "'at' after 'file exists'")
		path := p.primary(clause)
		return &ast.FileExistsExpr{Range: p.rng(t.Start), Path: path}, false
	}
	return p.kwIdent(t), true
}

// directoryPrimary parses `directory exists at X`, or the word
// `directory` as a name.
func (p *parser) directoryPrimary(t token.Token, clause bool) (ast.Expr, bool) {
	p.next()
	if p.got(token.KeywordExists) {
		p.expect(token.KeywordAt, "'at' after 'directory exists'")
		path := p.primary(clause)
		return &ast.FileExistsExpr{Range: p.rng(t.Start), Path: path, Dir: true}, false
	}
	return p.kwIdent(t), true
}

// processPrimary parses `process X is running`.
func (p *parser) processPrimary(t token.Token, clause bool) ast.Expr {
	p.next()
	pid := p.primary(clause)
	if p.got(token.KeywordIs) {
		p.expect(token.KeywordRunning, "'running' after 'is'")
		return &ast.ProcessRunningExpr{Range: p.rng(t.Start), Process: pid}
	}
	p.failExpected(t, CodeExpected, "'is running' after the process", p.peek())
	return nil
}

// headerPrimary parses `header "NAME" of X`.
func (p *parser) headerPrimary(t token.Token, clause bool) ast.Expr {
	p.next()
	n := p.nextOf(token.StringLiteral, t, "a header name after 'header'", "the header name as text")
	p.expect(token.KeywordOf, "'of' after the header name")
	req := p.primary(clause)
	return &ast.HeaderExpr{Range: p.rng(t.Start), Name: p.lit(n, ast.LitString), Request: req}
}

// currentTime parses `current time in milliseconds` and `current time
// formatted as "F"`.
func (p *parser) currentTime(t token.Token) ast.Expr {
	p.next()
	p.expect(token.KeywordTime, "'time' after 'current'")
	switch p.kind() {
	case token.KeywordIn:
		p.next()
		p.expect(token.KeywordMilliseconds, "'milliseconds' after 'in'")
		return &ast.CurrentTimeExpr{Range: p.rng(t.Start)}
	case token.KeywordFormatted:
		p.next()
		p.expect(token.KeywordAs, "'as' after 'formatted'")
		f := p.nextOf(token.StringLiteral, t, "a format text after 'as'", "the time format as text")
		return &ast.CurrentTimeExpr{Range: p.rng(t.Start), Format: p.lit(f, ast.LitString)}
	}
	if p.atEOF() {
		p.failExpected(t, CodeEOF, "'in milliseconds' or 'formatted as' after 'current time'", endOfFile)
	}
	p.failExpectedHere(CodeExpected, "'in milliseconds' or 'formatted as' after 'current time'")
	return nil
}

// listPrimary parses `list files [recursively] in X …`, or the word
// `list` as a name.
func (p *parser) listPrimary(t token.Token, clause bool) (ast.Expr, bool) {
	p.next()
	if !p.got(token.KeywordFiles) {
		return p.kwIdent(t), true
	}
	lf := &ast.ListFilesExpr{}
	if p.got(token.KeywordRecursively) {
		lf.Recursive = true
	}
	p.expect(token.KeywordIn, "'in' after 'list files'")
	lf.Path = p.primary(clause)
	if !lf.Recursive && p.got(token.KeywordRecursively) {
		lf.Recursive = true
	}
	if p.got(token.KeywordWith) {
		lf.Extensions = p.extensionFilter(clause)
	}
	lf.Range = p.rng(t.Start)
	return lf, false
}

// readPrimary parses `read content from X`, `read binary from X`, `read N
// bytes from X`, or the word `read` as a name.
func (p *parser) readPrimary(t token.Token, clause bool) (ast.Expr, bool) {
	p.next()
	switch n := p.peek(); n.Kind {
	case token.KeywordContent, token.KeywordBinary:
		p.next()
		p.expectOf(token.KeywordFrom, "'from' after 'read ", n.Kind.Spelling(), "'")
		f := p.primary(clause)
		k := ast.ReadText
		if n.Kind == token.KeywordBinary {
			k = ast.ReadBinary
		}
		return &ast.ReadContentExpr{Range: p.rng(t.Start), Kind: k, File: f}, false
	case token.IntLiteral, token.Identifier:
		save := p.pos
		var cnt ast.Expr
		if p.speculate(func() { cnt = p.primary(clause) }) && p.kind() == token.KeywordBytes {
			p.next()
			p.expect(token.KeywordFrom, "'from' after 'read N bytes'")
			f := p.primary(clause)
			return &ast.ReadContentExpr{Range: p.rng(t.Start), Kind: ast.ReadBytes, Count: cnt, File: f}, false
		}
		p.rewind(save)
	}
	return p.kwIdent(t), true
}

// findPrimary parses `find P in T`.
func (p *parser) findPrimary(t token.Token, clause bool) ast.Expr {
	p.next()
	pat := p.exprCtx(clause)
	p.expect(token.KeywordIn, "'in' after the pattern in find")
	text := p.exprCtx(clause)
	return &ast.FindExpr{Range: p.rng(t.Start), Pattern: pat, Text: text}
}

// replacePrimary parses `replace P with R in T`.
func (p *parser) replacePrimary(t token.Token, clause bool) ast.Expr {
	p.next()
	pat := p.primary(clause)
	p.expect(token.KeywordWith, "'with' after the pattern in replace")
	repl := p.exprCtx(clause)
	p.expect(token.KeywordIn, "'in' after the replacement in replace")
	text := p.exprCtx(clause)
	return &ast.ReplaceExpr{Range: p.rng(t.Start), Pattern: pat, Replacement: repl, Text: text}
}

// splitPrimary parses `split [of] T by D` and `split [of] T on pattern D`.
func (p *parser) splitPrimary(t token.Token, clause bool) ast.Expr {
	p.next()
	p.got(token.KeywordOf)
	text := p.exprCtx(clause)
	switch p.kind() {
	case token.KeywordBy:
		p.next()
		d := p.exprCtx(clause)
		return &ast.SplitExpr{Range: p.rng(t.Start), Text: text, Delim: d}
	case token.KeywordOn:
		p.next()
		p.expect(token.KeywordPattern, "'pattern' after 'on' in split")
		d := p.exprCtx(clause)
		return &ast.SplitExpr{Range: p.rng(t.Start), Text: text, Delim: d, OnPattern: true}
	}
	p.failExpected(t, CodeExpected, "'by' or 'on' after the text in split", p.peek())
	return nil
}

func (p *parser) contextualPrimary(t token.Token, clause bool) (ast.Expr, bool) {
	p.next()
	switch t.Kind {
	case token.KeywordCreate:
		if p.got(token.KeywordList) {
			return &ast.ListLit{Range: p.rng(t.Start)}, false
		}
		return p.kwIdent(t), false
	case token.KeywordContains:
		switch p.kind() {
		case token.KeywordOf, token.Eol, token.KeywordWith, token.KeywordAnd, token.Colon:
			return p.kwIdent(t), true
		}
		if p.atEOF() {
			p.failExpected(t, CodeEOF, "a value after 'contains'", endOfFile)
		}
		needle := p.primary(clause)
		if !p.got(token.KeywordIn) {
			p.failExpected(t, CodeExpected, "'in' after the value in 'contains … in …'", p.peek())
		}
		hay := p.primary(clause)
		fn := p.kwIdent(t)
		return &ast.CallExpr{Range: p.rng(t.Start), Fun: fn, Sugar: true, Args: []*ast.Arg{argOf(hay), argOf(needle)}}, true
	}
	id := p.kwIdent(t)
	switch p.kind() {
	case token.Dot:
		p.next()
		if prop := p.peek(); prop.Kind == token.Identifier || prop.Kind == token.KeywordStatus {
			p.next()
			pid := p.identOf(prop)
			if prop.Kind == token.KeywordStatus {
				pid = p.kwIdent(prop)
			}
			return &ast.PropertyExpr{Range: p.rng(t.Start), X: id, Prop: pid}, false
		}
	case token.LeftBracket:
		p.next()
		idx := p.expr()
		p.expect(token.RightBracket, "']' after the index")
		return &ast.IndexExpr{Range: p.rng(t.Start), X: id, Index: idx, Kind: ast.IndexBracket}, false
	}
	return id, true
}

// extensionFilter parses what follows `list files … with`.
func (p *parser) extensionFilter(clause bool) []ast.Expr {
	switch p.kind() {
	case token.KeywordExtension, token.KeywordPattern:
		p.next()
		return []ast.Expr{p.primary(clause)}
	case token.KeywordExtensions:
		p.next()
		if p.kind() == token.LeftBracket {
			x := p.primary(clause)
			if l, ok := x.(*ast.ListLit); ok {
				return l.Elems
			}
			p.report(x.Pos(), x.End(), CodeExpected, "expected a list of extensions after 'extensions'")
			panic(bailout{})
		}
		return []ast.Expr{p.primary(clause)}
	}
	p.failExpectedHere(CodeExpected, "'extension', 'extensions' or 'pattern' after 'with'")
	return nil
}
