package parser

// This file implements the recovery of a block whose closer is missing, by
// the layout of the text.
//
// WFL closes blocks with `end …`, and indentation means nothing to the
// grammar: a block whose `end` is not typed yet runs, for the reference
// parser, to the end of the file (or to the first `end` that is not its
// own), and everything after its header is read as its body. Programs are
// laid out by indentation all the same, and that layout is the hint the
// grammar does not give: a block's body ends before the first later line
// indented at or left of its header that does not continue it.
//
// The parser follows the reference wherever the reference succeeds, and
// recovers only where it fails:
//
//   - block parses a body as the reference does, and notes the first
//     statement on a line indented at or left of the header (the layout's
//     end of the body). When the body then stops where the statement's
//     closer check would fail (the end of the file, or an `end` that is not
//     the statement's), the body is cut at that line: the statements after
//     it, already parsed, are kept for the statement list around the block
//     (memo), which takes them over without parsing them again, so the
//     text after an unclosed block is parsed once and reads as it would
//     with the closer in place. When the body stops at the statement's
//     closer, or at a clause that continues it (`otherwise`, `catch`, …),
//     nothing is cut: a program that parses is parsed as the reference
//     parses it.
//   - closeFrame runs the statement's closer check where the body stopped
//     (where the reference runs it), so the diagnostic is the reference's,
//     raised when the reference raises it; it then closes the statement at
//     the layout's end instead of unwinding, so the statement keeps its
//     tree. An `end` on a line of its own at the header's indentation that
//     is not the statement's closer is taken for its mistyped closer.
//   - An `end` inside a body, indented deeper than the header, that does
//     not close the statement (the closer of a block whose header is
//     broken) is reported as the reference reports it and skipped: the body
//     goes on to its own closer.
//
// Each unclosed statement is recorded as an [Open] of its unit, with where
// its closer goes.

import (
	"slices"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/token"
)

// An Open is a block statement whose closer the parser did not find, and
// that it closed by the layout instead.
type Open struct {
	Header token.Span // the statement's first word
	Closer string     // the words that close it: "end action", "end check", "end"
	// At is where the closer belongs: the end of the last line of the
	// block's body as the layout ends it (or of its header, when the body
	// is empty).
	At int
	// Indent is the indentation of the header's line, in columns (a tab
	// counts four): the closer goes on a line of its own at that indentation.
	Indent int
}

// A frame is a block statement being parsed: what recovering its missing
// closer needs.
type frame struct {
	start  token.Token // the statement's first token
	indent int         // the indentation of its line
	kw     token.Kind  // the word after `end` that closes it; 0 for a bare `end`
	word   string      // kw's spelling when kw is an identifier (`end transaction`)
	closer string      // the words that close it, for messages and fixes
	// close is what the statement does where its body stopped: the closer
	// check as the reference runs it, failing (unwinding) as it fails.
	close func()

	// ended is set when a body of the statement was cut by the layout; at
	// is then the token where the body stopped (where the reference runs
	// the closer check).
	ended bool
	at    int
	// body is the end of the last body parsed (of its last statement).
	body int
	// taken are the diagnostics takenFrom raised for the statement: those
	// of the block around it whose closer it would take; raised, for that
	// block, what its closer check reported then (not reported again).
	taken  [2]int
	raised []diag.Diagnostic
	// clauses is set while takenFrom reads the statement on as the
	// reference would, past a clause of it (its closer check then has one).
	clauses bool
	// stop is what stops the body being parsed (block's stop).
	stop func(token.Kind) bool
	// members is set for a container, whose body holds members, not
	// statements (its close reports what it holds no more).
	members bool
	// member is set for a member of a statement around (a container's
	// action, a describe's test, setup or teardown): it reports the words
	// that start the next member, which end the body by the layout.
	member func(token.Kind) bool
	// failedAt is set when the layout ended the body where the reference
	// failed, before its stop (headerAround): the closer check at the stop
	// says nothing more.
	failedAt bool
	// passed is set while takenFrom reads on past the statement's closer:
	// for what it parses from there on the statement is closed, as it is
	// for the reference, and no block inside asks it for a closer or a
	// clause.
	passed bool
}

// memoStmt is a statement parsed ahead of a block's layout end, kept for
// the statement list that goes on from there.
type memoStmt struct {
	stmt         ast.Stmt
	end, lastEnd int // p.pos and p.lastEnd after it
	reach        int // the furthest token its parse looked at
	// kept is set for a statement that read the blocks around it (keep).
	kept *keptAhead
}

// A keptAhead is what keep notes of a statement parsed ahead that read the
// blocks around it.
type keptAhead struct {
	low  int       // the first of p.frames its parse read
	need frameSpan // the frames around it its parse needed
	gen  int       // when it was kept (p.gen)
	// around are the frames of the statement list keep took it for: only
	// that list takes it (a list elsewhere that reaches it parses it
	// again); diags, raised and opens are what its parse reported, raised
	// again where it is taken (retime).
	around []*frame
	diags  []diag.Diagnostic
	raised []raise
	opens  []raisedOpen
}

// openFrame starts the frame of the statement being parsed, a block
// statement closed by `end kw` (`end` alone when kw is 0); close is its
// closer check.
func (p *parser) openFrame(kw token.Kind, close func()) *frame {
	return p.openFrameAt(p.head, kw, close)
}

// openFrameAt is openFrame for a block whose header starts at t, a clause
// of the statement (`setup:` in a describe).
func (p *parser) openFrameAt(t token.Token, kw token.Kind, close func()) *frame {
	fr := &frame{start: t, indent: p.indentOf(t.Start), kw: kw, closer: "end", close: close}
	if kw != 0 {
		fr.closer = "end " + kw.Spelling()
	}
	p.frames = append(p.frames, fr)
	return fr
}

// popFrame removes fr, closed, from the frames (those of a statement's
// clauses are closed before the statement).
func (p *parser) popFrame(fr *frame) {
	if n := len(p.frames); n > p.base && p.frames[n-1] == fr {
		p.frames[n-1] = nil
		p.frames = p.frames[:n-1]
	}
}

// ownFrame returns the frame of the statement being parsed, or nil when it
// opened none.
func (p *parser) ownFrame() *frame {
	if len(p.frames) > p.base {
		return p.frames[len(p.frames)-1]
	}
	return nil
}

// top returns the innermost frame, or nil.
func (p *parser) top() *frame {
	if n := len(p.frames); n > 0 {
		return p.frames[n-1]
	}
	return nil
}

// closes reports whether the tokens at the current position are fr's
// closer.
func (p *parser) closes(fr *frame) bool {
	if p.kind() != token.KeywordEnd || p.atEOF() {
		return false
	}
	if fr.kw == 0 {
		return true
	}
	n := p.peekN(1)
	if fr.word != "" {
		return n.Kind == token.Identifier && n.Text == fr.word
	}
	return n.Kind == fr.kw
}

