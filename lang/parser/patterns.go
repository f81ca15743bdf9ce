package parser

// This file parses create pattern and WFL's pattern language inside it:
// literals, character classes, quantifiers, captures, back references,
// lookarounds, anchors and alternatives.

import (
	"slices"
	"strconv"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

var reservedPatternNames = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`url digit letter file database data date time text pattern character
	whitespace unicode category script greedy lazy zero one any optional between start ahead behind not is
	than same greater less equal above below contains matches find replace split capture captured more
	exactly push add subtract multiply divide plus minus times divided by open close read write append
	content wait try error exists list map remove clear files found permission denied recursively extension
	extensions at least most into when store create display change if check otherwise then end as to from
	with and or count for each in reversed repeat while until forever skip continue break exit loop load
	module define action called needs give back return directory delete container property extends
	implements interface requires event trigger on static public private parent new constant must defaults of`) {
		m[w] = true
	}
	return m
}()

// patternDecl parses `create pattern NAME: … end pattern`: it finds the
// body's tokens, then hands them to a patParser.
func (p *parser) patternDecl() ast.Stmt {
	t := p.next()
	p.next() // pattern
	if p.atEOF() {
		p.failExpected(t, CodeEOF, "a pattern name", endOfFile)
	}
	nt := p.next()
	var name *ast.Ident
	switch nt.Kind {
	case token.Identifier:
		name = p.identOf(nt)
	case token.KeywordUrl, token.KeywordDigit, token.KeywordLetter, token.KeywordFile, token.KeywordDatabase,
		token.KeywordData, token.KeywordDate, token.KeywordTime, token.KeywordText, token.KeywordPattern,
		token.KeywordCharacter, token.KeywordWhitespace, token.KeywordUnicode, token.KeywordCategory, token.KeywordScript:
		name = p.kwIdent(nt)
	default:
		p.failExpected(nt, CodeExpected, "a pattern name after 'create pattern'", nt)
	}
	if reservedPatternNames[name.Name] {
		// Skip the body, as the reference does, then report.
		p.got(token.Colon)
		p.skipPatternBody()
		p.report(nt.Start, nt.End, CodePattern, "'"+name.Name+"' is a predefined pattern in WFL: choose a different name")
		panic(bailout{})
	}
	p.expect(token.Colon, "':' after the pattern name")
	bodyStart := p.pos
	bodyEnd := p.skipPatternBody()
	if bodyEnd < 0 {
		// No closer: the reference reports it, having read the words to
		// the end of the text (parsing none). The body ends where the
		// layout ends it.
		fr := p.openFrameAt(t, token.KeywordPattern, nil)
		nd := len(p.diags)
		p.note(p.pos)
		p.report(t.Start, t.End, CodeEOF, "expected 'end pattern' to close the pattern definition")
		bodyEnd = p.pos
		for i := bodyStart; i < p.pos; i++ {
			if tk := p.toks[i]; tk.Kind != token.Eol && p.outdented(fr, tk) {
				bodyEnd = i
				break
			}
		}
		p.rewind(bodyEnd)
		p.lastEnd = p.lastToken(bodyEnd, p.lastEnd)
		fr.body = p.lastEnd
		p.unclosed(fr, nd, true)
		p.popFrame(fr)
		for p.pos > bodyStart && p.toks[p.pos-1].Kind == token.Eol {
			p.pos-- // the line breaks before the next statement are the list's
		}
	}
	var toks []token.Token
	for _, tk := range p.toks[bodyStart:bodyEnd] {
		if tk.Kind != token.Eol {
			toks = append(toks, tk)
		}
	}
	d := &ast.PatternDecl{Name: name}
	if len(toks) == 0 {
		p.report(p.lastEnd, p.lastEnd, CodePattern, "the pattern definition is empty")
		panic(bailout{})
	}
	pp := &patParser{p: p, toks: toks, closes: closers(toks)}
	d.Body = pp.alternation()
	d.Range = p.rng(t.Start)
	return d
}

// skipPatternBody moves past the body of the pattern whose header ends
// before the current token, as the reference reads it: to the `end
// pattern` that closes it, counting the patterns created inside, and past
// that closer; or, when none does, to the end of the tokens. It returns the
// index of the closer's `end`, or -1. The closer is looked up in the
// patterns' index (patternIndex), not walked to: a text of patterns left
// open, each read to the end of the text, would cost the square of its
// length.
func (p *parser) skipPatternBody() int {
	from := p.pos
	if p.patterns == nil {
		p.patterns = new(patternIndex)
	}
	end := p.patterns.closer(p.toks, from)
	to := len(p.toks) // the first token index not read
	if end >= 0 {
		to = end + 2
	}
	if end < 0 || end+1 >= p.window {
		// Reading to there reads past the stretch parsed, or to the end
		// of its tokens (see peek).
		p.pastEnd()
	}
	if to > from {
		p.pos, p.lastEnd = to, p.toks[to-1].End
	}
	return end
}

// A patternIndex finds the `end pattern` that closes a pattern body
// without reading the body: it lists, in order, the places of `create
// pattern` and `end pattern` in the tokens, and for each the count of the
// closers minus the openers up to it (sum). The closer of a body starting
// at token i is the first place at or after i whose sum is one more than
// the sum before i: the sums step by one, so that place is a closer.
type patternIndex struct {
	lim   int               // the token indices below lim are indexed
	at    []int32           // the token index of each place
	sum   []int32           // closers minus openers up to and including each place
	byVal map[int32][]int32 // the places (their index in at) by sum, in order
}

// closer returns the token index of the `end` of the `end pattern` that
// closes a body starting at token index from in toks, or -1. toks may have
// grown since the last call (a stretch reads more of the text): the
// index takes the new tokens in.
func (x *patternIndex) closer(toks []token.Token, from int) int {
	for ; x.lim < len(toks)-1; x.lim++ {
		var step int32
		switch next := toks[x.lim+1].Kind; {
		case toks[x.lim].Kind == token.KeywordEnd && next == token.KeywordPattern:
			step = 1
		case toks[x.lim].Kind == token.KeywordCreate && next == token.KeywordPattern:
			step = -1
		default:
			continue
		}
		v := step
		if n := len(x.sum); n > 0 {
			v += x.sum[n-1]
		}
		if x.byVal == nil {
			x.byVal = make(map[int32][]int32)
		}
		x.byVal[v] = append(x.byVal[v], int32(len(x.at)))
		x.at = append(x.at, int32(x.lim))
		x.sum = append(x.sum, v)
	}
	k, _ := slices.BinarySearch(x.at, int32(from))
	var base int32
	if k > 0 {
		base = x.sum[k-1]
	}
	places := x.byVal[base+1]
	i, _ := slices.BinarySearch(places, int32(k))
	if i == len(places) {
		return -1
	}
	return int(x.at[places[i]])
}

// A patParser parses the tokens of a pattern's body.
type patParser struct {
	p    *parser
	toks []token.Token
	i    int
	// base is the index of toks[0] in the pattern's body, whose brackets
	// closes matches: for the index of each '{' and '(', the index of the
	// bracket of its kind that closes it, or -1.
	base   int
	closes []int32
}

// closers matches the braces and the parentheses of toks, each kind on its
// own (a '(' is closed by the first ')' that leaves as many '(' as ')'
// after it, whatever braces lie between), in one pass: a group nested N
// deep is not scanned N times.
func closers(toks []token.Token) []int32 {
	closes := make([]int32, len(toks))
	var braces, parens []int32 // the indexes of the brackets not yet closed
	for i, t := range toks {
		closes[i] = -1
		switch t.Kind {
		case token.LeftBrace:
			braces = append(braces, int32(i))
		case token.LeftParen:
			parens = append(parens, int32(i))
		case token.RightBrace:
			if n := len(braces); n > 0 {
				closes[braces[n-1]] = int32(i)
				braces = braces[:n-1]
			}
		case token.RightParen:
			if n := len(parens); n > 0 {
				closes[parens[n-1]] = int32(i)
				parens = parens[:n-1]
			}
		}
	}
	return closes
}