// membersEnd handles t, which a member loop of fr's statement (a
// container's properties, a list's `add` lines) does not hold: at the end
// of the file, or first on a line indented at or left of fr's header, the
// statement ends there by the layout. It then reports the diagnostic the
// reference reports there (code and msg), records fr unclosed and reports
// true; the caller returns its statement. Otherwise it unwinds with that
// diagnostic, as the reference does. With names, the diagnostic is a
// diag.Expected about them (p.expected).
func (p *parser) membersEnd(fr *frame, t token.Token, code, msg string, names ...string) bool {
	var k diag.Kind
	if names != nil {
		k = diag.Expected
	}
	if t.Kind != token.EOF && !p.outdented(fr, t) {
		p.failTokOf(t, k, code, msg, names...)
	}
	nd := len(p.diags)
	if t.Kind == token.Eol {
		t.End = t.Start
	}
	if ev := p.event; p.afterCut() {
		// The reference reads t in the body of the member before, cut by
		// the layout, and raises its own diagnostic where that body
		// stops: this one, the recovery's, comes after it.
		p.event = p.tokStart(p.lastCut.stop) + 1
		defer func() { p.event = ev }()
	}
	p.report(t.Start, t.End, code, msg)
	p.diags[nd].Kind, p.diags[nd].Names = k, names
	p.lastEnd = p.lastToken(p.pos, p.lastEnd)
	fr.body = p.lastEnd
	p.lastEnd = p.bodyBlanks(fr, p.lastEnd, t.Start)
	p.unclosed(fr, nd, true)
	return true
}

// member parses a member of fr's statement with parse, at the token t that
// starts it. On a line indented at or left of fr's header, a member that
// the reference fails to read (`alice.greet()` after a `create new … as
// alice:` whose `end` is not typed) is where the layout ends the
// statement: the reference's diagnostic stays, fr is recorded unclosed, the
// parser goes back to t, and member reports true; the caller returns its
// statement.
func (p *parser) member(fr *frame, t token.Token, parse func()) (ended bool) {
	if !p.outdented(fr, t) {
		parse()
		return false
	}
	at, nd := p.pos, len(p.diags)
	if p.attempt(parse) {
		return false
	}
	p.rewind(at)
	p.lastEnd = p.lastToken(p.pos, p.lastEnd)
	fr.body = p.lastEnd
	p.lastEnd = p.bodyBlanks(fr, p.lastEnd, t.Start)
	p.unclosed(fr, nd, true)
	return true
}

// readPast reads, when wanted and the tokens end before the text does
// (UnitsAhead), the line of the rest of the text where a body could stop,
// as if it came next, and reports whether there is one. At the end of the
// text it makes the parser's end of file the text's.
func (p *parser) readPast(wanted bool) bool {
	if !wanted || p.rest == nil {
		return false
	}
	if p.eof.Start >= len(p.src) {
		if p.clearFor != nil {
			// The rest was read already, and no place stops a body before
			// the end of the text: another body reads on to there too
			// (shared: where the whole text reads so too).
			p.clearFor = p.top()
			p.shared = true
		}
		return false
	}
	at := p.rest(p.eof.Start)
	if at < 0 {
		p.short = true // the caller will read the rest itself
		return false
	}
	p.clearFor = p.top()
	if at >= len(p.src) {
		p.eof.Start, p.eof.End = len(p.src), len(p.src)
		return false
	}
	e := at
	for e < len(p.src) && p.src[e] != '\n' && p.src[e] != '\r' {
		e++
	}
	if e < len(p.src) {
		e++
		if p.src[e-1] == '\r' && e < len(p.src) && p.src[e] == '\n' {
			e++
		}
	}
	p.toks = append(p.toks, lexer.LexFrom(p.src[:e], at, nil).Tokens...)
	p.eof.Start, p.eof.End = e, e
	return true
}

// endsPast reports whether the body of fr, which reached the end of the
// tokens of a stretch (UnitsAhead) before its layout end, ends by the
// layout where the stretch does: the text after it starts a line at or
// left of fr's header with a word that neither continues a block nor
// starts a member. The body then reads the rest of the text as a body read
// past its layout end does (readPast), or as a block inside it read it
// already, on to the end of the text. A block inside a container or a
// describe, whose end the members after it decide, is left to the caller.
func (p *parser) endsPast(fr *frame) bool {
	if fr == nil || p.rest == nil || p.to >= len(p.src) || fr.close == nil || fr.members || fr.member != nil ||
		!p.firstOnLine(p.to) || p.indentOf(p.to) > fr.indent || !p.mayReadAhead() {
		return false
	}
	// The rest is not read yet, or a block inside fr read it, and no place
	// stopped its body before the end of the text.
	if p.eof.Start != p.to && (p.eof.Start < len(p.src) || p.clearFor == nil) {
		return false
	}
	e := strings.IndexAny(p.src[p.to:], "\r\n")
	if e < 0 {
		e = len(p.src)
	} else {
		e += p.to
	}
	lx := lexer.LexFrom(p.src[:e], p.to, nil)
	return len(lx.Tokens) > 0 && lx.Tokens[0].Start == p.to && plainStart(lx.Tokens[0].Kind)
}

// readsAround notes that the parse asks the blocks around fr how they read
// the current line, which depends on there being any: a statement parsed
// at the top level, its outermost block fr, reads otherwise inside a body
// (a `when` left of its try's header is the try's there, and the outer
// try's inside one), so its unit has a context (Unit.Context).
func (p *parser) readsAround(fr *frame) {
	if i := slices.Index(p.frames, fr); i >= 0 {
		p.readFrame(i)
	}
}

// readFrame notes that the parse read frame i (the i-th of p.frames), and
// that what it read there may differ where that frame is not (need).
func (p *parser) readFrame(i int) {
	p.low = min(p.low, i)
	p.need.add(i)
}

// A frameSpan is a span of indices of p.frames, [lo, hi]; empty when lo >
// hi.
type frameSpan struct{ lo, hi int }

var noFrames = frameSpan{noFrame, -1}

func (s *frameSpan) add(i int) { s.lo, s.hi = min(s.lo, i), max(s.hi, i) }

func (s *frameSpan) merge(o frameSpan) { s.lo, s.hi = min(s.lo, o.lo), max(s.hi, o.hi) }

// closesAround reports whether the tokens at the current position close a
// block statement around fr's: then they are its closer, whatever the
// indentation says.
//
// Its answer depends on the frames around fr being there, but where it is
// no, only on none of them closing: with fewer frames around, it is no
// too. So a statement parsed ahead that asked it needs only the frame
// that said yes (p.need): taken by the statement list around a block cut
// by the layout, whose frame is then gone, it reads the same unless that
// frame was the one (keep).
//
// The frames found not to close the tokens are kept (noneCloses).
func (p *parser) closesAround(fr *frame) bool {
	if len(p.frames) == 0 {
		return false
	}
	p.low = min(p.low, 0) // it reads them from the first on
	from := 0             // the frames below from close the tokens not
	if c := &p.closing; c.pos == p.pos && readAhead.remember {
		from = c.same(p.frames)
	}
	for i := from; i < len(p.frames); i++ {
		if o := p.frames[i]; o != fr && !o.ended && !o.passed && p.closes(o) {
			p.need.add(i)
			return true
		}
	}
	none := len(p.frames)
	if fr != nil && !fr.ended && p.closes(fr) {
		none = slices.Index(p.frames, fr)
	}
	p.closing.pos, p.closing.frames = p.pos, append(p.closing.frames[:0], p.frames[:max(none, 0)]...)
	return false
}

// noneCloses records that none of frames closes the tokens at token index
// pos (closesAround): blocks nested deep around a token (describes left
// open one after another, read as the reference nests them) each ask it
// there, and each then reads only the frames pushed since. A frame once
// ended stays so.
type noneCloses struct {
	pos    int
	frames []*frame
}

// same returns how many of frames, from the first, are those of c: frames
// are pushed and popped as a stack, each new, so where one of them is the
// one c has at its index, so are those below it.
func (c *noneCloses) same(frames []*frame) int {
	n := min(len(frames), len(c.frames))
	for n > 0 && frames[n-1] != c.frames[n-1] {
		n--
	}
	return n
}

// continues reports whether a body of fr that stopped at the current token
// goes on as the reference reads it: at fr's closer, or at a clause word
// (the body's stop words other than `end`), which the statement takes.
// An `end` that does not close fr is taken for its closer mistyped only
// when nothing before it ends the body by the layout (lined, a statement
// at the header's indentation, does: `end teardown` after the next `test`
// of a describe closes no test whose `end test` is missing).
func (p *parser) continues(fr *frame, lined bool) bool {
	if p.atEOF() {
		return false
	}
	if p.kind() == token.KeywordEnd {
		return p.closes(fr) || !lined && p.mistyped(fr)
	}
	return true
}

// headerAround reports whether the body of fr, cut by the layout before
// the statements after, reads in one of them, first on its line, what the
// reference fails to read as a statement of the body, though it belongs to
// a statement around fr: the next member of a container (`action
// get_value:` after a method whose `end` is missing) or of a describe
// (`teardown:` after a test whose `end test` is missing), or a clause of a
// block around fr lined up with its header (`otherwise:` of the outer
// check after an inner check, in its `otherwise` body, whose `end check`
// is missing). The body ends at the cut, and that failure is the
// diagnostic of fr's missing closer.
func (p *parser) headerAround(fr *frame, after []ahead) bool {
	for _, a := range after {
		if a.walk != nil || !p.memberAt(fr, a.start) && !p.clauseAround(fr, a.start) {
			continue
		}
		for i := a.diags; i < a.diagsEnd; i++ {
			if p.raised[i].owner != droppedOwner && p.diags[i].Severity == diag.Error {
				// The failure is fr's, even when it is another block's
				// missing closer (annotate leaves such a one as it is):
				// kept with fr, it stays should the statement holding it,
				// parsed again where it is taken, not fail (raiseTaken).
				fr.taken = [2]int{i, i + 1}
				fr.failedAt = true
				return true
			}
		}
	}
	return false
}

// memberAt reports whether fr is a member of a statement around (a
// container's action, a describe's test) and the token at index at starts
// another member of it.
func (p *parser) memberAt(fr *frame, at int) bool {
	return fr.member != nil && at < len(p.toks) && fr.member(p.toks[at].Kind) && p.firstOnLine(p.toks[at].Start)
}

// strayMemberLine reports whether t, first on a line at or left of the
// header of fr, a member of a statement around that holds only members (a
// container's action, a describe's test), starts no member of that
// statement and no clause, closes nothing, and lies inside that statement
// by the layout: `ed` typed for `end` between two methods. Only fr's body
// can hold such a line, and the reference reads it there: it does not end
// the body by the layout (the next member does), so that the statement
// around does not report what the reference does not.
func (p *parser) strayMemberLine(fr *frame, t token.Token) bool {
	if fr.member == nil || fr.member(t.Kind) || t.Kind == token.KeywordEnd || clauseWord(t.Kind) {
		return false
	}
	i := slices.Index(p.frames, fr)
	if i < 1 {
		return false
	}
	around := p.frames[i-1]
	return around != nil && around.members && p.indentOf(t.Start) > around.indent
}

// containerMember and describeMember report whether k starts a member of a
// container and of a describe.
func containerMember(k token.Kind) bool {
	switch k {
	case token.KeywordAction, token.KeywordProperty, token.KeywordStatic, token.KeywordEvent:
		return true
	}
	return false
}

func describeMember(k token.Kind) bool {
	switch k {
	case token.KeywordSetup, token.KeywordTeardown, token.KeywordTest, token.KeywordDescribe:
		return true
	}
	return false
}

// clauseAround reports whether the token at index at is a clause word that
// fr's body does not stop at, first on its line, lined up with the header
// of a block around fr that takes it.
func (p *parser) clauseAround(fr *frame, at int) bool {
	if at >= len(p.toks) {
		return false
	}
	t := p.toks[at]
	if !clauseWord(t.Kind) || fr.stop == nil || fr.stop(t.Kind) || !p.firstOnLine(t.Start) {
		return false
	}
	in := p.indentOf(t.Start)
	p.readsAround(fr)
	for i := len(p.frames) - 1; i >= 0; i-- {
		f := p.frames[i]
		if f == fr || f.ended || f.passed {
			continue
		}
		p.readFrame(i)
		if f.close == nil || f.kw == token.KeywordDescribe {
			break
		}
		if f.indent == in && f.stop != nil && f.stop(t.Kind) {
			return true
		}
	}
	return false
}