func (q *patParser) at(n int) token.Token {
	if q.i+n < len(q.toks) {
		return q.toks[q.i+n]
	}
	return token.Token{Kind: token.EOF, Start: q.p.lastEnd, End: q.p.lastEnd}
}

func (q *patParser) fail(t token.Token, msg string) {
	q.p.report(t.Start, t.End, CodePattern, msg)
	panic(bailout{})
}

// failNear reports msg at n or, when the pattern ends before n, at t, an
// earlier word of the element.
func (q *patParser) failNear(n, t token.Token, msg string) {
	if n.Kind == token.EOF {
		n = t
	}
	q.fail(n, msg)
}

func (q *patParser) node(k ast.PatternKind, from token.Token, to int) *ast.PatternNode {
	if to < from.Start {
		to = from.End
	}
	return &ast.PatternNode{Range: ast.Range{From: from.Start, To: to}, Kind: k}
}

func (q *patParser) prevEnd() int {
	if q.i > 0 && q.i-1 < len(q.toks) {
		return q.toks[q.i-1].End
	}
	return q.p.lastEnd
}

func (q *patParser) alternation() *ast.PatternNode {
	q.p.enter()
	defer q.p.leave()
	first := q.sequence()
	if q.i >= len(q.toks) || q.toks[q.i].Kind != token.KeywordOr {
		return first
	}
	alt := &ast.PatternNode{Kind: ast.PatAlternative, Children: []*ast.PatternNode{first}}
	for q.i < len(q.toks) && q.toks[q.i].Kind == token.KeywordOr {
		q.i++
		alt.Children = append(alt.Children, q.sequence())
	}
	alt.Range = ast.Range{From: first.From, To: alt.Children[len(alt.Children)-1].To}
	return alt
}

func (q *patParser) sequence() *ast.PatternNode {
	var els []*ast.PatternNode
	for q.i < len(q.toks) {
		t := q.toks[q.i]
		if t.Kind == token.KeywordOr {
			break
		}
		if t.Kind == token.KeywordThen {
			q.i++
			continue
		}
		if t.Kind == token.Identifier && t.Text == "followed" && q.at(1).Kind == token.KeywordBy {
			q.i += 2
			continue
		}
		els = append(els, q.element())
	}
	if len(els) == 0 {
		q.fail(q.at(0), "expected a pattern element")
	}
	if len(els) == 1 {
		return els[0]
	}
	return &ast.PatternNode{Range: ast.Range{From: els[0].From, To: els[len(els)-1].To}, Kind: ast.PatSequence, Children: els}
}

func (q *patParser) count(t token.Token) int64 {
	n, err := strconv.ParseInt(t.Text, 10, 64)
	if err != nil || n < 0 || n > 1<<32-1 {
		q.fail(t, "a pattern count must be between 0 and 4294967295")
	}
	return n
}

func (q *patParser) quantified(t token.Token, text string, min, max int64) *ast.PatternNode {
	if q.i < len(q.toks) && q.toks[q.i].Kind == token.KeywordOf {
		q.i++
	}
	inner := q.element()
	n := q.node(ast.PatQuantified, t, inner.To)
	n.Text, n.Min, n.Max, n.Children = text, min, max, []*ast.PatternNode{inner}
	return n
}

// braced returns a parser of the tokens between the bracket at q.i ('{'
// or '(') and the one that closes it, and moves past them.
func (q *patParser) braced(errTok token.Token, msg string) *patParser {
	j := int(q.closes[q.base+q.i]) - q.base // the closing bracket in q.toks
	if j < 0 || j >= len(q.toks) {
		q.fail(errTok, msg)
	}
	start := q.i + 1
	q.i = j + 1
	return &patParser{p: q.p, toks: q.toks[start:j], base: q.base + start, closes: q.closes}
}

func (q *patParser) sub(inner *patParser, errTok token.Token) *ast.PatternNode {
	if len(inner.toks) == 0 {
		q.fail(errTok, "expected a pattern inside the braces")
	}
	return inner.alternation()
}