// takenFrom reports whether the closer at the current position, which
// closes fr (whose body the layout ends before), belongs by the layout to a block around fr, and the
// reference fails for want of it: it is indented as that block's header
// (`end check` of the outer of two checks, the inner's deleted), and the
// outer block, its closer taken, would stop at the end of the file or at
// an `end` that is not its own. Then fr's body is cut (its closer is
// missing, not the outer's): takenFrom reports, with the outer's closer
// check there, the diagnostic the reference reports, pointing at fr, and
// keeps what it read ahead for the statement lists that take it over.
func (p *parser) takenFrom(fr *frame) bool {
	t := p.peek()
	in := p.indentOf(t.Start)
	if !p.firstOnLine(t.Start) || in >= fr.indent || !p.mayReadAhead() {
		return false // past the bound, the closer is fr's, as the reference reads it
	}
	p.readsAround(fr)
	// What it reads on past fr, and reports for the blocks around, depends
	// on all of them: a statement parsed ahead that asks it is parsed
	// again where it is taken (keep).
	p.need.merge(frameSpan{0, noFrame})
	// A clause word (`otherwise` of the check around an inner one whose
	// `end check` is missing) is taken by fr first, as by the reference.
	clause := t.Kind != token.KeywordEnd
	// The frames around fr, innermost first; one of them lines up with the
	// closer.
	var around []*frame
	found := false
	for i := len(p.frames) - 1; i >= 0; i-- {
		f := p.frames[i]
		if f == fr || f.ended || f.passed {
			continue
		}
		p.readFrame(i)
		if f.close == nil || f.kw == token.KeywordDescribe && fr.kw != token.KeywordDescribe {
			// A body of members whose reading is not known here. A
			// describe's is read only for a describe inside it: a test
			// whose closer is missing does not take `end describe`.
			break
		}
		around = append(around, f)
		if clause {
			found = found || f.indent == in && f.stop != nil && f.stop(t.Kind)
		} else {
			found = found || f.indent == in && p.closes(f)
		}
	}
	if !found {
		return false
	}
	if clause {
		around = append([]*frame{fr}, around...)
	}
	// Read on as the reference does, the closer taken: each block around
	// fr goes on to where its body stops, and takes its closer there.
	s, last := p.pos, p.lastEnd
	if !clause {
		p.next()
		if fr.kw != 0 {
			p.next()
		}
		fr.passed = true
	}
	var fails *frame
	var fail func() // the reference's failure where fails stops, when not its closer check
	// The stops of the blocks whose `otherwise:` the reading took, as they
	// were: restored once it is done.
	type savedStop struct {
		f    *frame
		stop func(token.Kind) bool
	}
	var stops []savedStop
	defer func() {
		for _, s := range slices.Backward(stops) {
			s.f.stop = s.stop
		}
	}()
read:
	for _, f := range around {
		stop := f.stop
		if f.members {
			// A container's or a describe's members: its closer, or what
			// it holds no more.
			for {
				for p.pos < len(p.toks) && p.kind() == token.Eol {
					p.next()
				}
				if p.pos >= p.window && p.rest != nil && p.to < len(p.src) {
					// Past the stretch: what follows decides, which the
					// places where bodies stop do not say.
					p.short = true
					fails = f
					break read
				}
				if p.pos >= len(p.toks) {
					fails = f
					break read
				}
				k := p.kind()
				if k == token.KeywordEnd && p.closes(f) {
					p.next()
					if f.kw != 0 {
						p.next()
					}
					f.passed = true
					continue read
				}
				if f.kw == token.KeywordDescribe && describeMember(k) && p.mayReadAhead() {
					// A test, hook or describe: read as the reference
					// reads it; the describe's own loop reads it again.
					at := p.pos
					var st ast.Stmt
					a := p.ahead(func() ast.Stmt {
						if !p.attempt(func() { st = p.describeItem() }) {
							st = nil
						}
						return st
					})
					p.dropRaised(a.diags, len(p.raised), a.opens, len(p.opens), a.start, a.end)
					p.forgetKept(a.gen)
					if st == nil {
						break read // it fails there: the reference's own error
					}
					if p.pos == at {
						p.next()
					}
					continue
				}
				if f.kw != token.KeywordDescribe && containerMember(k) {
					break read // more members: read as the reference does
				}
				fails = f
				break read
			}
		}
		for {
			if p.pos >= len(p.toks) && !p.readPast(true) {
				// The end of the text (or of the stretch read, which the
				// caller then reads on from: short).
				p.short = p.short || p.rest != nil && p.eof.Start < len(p.src)
				fails = f
				break read
			}
			k := p.kind()
			if k == token.KeywordEnd {
				if !p.closes(f) {
					fails = f
					break read
				}
				p.next()
				if f.kw != 0 {
					p.next()
				}
				f.passed = true
				break
			}
			if clauseWord(k) && stop != nil && stop(k) {
				if f.kw == token.KeywordTry && (k == token.KeywordOtherwise || k == token.KeywordFinally) && p.peekN(1).Kind != token.Colon {
					// A try's `otherwise` or `finally` takes no more
					// words (`otherwise check if …:` of the check around,
					// read as the try's): the reference fails there.
					p.next()
					fail = func() { p.expectOf(token.Colon, "':' after ", "'"+k.Spelling()+"'") }
					fails = f
					break read
				}
				// A clause of the block: its header line, then its body
				// (a check's `otherwise` body stops at its `end` only,
				// but for `otherwise check if …:`, which goes on with the
				// chain).
				f.clauses = true
				if f.kw == token.KeywordCheck && p.peekN(1).Kind != token.KeywordCheck {
					// And so for the blocks read inside that body, which
					// ask f what it takes (clauseAround, takenFrom).
					stop = stopEnd
					if f.stop != nil {
						stops = append(stops, savedStop{f, f.stop})
						f.stop = stopEnd
					}
				}
				for !p.atEOF() && p.kind() != token.Eol {
					p.next()
				}
				continue
			}
			if k == token.Eol {
				p.next()
				continue
			}
			if !p.mayReadAhead() {
				// Past the bound on the work of reading ahead: the closer
				// is fr's, as the reference reads it.
				fails = nil
				break read
			}
			at := p.pos
			a := p.ahead(func() ast.Stmt { return p.stmtRecover() })
			p.keep(a, nil)
			if p.pos == at {
				p.next()
			}
		}
	}
	fr.passed = false
	for _, f := range around {
		f.passed = false
	}
	if fails == nil {
		for _, f := range around {
			f.clauses = false
		}
	}
	if fails != nil {
		// The reference's diagnostic: that block's closer check where its
		// body stops.
		nd := len(p.diags)
		p.note(p.pos)
		p.event = p.tokStart(p.pos)
		p.settled = p.pos >= len(p.toks) && p.eof.Start == len(p.src)
		if fail == nil {
			fail = fails.close
		}
		p.attempt(fail)
		p.settled = false
		p.event = -1
		for _, f := range around {
			f.clauses = false
		}
		p.note(p.pos)
		fr.taken = [2]int{nd, len(p.diags)}
		fails.raised = append(fails.raised, p.diags[nd:]...)
	}
	p.note(min(p.pos+1, len(p.toks))) // what was read decided
	p.pos, p.lastEnd = s, last
	return fails != nil
}

// Reading ahead past a body's layout end costs more than reading once:
// each block whose body the layout ends walks what follows it to where the
// reference's reading stops, so blocks left open one after another (an
// action after an action, none closed, or `check if x:` on every line)
// walk the rest of the text once each, the square of their number. Two
// bounds keep that in hand. The steps walked past layout ends in the whole
// parse may be at most walkPerToken for each token of the text (so the
// parse costs at most that many times a plain one: a thousand open actions
// one after another recover, each at its layout end); and statements parsed
// ahead may stand at most maxAheads one inside another (the recursion that
// reads them stays far below MaxDepth). Past either bound, a block is read
// as the reference reads it, to its closer or to the end of the text, and
// so is a block whose reading ahead reaches it: what it read is its body.
// A describe's members past the line where the layout ends it count too
// (readPastLayout): describes left open one after another each read the
// rest of them as the reference nests them (each takes over the walk of
// the one inside it: pastWalk), and the lists around read them again. A
// small text may read ahead minWork steps whatever its size: blocks
// nested and left open in a few lines walk the rest once each, many
// times the text's tokens, and that many steps take a fraction of a
// millisecond. A large one may read ahead maxWork steps at most: a step
// costs about a microsecond and keeps a few hundred bytes until the parse
// ends (the findings raised and dropped, the statements parsed again), so
// a text of a few megabytes of describes left open, each reading the rest,
// took minutes and tens of gigabytes at 64 steps a token; past maxWork
// tokens/64 (about 32,000 tokens, 4,000 lines) the text reads ahead less
// a token, and a program being typed reads ahead a few thousand steps.
const (
	walkPerToken = 64
	minWork      = 1 << 14
	maxWork      = 1 << 21
	maxAheads    = 2048
)

// A walkRec is the walk of a body past its layout end: the statements it
// took, in order, from the first one after the cut to where its loop
// stopped (to, at the end of the text or at a word that stops the body).
// Blocks left open one after another make each block walk the rest of the
// text (see walkPerToken); a block whose body the layout ends, and whose
// walk took only plain statements, records it by its first token, so that
// the block around it, whose own walk reaches that token right after the
// statement holding the inner block, takes the rest over whole: the same
// statements, already kept for the statement lists around (memo), at the
// same place, where it would have walked them one by one. A plain statement
// is one every body walks alike: one that parsed on its own (its parse read
// no block around it) and starts with no word that stops a body, continues
// a block around it or starts a member (plainStart). The block taking a
// walk over whose body then does not end by the layout (its closer comes
// after) holds the walk's statements (walk.body).
type walkRec struct {
	segs        []walkSeg
	to, lastEnd int // p.pos and p.lastEnd where the walk stopped
	reach       int // the furthest token the parses of its statements looked at
}