func (q *patParser) element() *ast.PatternNode {
	q.p.enter()
	defer q.p.leave()
	// Each form that holds other elements is parsed by a function of its
	// own, so that elements nested N deep hold N small frames.
	t := q.at(0)
	var el *ast.PatternNode
	switch t.Kind {
	case token.KeywordOne, token.KeywordZero, token.KeywordOptional, token.KeywordExactly, token.KeywordAt, token.IntLiteral:
		el = q.counted(t)
	case token.KeywordCapture:
		el = q.capture(t)
	case token.KeywordCheck:
		el = q.lookaround(t)
	case token.LeftParen:
		el = q.group(t)
	default:
		el = q.simple(t)
	}
	return q.quantifier(el)
}

// counted parses the elements that start with a count (`one or more of`,
// `optional`, `exactly N`, `at least N`, `N to M`), and a number alone.
func (q *patParser) counted(t token.Token) *ast.PatternNode {
	var el *ast.PatternNode
	switch t.Kind {
	case token.KeywordOne, token.KeywordZero:
		if q.at(1).Kind == token.KeywordOr && q.at(2).Kind == token.KeywordMore {
			q.i += 3
			text := "one or more"
			if t.Kind == token.KeywordZero {
				text = "zero or more"
			}
			el = q.quantified(t, text, 0, 0)
		} else {
			q.fail(t, "unexpected '"+t.Kind.Spelling()+"' in the pattern: did you mean '"+t.Kind.Spelling()+" or more'?")
		}
	case token.KeywordOptional:
		q.i++
		el = q.quantified(t, "optional", 0, 1)
	case token.KeywordExactly:
		q.i++
		n := q.at(0)
		if n.Kind != token.IntLiteral {
			q.failNear(n, t, "expected a number after 'exactly'")
		}
		c := q.count(n)
		q.i++
		el = q.quantified(t, "exactly", c, c)
	case token.KeywordAt:
		q.i++
		n := q.at(0)
		if n.Kind != token.KeywordLeast && n.Kind != token.KeywordMost {
			q.failNear(n, t, "expected 'least' or 'most' after 'at'")
		}
		q.i++
		m := q.at(0)
		if m.Kind != token.IntLiteral {
			q.failNear(m, t, "expected a number after 'at "+n.Kind.Spelling()+"'")
		}
		c := q.count(m)
		q.i++
		if n.Kind == token.KeywordLeast {
			el = q.quantified(t, "at least", c, -1)
		} else {
			el = q.quantified(t, "at most", 0, c)
		}
	case token.IntLiteral:
		q.i++
		if q.i+1 < len(q.toks) && q.toks[q.i].Kind == token.KeywordTo {
			lo := q.count(t)
			q.i++
			m := q.toks[q.i]
			if m.Kind != token.IntLiteral {
				q.fail(m, "expected a number after 'to'")
			}
			hi := q.count(m)
			if lo > hi {
				q.fail(m, "the lower bound of a pattern range cannot exceed the upper bound")
			}
			q.i++
			el = q.quantified(t, "between", lo, hi)
		} else {
			el = q.node(ast.PatLiteral, t, t.End)
			el.Text = t.Text
		}
	}
	return el
}

// capture parses `capture { … } as NAME`.
func (q *patParser) capture(t token.Token) *ast.PatternNode {
	q.i++
	if q.at(0).Kind != token.LeftBrace {
		q.fail(t, "expected '{' after 'capture'")
	}
	inner := q.braced(t, "the capture group is not closed")
	if q.at(0).Kind != token.KeywordAs {
		q.fail(t, "expected 'as' after the capture group")
	}
	q.i++
	nm := q.at(0)
	if nm.Kind != token.Identifier {
		q.failNear(nm, t, "expected a capture name after 'as'")
	}
	q.i++
	body := q.sub(inner, t)
	el := q.node(ast.PatCapture, t, nm.End)
	el.Name, el.Children = q.p.identOf(nm), []*ast.PatternNode{body}
	return el
}