// A walkSeg is one statement of a walk, or a walk taken over.
type walkSeg struct {
	stmt ast.Stmt
	rec  *walkRec
}

// walk is what a body's loop notes of its walk past its layout end.
type walk struct {
	plain bool      // every statement walked is plain (see walkRec)
	segs  []walkSeg // what it walked
	reach int
	took  bool // a walk was taken over (segs holds one)
}

// add notes a statement parsed ahead past the cut.
func (w *walk) add(p *parser, a ahead) {
	w.plain = w.plain && !a.context && plainStart(p.toks[a.start].Kind)
	w.segs = append(w.segs, walkSeg{stmt: a.stmt})
	w.reach = max(w.reach, a.reach)
}

// take notes a walk taken over.
func (w *walk) take(r *walkRec) {
	w.segs = append(w.segs, walkSeg{rec: r})
	w.reach = max(w.reach, r.reach)
	w.took = true
}

// body returns the statements of a body, stmts (those from index cut on
// are the statements walked past the layout's end), with the statements of
// the walks it took over in their places: the statements walked are those
// of w.segs, in order.
func (w *walk) body(stmts []ast.Stmt, cut int) []ast.Stmt {
	out := append(make([]ast.Stmt, 0, len(stmts)), stmts...)
	if !w.took {
		return out
	}
	return (&walkRec{segs: w.segs}).appendStmts(out[:cut])
}

// appendStmts appends the walk's statements to out, those of the walks it
// took over in their places (without recursion: walks taken over one
// inside another are as many as the blocks left open one after another).
func (r *walkRec) appendStmts(out []ast.Stmt) []ast.Stmt {
	type frame struct {
		segs []walkSeg
		i    int
	}
	stack := []frame{{segs: r.segs}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i == len(f.segs) {
			stack = stack[:len(stack)-1]
			continue
		}
		seg := f.segs[f.i]
		f.i++
		if seg.rec != nil {
			stack = append(stack, frame{segs: seg.rec.segs})
		} else {
			out = append(out, seg.stmt)
		}
	}
	return out
}

// recordWalk records the walk of a body whose layout end is at token index
// at.
func (p *parser) recordWalk(at int, r *walkRec) {
	if !readAhead.jump {
		return
	}
	if p.walks == nil {
		p.walks = make(map[int]*walkRec)
	}
	p.walks[at] = r
}

// plainStart reports whether a statement starting with k reads alike in
// every body (see walkRec): k stops no body, continues no block and starts
// no member.
func plainStart(k token.Kind) bool {
	return k != token.KeywordEnd && !clauseWord(k) && !containerMember(k) && !describeMember(k)
}

// WorkBound is the bound on the steps of reading ahead in the parse of a
// text of tokens tokens (see walkPerToken): past it, blocks are read as
// the reference reads them.
func WorkBound(tokens int) int {
	return min(max(readAhead.perToken*tokens, readAhead.least), readAhead.most)
}

// readAhead holds the bounds on reading ahead (see walkPerToken), whether
// walks are taken over (walkRec), whether a statement parsed ahead that
// read the blocks around it is taken as it is where it needed none that
// is gone (keep), and whether the frames found not to close a token are
// remembered (noneCloses); tests change them.
var readAhead = struct {
	perToken, least, most, aheads int
	jump, reuse, remember         bool
}{walkPerToken, minWork, maxWork, maxAheads, true, true, true}

// readPastLayout parses with parse a member of a describe past the line
// where the layout ends it (tests.go: cand), which the reference reads as
// the describe's: read to learn where the reference fails, then dropped
// and read again by the statement list around. Its tokens count as read
// ahead (walkPerToken): describes left open one after another each read
// the rest of them so, and past the bound they end where the reference
// ends them.
func (p *parser) readPastLayout(parse func() ast.Stmt) ast.Stmt {
	p.past++
	defer func() { p.past-- }()
	return parse()
}

// mayReadAhead reports whether a statement after a body's layout end may
// still be read ahead (see walkPerToken), and marks the statement being
// parsed (p.bounded) when the bound on the work says no.
func (p *parser) mayReadAhead() bool {
	if p.walked >= WorkBound(len(p.toks)) {
		p.bounded = true
		p.denied++
		return false
	}
	if p.aheads >= readAhead.aheads {
		p.denied++
		return false
	}
	return true
}

// ahead parses a statement with parse, ahead of where the statement lists
// around will take it (past a body's layout end), and returns what keep
// needs to hand it over.
func (p *parser) ahead(parse func() ast.Stmt) ahead {
	a := ahead{start: p.pos, diags: len(p.diags), opens: len(p.opens), gen: p.gen}
	reach, low, need := p.reach, p.low, p.need
	p.reach, p.low, p.need = p.pos, len(p.frames), noFrames
	p.aheads++
	a.stmt = parse()
	p.aheads--
	a.end, a.lastEnd, a.reach = p.pos, p.lastEnd, max(p.reach, p.pos)
	a.diagsEnd, a.opensEnd = len(p.diags), len(p.opens)
	// It read the blocks around it (an `end` it does not close, read as
	// theirs): parsed where it is taken, it may read otherwise.
	a.context, a.low = p.low < len(p.frames), p.low
	a.need = frameSpan{p.need.lo, min(p.need.hi, len(p.frames)-1)} // the frames around it
	p.reach, p.low = max(reach, p.reach, p.pos), min(low, p.low)
	p.need.merge(need)
	return a
}

// keep hands a statement parsed ahead over to the statement lists that go
// on where it starts (memo). One whose parse read the blocks around it is
// parsed again there, where its context is theirs: what it reported here
// is dropped. When cut is the frame of a block the layout cut (not nil),
// the statement list that goes on there is the one around that block,
// whose frames are those below it: a statement that needed none of the
// others (p.need) reads the same there, and is taken as it is by that
// list only (memoStmt.around), what it reported raised again then
// (retime). Not where members are read (a container's or a describe's,
// a test's or a hook's body, or a statement holding one, or one that
// failed): their findings come in an order that depends on the blocks
// around.
func (p *parser) keep(a ahead, cut *frame) {
	if a.stmt == nil {
		return
	}
	m := memoStmt{stmt: a.stmt, end: a.end, lastEnd: a.lastEnd, reach: a.reach}
	if a.context {
		at := -1 // the cut frame's index, where the statement may be taken as it is
		if cut != nil && readAhead.reuse && !slices.ContainsFunc(p.frames, holdsMembers) {
			at = slices.Index(p.frames, cut)
		}
		// Dropped here, and raised again where it is taken, as parsing
		// it again there would (retime).
		in := func(owner int) bool { return owner >= a.stmt.Pos() && owner < a.stmt.End()+1 }
		reuse := at >= 0 && a.need.hi < at && !holdsMembersStmt(a.stmt)
		if reuse {
			m.kept = &keptAhead{low: a.low, need: a.need, around: slices.Clone(p.frames[:at])}
		}
		for i := a.diags; i < len(p.raised); i++ {
			if r := p.raised[i]; r.owner != droppedOwner && in(r.owner) {
				if reuse {
					m.kept.diags = append(m.kept.diags, p.diags[i])
					m.kept.raised = append(m.kept.raised, r)
				}
				p.raised[i].owner = droppedOwner
			}
		}
		for i := a.opens; i < len(p.opens); i++ {
			if o := p.opens[i]; o.owner != droppedOwner && in(o.owner) {
				if reuse {
					m.kept.opens = append(m.kept.opens, o)
				}
				p.opens[i].owner = droppedOwner
			}
		}
		if !reuse {
			// What it parsed ahead itself is parsed again too: what that
			// reported is dropped with the rest.
			p.memo.forgetRange(a.start, a.end)
			p.forgetKept(a.gen)
			clear(p.walks) // they may hold what is parsed again
			return
		}
	}
	p.gen++
	if m.kept != nil {
		m.kept.gen = p.gen
	}
	p.memo.put(a.start, m)
}

// retime raises, where the statement m kept as parsed ahead is taken, what
// its parse reported (its diagnostics and Opens, in their order), as
// parsing it again there would: keep dropped them where they were raised.
// The first finding raised is the reference's, and a unit owns what was
// raised while it was parsed.
func (p *parser) retime(m memoStmt) {
	for i, d := range m.kept.diags {
		r := m.kept.raised[i]
		r.unit, r.retimed = p.units.n, true
		p.diags = append(p.diags, d)
		p.raised = append(p.raised, r)
	}
	p.opens = append(p.opens, m.kept.opens...)
}

// holdsMembers reports whether fr is a container's, a describe's or one of
// their members' (a test's, a hook's, a method's), wherever it stands.
func holdsMembers(fr *frame) bool {
	switch fr.kw {
	case token.KeywordDescribe, token.KeywordTest, token.KeywordSetup, token.KeywordTeardown:
		return true
	}
	return fr.members || fr.member != nil
}

// holdsMembersStmt reports whether st holds a statement whose body is
// members (a describe, a test, a hook, a container, an interface): their
// members' findings come in an order that depends on the blocks around.
func holdsMembersStmt(st ast.Stmt) bool {
	if _, bad := st.(*ast.BadStmt); bad {
		return true // what it failed to read may have been
	}
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.DescribeStmt, *ast.TestStmt, *ast.HookStmt, *ast.ContainerDecl, *ast.InterfaceDecl:
			found = true
		}
		return !found
	})
	return found
}

// forgetKept forgets the statements that read the blocks around them and
// were kept since p.gen was gen: they were parsed ahead in a statement
// that is parsed again, from its own frames, which they may have needed
// (its blocks cut by the layout were around them), so they are parsed
// again too.
func (p *parser) forgetKept(gen int) { p.memo.forgetKeptSince(gen) }

// dropRaised drops the diagnostics raised from index diags up to diagsTo
// and the Opens from opens up to opensTo, and forgets the statements
// parsed ahead from token index from up to to: the statement lists that
// take those statements parse them again and report it there.
func (p *parser) dropRaised(diags, diagsTo, opens, opensTo, from, to int) {
	for i := diags; i < diagsTo; i++ {
		p.raised[i].owner = droppedOwner
	}
	for i := opens; i < opensTo; i++ {
		p.opens[i].owner = droppedOwner
	}
	p.memo.forgetRange(from, to)
	clear(p.walks) // they may hold what is parsed again
}

// dropRaisedSince is dropRaised for what was raised since the statements
// parsed ahead were as they were at mark (memoTable.mark): it puts them
// back so. Those kept since are forgotten, wherever they start, and those
// kept before, which raised what they found before diags, are kept, even
// where a statement parsed since forgot them: the statement lists that
// take them go on as they would have without what was parsed since.
func (p *parser) dropRaisedSince(diags, diagsTo, opens, opensTo, mark int) {
	for i := diags; i < diagsTo; i++ {
		p.raised[i].owner = droppedOwner
	}
	for i := opens; i < opensTo; i++ {
		p.opens[i].owner = droppedOwner
	}
	p.memo.rollback(mark)
	clear(p.walks) // they may hold what is parsed again
}

// orphans gives what the statements parsed ahead that no statement list
// took reported (their statement is not in the tree: the parse went on
// otherwise, after the reference's path, which raised it) to the unit whose
// parse read them; their Opens are dropped (but for those of statements
// inside a statement that failed, which keep them, as when no statement
// was parsed ahead).
func (p *parser) orphans(f *ast.File) {
	if !p.memo.used() {
		return
	}
	in := make(map[int]bool)
	var bad []ast.Range // statements that failed: what they held raised its findings before
	for _, st := range f.Stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case nil:
				return false
			case *ast.BadStmt:
				in[n.Pos()] = true
				bad = append(bad, n.Range)
			case ast.Stmt:
				in[n.Pos()] = true
			case ast.Expr:
				return false
			}
			return true
		})
	}
	inBad := func(at int) bool {
		k, _ := slices.BinarySearchFunc(bad, at, func(r ast.Range, at int) int {
			if r.To < at {
				return -1
			}
			if r.From > at {
				return 1
			}
			return 0
		})
		return k < len(bad) && bad[k].From <= at && at <= bad[k].To
	}
	for i, r := range p.raised {
		if !r.top && r.owner != droppedOwner && !in[r.owner] && !inBad(r.owner) {
			p.raised[i].owner = p.units.startOf(r.unit, p.lead)
		}
	}
	for i, o := range p.opens {
		if o.owner != droppedOwner && !in[o.owner] && !inBad(o.owner) {
			p.opens[i].owner = droppedOwner
		}
	}
}

// droppedOwner is the owner of a diagnostic or an Open that belongs to no unit:
// raised while a statement was parsed ahead in a context it is not taken in.
const droppedOwner = -1 << 62

// mistyped reports whether the `end` at the current position, which is not
// fr's closer, is most likely fr's closer mistyped or being typed: it
// closes no block around fr, starts its line, and is bare or followed by a
// word that names no other block (`end`, `end o`); or, at the header's
// indentation, by one that does (`end for` closing a check). closeFrame
// takes it for fr's closer.
func (p *parser) mistyped(fr *frame) bool {
	t := p.peek()
	if !p.firstOnLine(t.Start) || p.closesAround(fr) {
		return false
	}
	if n := p.peekN(1); n.Kind != token.Eol && n.Kind != token.EOF && blockWord(n) {
		return p.indentOf(t.Start) == fr.indent
	}
	return true
}

// blockWord reports whether t is the word after `end` of some block's
// closer.
func blockWord(t token.Token) bool {
	switch t.Kind {
	case token.KeywordAction, token.KeywordCheck, token.KeywordFor, token.KeywordCount, token.KeywordRepeat,
		token.KeywordTry, token.KeywordLoop, token.KeywordMap, token.KeywordWhile, token.KeywordPattern,
		token.KeywordList, token.KeywordContainer, token.KeywordRoute, token.KeywordDescribe, token.KeywordTest,
		token.KeywordSetup, token.KeywordTeardown, token.KeywordOn, token.KeywordIf:
		return true
	}
	return t.Kind == token.Identifier && t.Text == "transaction"
}

// attempt runs f, which may unwind; it reports whether f finished. What f
// reported stays.
func (p *parser) attempt(f func()) (ok bool) {
	depth := p.depth
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			p.depth = depth
			ok = false
		}
	}()
	f()
	return true
}