// lookaround parses `check [not] ahead|behind for { … }`.
func (q *patParser) lookaround(t token.Token) *ast.PatternNode {
	q.i++
	neg := false
	if q.at(0).Kind == token.KeywordNot {
		q.i++
		neg = true
	}
	d := q.at(0)
	if d.Kind != token.KeywordAhead && d.Kind != token.KeywordBehind {
		q.failNear(d, t, "expected 'ahead' or 'behind' after 'check'")
	}
	q.i++
	if q.at(0).Kind != token.KeywordFor {
		q.fail(t, "expected 'for' after 'check "+d.Kind.Spelling()+"'")
	}
	q.i++
	if q.at(0).Kind != token.LeftBrace {
		q.fail(t, "expected '{' after 'check "+d.Kind.Spelling()+" for'")
	}
	br := q.at(0)
	inner := q.braced(br, "the '{' of the lookaround is not closed")
	body := q.sub(inner, br)
	el := q.node(ast.PatLookaround, t, q.prevEnd())
	el.Text = d.Kind.Spelling()
	if neg {
		el.Text = "not " + el.Text
	}
	el.Children = []*ast.PatternNode{body}
	return el
}

// group parses `( … )`.
func (q *patParser) group(t token.Token) *ast.PatternNode {
	inner := q.braced(t, "the '(' in the pattern is not closed")
	if len(inner.toks) == 0 {
		q.fail(t, "empty parentheses in the pattern")
	}
	return q.sub(inner, t)
}