// closeFrame runs fr's closer check where its body stopped and reports
// whether the statement is closed. When it is not, the diagnostic is the
// reference's, and the statement ends where the layout ends it: the parser
// goes on from there instead of unwinding.
func (p *parser) closeFrame(fr *frame) bool {
	defer p.popFrame(fr)
	nd := len(p.diags)
	if fr.ended {
		at, last := p.pos, p.lastEnd
		p.note(at)
		p.pos = fr.at
		p.event = p.tokStart(fr.at)
		p.settled = fr.at >= len(p.toks) && p.eof.Start == len(p.src)
		if !fr.failedAt {
			p.attempt(fr.close)
		}
		p.settled = false
		p.event = -1
		p.note(p.pos)
		p.pos, p.lastEnd = at, last
		p.lastCut.from, p.lastCut.stop = at, fr.at
		if fr.taken[1] > fr.taken[0] {
			p.raiseTaken(fr)
			p.annotate(fr, fr.taken[0], fr.taken[1], true)
		}
		p.unclosed(fr, nd, true)
		return false
	}
	s := p.pos
	if p.attempt(fr.close) {
		return true
	}
	// Reported already, when a block in it was read as the reference reads
	// it (takenFrom).
	if len(p.diags) > nd && slices.ContainsFunc(fr.raised, func(d diag.Diagnostic) bool {
		x := p.diags[nd]
		return d.Span == x.Span && d.Code == x.Code && d.Message == x.Message
	}) {
		p.diags, p.raised = p.diags[:nd], p.raised[:nd]
	}
	p.note(p.pos)
	p.rewind(s)
	if p.atEOF() {
		p.lastEnd = p.bodyBlanks(fr, p.lastToken(p.pos, p.lastEnd), len(p.src)) // as block left it
	}
	if p.closes(fr) {
		// The closer is there; the check failed for another reason (a try
		// without a clause).
		p.next()
		if fr.kw != 0 {
			p.next()
		}
		return false
	}
	if p.kind() == token.KeywordEnd && p.mistyped(fr) {
		// A closer mistyped: `end for` closing a check, or a bare `end`.
		// The rest of its line is the closer's too (`end of transaction`:
		// `transaction` is no variable).
		p.next()
		if n := p.peek(); n.Kind.IsKeyword() || n.Kind == token.Identifier {
			p.skipLine()
		}
		p.unclosed(fr, nd, false)
		return false
	}
	p.unclosed(fr, nd, true)
	return false
}

// lastToken returns the end of the last token before token i that is not
// a line break, or or when there is none.
func (p *parser) lastToken(i, or int) int {
	for i--; i >= 0; i-- {
		if p.toks[i].Kind != token.Eol {
			return p.toks[i].End
		}
	}
	return or
}

// strayEnd handles an `end` that stops a body of fr: when it closes
// neither fr nor a block around it, and is indented deeper than fr's
// header (it closes a block whose header did not parse) or follows
// something on its line (`catch: end`), the reference fails there: its
// diagnostic is reported, the `end` and the rest of its line skipped (but
// a clause's word after it), and strayEnd reports true; the body goes on.
// Past the layout's end of the body (past), the statements read before
// the `end` may go to the statement lists around, should the layout cut
// the body there: the diagnostic is raised late, where the reading stands,
// so that one of theirs that fails comes first, as in the reference.
func (p *parser) strayEnd(fr *frame, past bool) bool {
	t := p.peek()
	clause := clauseWord(p.peekN(1).Kind)
	if p.closes(fr) || p.closesAround(fr) || p.firstOnLine(t.Start) && p.indentOf(t.Start) <= fr.indent && !clause {
		return false
	}
	s, nd := p.pos, len(p.diags)
	if ev := p.event; past && ev < 0 {
		p.event = t.Start
		defer func() { p.event = ev }()
	}
	p.attempt(fr.close)
	for i := nd; i < len(p.diags); i++ {
		p.diags[i].Kind = diag.Stray
	}
	p.rewind(s)
	p.next()
	if !clause {
		p.skipLine() // `end display ""`: no `""` statement in the body
	}
	return true
}

// afterCut reports whether the parser stands where the last statement
// closed by the layout left it (line breaks aside), and the reference read
// that statement's body on past here: the reference reads the current
// token in that body, and the statement's closer check, where the body
// stopped, raised the reference's diagnostic. A statement list around
// that then fails at the token fails where the reference does not.
func (p *parser) afterCut() bool {
	c := p.lastCut
	if c.stop <= p.pos || c.from > p.pos {
		return false
	}
	for i := c.from; i < p.pos; i++ {
		if p.toks[i].Kind != token.Eol {
			return false
		}
	}
	return true
}

// skipLine consumes the tokens up to the end of the line: the rest of a
// closer's line is the closer's.
func (p *parser) skipLine() {
	for n := p.peek(); n.Kind != token.Eol && n.Kind != token.EOF; n = p.peek() {
		p.next()
	}
}

// clauseWord reports whether k starts a clause that continues a block
// statement (`end when error:` has an `end` too many).
func clauseWord(k token.Kind) bool {
	switch k {
	case token.KeywordWhen, token.KeywordCatch, token.KeywordOtherwise, token.KeywordFinally:
		return true
	}
	return false
}

// unclosed points the diagnostics raised since nd (its closer check's) at
// fr's header and, when missing is set (the closer is missing, not
// mistyped), at where the closer goes, and records fr as an Open.
func (p *parser) unclosed(fr *frame, nd int, missing bool) {
	p.annotate(fr, nd, len(p.diags), missing)
	if missing {
		hdr := token.Span{Start: fr.start.Start, End: fr.start.End}
		at := max(fr.body, fr.start.End)
		p.opens = append(p.opens, raisedOpen{Open: Open{Header: hdr, Closer: fr.closer, At: at, Indent: fr.indent}, owner: p.owner})
	}
}

// annotate points the diagnostics [from, to) at fr's header and, when
// missing is set, at where its closer goes.
func (p *parser) annotate(fr *frame, from, to int, missing bool) {
	hdr := token.Span{Start: fr.start.Start, End: fr.start.End}
	at := max(fr.body, fr.start.End)
	kind := diag.Misclosed
	rel := []diag.Related{{Span: hdr, Message: "the block '" + fr.closer + "' closes starts here"}}
	if missing {
		kind = diag.Unclosed
		rel = []diag.Related{
			{Span: hdr, Message: "this block has no '" + fr.closer + "'"},
			{Span: token.Span{Start: at, End: at}, Message: "'" + fr.closer + "' goes after this line, where the indentation ends the block"},
		}
	}
	for i := from; i < to; i++ {
		if p.diags[i].Related == nil {
			names := []string{fr.closer}
			if p.diags[i].Kind == diag.Expected {
				names = append(names, p.diags[i].Names...)
			}
			p.diags[i].Related, p.diags[i].Kind, p.diags[i].Names = rel, kind, names
		}
	}
}