// simple parses the elements that hold no other element.
func (q *patParser) simple(t token.Token) *ast.PatternNode {
	var el *ast.PatternNode
	switch t.Kind {
	case token.StringLiteral:
		q.i++
		el = q.node(ast.PatLiteral, t, t.End)
		el.Text = t.Text
	case token.KeywordAny:
		q.i++
		n := q.at(0)
		switch n.Kind {
		case token.KeywordLetter, token.KeywordDigit, token.KeywordWhitespace, token.KeywordCharacter:
			q.i++
			el = q.node(ast.PatClass, t, n.End)
			el.Text = n.Kind.Spelling()
			if n.Kind == token.KeywordCharacter {
				el.Text = "any"
			}
		default:
			q.failNear(n, t, "expected 'letter', 'digit', 'whitespace' or 'character' after 'any'")
		}
	case token.KeywordLetter, token.KeywordDigit, token.KeywordWhitespace:
		q.i++
		el = q.node(ast.PatClass, t, t.End)
		el.Text = t.Kind.Spelling()
		if q.at(0).Kind == token.KeywordOr && isSimpleClass(q.at(1).Kind) && q.i+1 < len(q.toks) {
			alt := q.node(ast.PatAlternative, t, t.End)
			alt.Children = []*ast.PatternNode{el}
			for q.i+1 < len(q.toks) && q.at(0).Kind == token.KeywordOr && isSimpleClass(q.at(1).Kind) {
				c := q.at(1)
				q.i += 2
				cn := q.node(ast.PatClass, c, c.End)
				cn.Text = c.Kind.Spelling()
				alt.Children = append(alt.Children, cn)
				alt.To = c.End
			}
			el = alt
		}
	case token.KeywordUnicode:
		q.i++
		n := q.at(0)
		switch {
		case n.Kind == token.KeywordLetter || n.Kind == token.KeywordDigit:
			q.i++
			el = q.node(ast.PatClass, t, n.End)
			el.Text, el.Arg = "unicode property", map[bool]string{true: "Alphabetic", false: "Numeric"}[n.Kind == token.KeywordLetter]
			for q.i+2 < len(q.toks) && q.at(0).Kind == token.KeywordOr && q.at(1).Kind == token.KeywordUnicode &&
				(q.at(2).Kind == token.KeywordLetter || q.at(2).Kind == token.KeywordDigit) {
				c := q.at(2)
				q.i += 3
				if el.Kind != ast.PatAlternative {
					first := el
					el = q.node(ast.PatAlternative, t, first.To)
					el.Children = []*ast.PatternNode{first}
				}
				cn := q.node(ast.PatClass, c, c.End)
				cn.Text, cn.Arg = "unicode property", map[bool]string{true: "Alphabetic", false: "Numeric"}[c.Kind == token.KeywordLetter]
				el.Children = append(el.Children, cn)
				el.To = c.End
			}
		case n.Kind == token.KeywordCategory || n.Kind == token.KeywordScript || (n.Kind == token.Identifier && n.Text == "property"):
			q.i++
			s := q.at(0)
			if s.Kind != token.StringLiteral {
				q.failNear(s, n, "expected a quoted name after 'unicode "+n.Kind.Spelling()+n.Text+"'")
			}
			q.i++
			el = q.node(ast.PatClass, t, s.End)
			el.Text, el.Arg = "unicode "+n.Kind.Spelling()+n.Text, s.Text
		case n.Kind == token.EOF:
			q.fail(t, "incomplete unicode pattern")
		default:
			q.fail(n, "expected 'letter', 'digit', 'category', 'script' or 'property' after 'unicode'")
		}
	case token.KeywordStart:
		if q.at(1).Kind == token.KeywordOf && q.at(2).Kind == token.KeywordText && q.i+2 < len(q.toks) {
			q.i += 3
			el = q.node(ast.PatAnchor, t, q.prevEnd())
			el.Text = "start of text"
		} else {
			q.fail(t, "expected 'start of text'")
		}
	case token.KeywordSame:
		q.i++
		if !(q.at(0).Kind == token.KeywordAs && q.at(1).Kind == token.KeywordCaptured && q.i+1 < len(q.toks)) {
			q.fail(t, "expected 'as captured' after 'same'")
		}
		q.i += 2
		s := q.at(0)
		if s.Kind != token.StringLiteral {
			q.failNear(s, t, "expected the capture name (in quotes) after 'same as captured'")
		}
		q.i++
		el = q.node(ast.PatBackref, t, s.End)
		el.Text = s.Text
	case token.KeywordBy:
		q.fail(t, "found 'by': did you mean 'followed by'? ('followed by' goes between pattern elements)")
	case token.Identifier:
		q.i++
		switch t.Text {
		case "letters", "digits":
			el = q.node(ast.PatClass, t, t.End)
			el.Text = strings.TrimSuffix(t.Text, "s")
		default:
			el = q.node(ast.PatListRef, t, t.End)
			el.Name = q.p.identOf(t)
		}
	case token.EOF:
		q.fail(t, "unexpected end of the pattern")
	default:
		q.fail(t, "unexpected "+describe(t)+" in the pattern")
	}
	return el
}

func isSimpleClass(k token.Kind) bool {
	return k == token.KeywordLetter || k == token.KeywordDigit || k == token.KeywordWhitespace
}

func (q *patParser) quantifier(el *ast.PatternNode) *ast.PatternNode {
	t := q.at(0)
	switch t.Kind {
	case token.KeywordExactly:
		if n := q.at(1); n.Kind == token.IntLiteral && q.i+1 < len(q.toks) {
			c := q.count(n)
			q.i += 2
			out := &ast.PatternNode{Range: ast.Range{From: el.From, To: n.End}, Kind: ast.PatQuantified, Text: "exactly", Min: c, Max: c}
			out.Children = []*ast.PatternNode{el}
			return out
		}
	case token.KeywordBetween:
		if q.i+3 < len(q.toks) && q.at(2).Kind == token.KeywordAnd && q.at(1).Kind == token.IntLiteral && q.at(3).Kind == token.IntLiteral {
			lo, hi := q.count(q.at(1)), q.count(q.at(3))
			if lo > hi {
				q.fail(q.at(3), "the lower bound of a pattern range cannot exceed the upper bound")
			}
			end := q.at(3).End
			q.i += 4
			out := &ast.PatternNode{Range: ast.Range{From: el.From, To: end}, Kind: ast.PatQuantified, Text: "between", Min: lo, Max: hi}
			out.Children = []*ast.PatternNode{el}
			return out
		}
	}
	return el
}