// raiseTaken raises again, for fr, the diagnostics that headerAround or
// takenFrom took as the reference's failure for fr's missing closer when a
// statement read ahead past fr's layout end dropped them since (keep):
// that statement is parsed again where the list around takes it, in a
// context where it may not fail, and the failure is fr's. fr.taken then
// spans the copies.
func (p *parser) raiseTaken(fr *frame) {
	from, to := fr.taken[0], fr.taken[1]
	if !slices.ContainsFunc(p.raised[from:to], func(r raise) bool { return r.owner == droppedOwner }) {
		return
	}
	nd := len(p.diags)
	for i := from; i < to; i++ {
		r := p.raised[i]
		if r.owner == droppedOwner {
			r.owner, r.unit = p.owner, p.units.n
		}
		p.diags = append(p.diags, p.diags[i])
		p.raised = append(p.raised, r)
	}
	fr.taken = [2]int{nd, len(p.diags)}
}

// raisedOpen is an Open with the statement it belongs to (see raised).
type raisedOpen struct {
	Open
	owner int
}

// note records that the parse looked at the token at index i (see Unit.Reach).
func (p *parser) note(i int) {
	if i > p.reach {
		p.reach = i
	}
}

// bodyBlanks extends end, the end of the last token of a body of fr's
// statement, over the blanks after it on its line and the blank lines
// after it indented deeper than fr's header, up to limit: the line the
// user has just opened in the body (after Enter) is the body's. It returns
// the end of the last such line's blanks, or end.
func (p *parser) bodyBlanks(fr *frame, end, limit int) int {
	src, i, out := p.src, end, end
	for out < limit && (src[out] == ' ' || src[out] == '\t') {
		out++ // the blanks the cursor is after (`display ‸`)
	}
	for i < limit && src[i] != '\n' && src[i] != '\r' {
		i++ // the rest of the last line: a comment
	}
	for i < limit {
		if src[i] == '\r' && i+1 < limit && src[i+1] == '\n' {
			i++
		}
		i++
		ls := i
		for i < limit && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f') {
			i++
		}
		if i < limit && src[i] != '\n' && src[i] != '\r' {
			break // a line that is not blank
		}
		if p.indentOf(ls) > fr.indent {
			out = i
		}
	}
	return out
}

// closerTyped reports whether token i is alone on its line and starts the
// word `end`: a closer being typed (`e`, `en`).
func (p *parser) closerTyped(i int) bool {
	t := p.toks[i]
	return t.Kind == token.Identifier && len(t.Text) < 3 && strings.HasPrefix("end", t.Text) &&
		(i+1 >= len(p.toks) || p.toks[i+1].Kind == token.Eol)
}

// tokEnd returns the end of token i, or the end of the text parsed.
func (p *parser) tokEnd(i int) int {
	if i < len(p.toks) {
		return p.toks[i].End
	}
	return p.eof.End
}

// tokStart returns the offset of token i, or the end of the text parsed.
func (p *parser) tokStart(i int) int {
	if i < len(p.toks) {
		return p.toks[i].Start
	}
	return p.eof.Start
}

// outdented reports whether the token t starts its line at or left of
// fr's header.
func (p *parser) outdented(fr *frame, t token.Token) bool {
	return p.firstOnLine(t.Start) && p.indentOf(t.Start) <= fr.indent
}

// firstOnLine reports whether only blanks precede offset at on its line.
func (p *parser) firstOnLine(at int) bool {
	for i := at - 1; i >= 0; i-- {
		switch p.src[i] {
		case ' ', '\t', '\f':
		case '\n', '\r':
			return true
		default:
			// A character the lexer dropped is no token: the line's
			// first word follows it (`* describe …`).
			k, found := slices.BinarySearchFunc(p.dropped, i, func(s token.Span, i int) int {
				if s.End <= i {
					return -1
				}
				if s.Start > i {
					return 1
				}
				return 0
			})
			if !found {
				return false
			}
			i = p.dropped[k].Start
		}
	}
	return true
}

// indentOf returns the indentation, in columns (a tab counts four), of the
// line holding offset at.
func (p *parser) indentOf(at int) int { return Indent(p.src, at) }

// Indent returns the indentation, in columns (a tab counts four), of the
// line of src holding offset at: what the layout reads.
func Indent(src string, at int) int {
	i := at
	for i > 0 && src[i-1] != '\n' && src[i-1] != '\r' {
		i--
	}
	n := 0
	for ; i < len(src); i++ {
		switch src[i] {
		case ' ', '\f':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// attribute gives each unit its diagnostics, in the order they were raised,
// and its opens: each belongs to the unit holding the statement that raised
// it (a statement parsed ahead of a cut body belongs to a later unit).
func (p *parser) attribute(units []Unit) {
	if len(units) == 0 {
		return
	}
	unitOf := func(owner int) int {
		// The last unit starting at or before owner.
		lo, hi := 0, len(units)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if units[m].Start <= owner {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return max(lo-1, 0)
	}
	for i := range units {
		units[i].Event = -1
	}
	if len(p.diags) > 0 {
		which := make([]int32, len(p.diags))
		count := make([]int32, len(units)+1)
		for k, r := range p.raised {
			if r.owner == droppedOwner {
				which[k] = -1
				continue
			}
			u := unitOf(r.owner)
			which[k] = int32(u)
			count[u+1]++
		}
		for u := range units {
			count[u+1] += count[u]
		}
		// One backing array, each unit's diagnostics in a stretch of it.
		all := make([]diag.Diagnostic, count[len(units)])
		next := slices.Clone(count[:len(units)])
		// earlier is, for a unit whose first diagnostic is late (raised
		// at the Event where a body the layout cut stops), the first one
		// raised after it that the reference raises before that Event: a
		// statement of that body, read ahead and kept for the statement
		// list around the cut, fails before the body stops (its diagnostic
		// is raised again where the list takes the statement, after the
		// cut block's closer check: retimed). It comes first.
		earlier := make([]int32, len(units))
		for k, d := range p.diags {
			u := which[k]
			if u < 0 {
				continue
			}
			r := p.raised[k]
			if next[u] == count[u] {
				units[u].Event = r.event
				earlier[u] = -1
			} else if ev := units[u].Event; ev >= 0 && earlier[u] < 0 && r.retimed && r.event < 0 && r.at < ev {
				earlier[u] = next[u]
			}
			all[next[u]] = d
			next[u]++
		}
		for u := range units {
			if e := earlier[u]; count[u+1] > count[u] && e >= 0 {
				d := all[e]
				copy(all[count[u]+1:e+1], all[count[u]:e])
				all[count[u]] = d
				units[u].Event = -1
			}
		}
		for u := range units {
			if count[u+1] > count[u] {
				// A statement parsed ahead, then again where it was
				// taken, may have said the same twice.
				ds := all[count[u]:count[u]]
				type key struct {
					span      token.Span
					code, msg string
				}
				var seen map[key]bool // for the long lists
				if count[u+1]-count[u] > 16 {
					seen = make(map[key]bool, count[u+1]-count[u])
				}
				for _, d := range all[count[u]:count[u+1]] {
					if seen != nil {
						if k := (key{d.Span, d.Code, d.Message}); !seen[k] {
							seen[k] = true
							ds = append(ds, d)
						}
					} else if !slices.ContainsFunc(ds, func(x diag.Diagnostic) bool {
						return x.Span == d.Span && x.Code == d.Code && x.Message == d.Message
					}) {
						ds = append(ds, d)
					}
				}
				units[u].Diags = slices.Clip(ds)
			}
		}
	}
	for _, o := range p.opens {
		if o.owner == droppedOwner {
			continue
		}
		u := unitOf(o.owner)
		units[u].Opens = append(units[u].Opens, o.Open)
	}
}
