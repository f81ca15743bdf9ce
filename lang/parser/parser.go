// Package parser turns WFL source into an [ast.File] and parse diagnostics.
// It accepts and rejects what the reference WFL parser accepts and rejects,
// and reports its first error on the same line, so editors flag exactly the
// programs that do not run.
//
// Start with [Parse]. It never fails and never panics: it always returns a
// tree (with [ast.BadStmt] and [ast.BadExpr] nodes where text could not be
// parsed), it always terminates (every loop makes progress or stops), and
// nesting deeper than [MaxDepth] is reported instead of overflowing the stack.
//
// Inside, each statement parser stops at the first problem the way the
// reference does: it records a diagnostic and unwinds (a private panic that
// never leaves the package) to the innermost statement list, which skips to
// the next line or statement keyword and goes on. Later diagnostics in the
// same file are therefore best-effort; the first one matches the reference.
// A block whose closer is missing or mistyped does not unwind: it is closed
// where the layout ends it, keeping its tree, and the text after it parses
// as it would with the closer in place (layout.go).
package parser

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/token"
)

// MaxDepth bounds the nesting of statements and expressions: the levels of
// a statement's syntax tree, where each operator of a chain (`1 + 1 + …`
// is a tree as deep as it has operators), each bracket, unary operator,
// call and block is a level. A top-level statement deeper than that is
// reported (CodeDepth) and replaced by a BadStmt, so every pass that
// recurses over trees recurses at most MaxDepth levels.
const MaxDepth = 10000

// Diagnostic codes: the parser's names of lang/diag's Parse* codes.
const (
	CodeExpected    = diag.ParseExpected
	CodeUnexpected  = diag.ParseUnexpected
	CodeReserved    = diag.ParseReserved
	CodeStrayEnd    = diag.ParseStrayEnd
	CodeEOF         = diag.ParseEOF
	CodeTry         = diag.ParseTryClause
	CodePattern     = diag.ParsePattern
	CodeUnsupported = diag.ParseUnsupported
	CodeDuplicate   = diag.ParseDuplicate
	CodeDepth       = diag.ParseTooDeep
	CodeDropped     = diag.ParseDroppedChar
)

// Parse parses src. It never fails: it always returns a tree.
func Parse(src string) (*ast.File, []diag.Diagnostic) {
	f, units, dropped := Units(src)
	return f, Diagnostics(units, dropped)
}

// Diagnostics combines what [Units] returns into Parse's diagnostics: the
// first one the parser raised ([First]), then the units' others that are
// not before it, then the dropped characters'; nil when there are none.
// Only the first is placed exactly as the reference places it; the others
// come from our own recovery, and those before the first are dropped so
// that they do not sort ahead of it.
func Diagnostics(units []Unit, dropped []diag.Diagnostic) []diag.Diagnostic {
	n := len(dropped)
	for _, u := range units {
		n += len(u.Diags)
	}
	if n == 0 {
		return nil
	}
	diags := make([]diag.Diagnostic, 0, n)
	if i := First(units); i >= 0 {
		first := units[i].Diags[0]
		diags = append(diags, first)
		for k, u := range units {
			for j, d := range u.Diags {
				if (k != i || j != 0) && d.Span.Start >= first.Span.Start {
					diags = append(diags, d)
				}
			}
		}
	}
	return append(diags, dropped...)
}

// First returns the index of the unit whose first diagnostic the parser
// raised first, which the reference reports first, or -1 when no unit has
// one, by [Unit.Raised]: of two at the same Event, the later unit's came
// first (its block was nested in the read-ahead of the earlier one's).
func First(units []Unit) int {
	best, at, late := -1, 0, false
	for i, u := range units {
		if len(u.Diags) == 0 {
			continue
		}
		k, l := u.Raised()
		if best < 0 || RaisedBefore(k, l, at, late) {
			best, at, late = i, k, l
		}
	}
	return best
}

// Raised returns where the reference's reading raises the unit's first
// diagnostic, and whether that is late: at its Event when it has one
// (late), and before a unit starting there; else at the unit's start,
// where the reference starts reading the statement that fails (before the
// Event of an earlier unit's body, cut by the layout, that the reference
// reads the statement in). A statement that parses, followed by stray
// `end` lines that fail, raises at them: an earlier unit's body that the
// reference reads on past them raises first where it stops.
func (u Unit) Raised() (at int, late bool) {
	if u.Event >= 0 {
		return u.Event, true
	}
	if u.StrayAt >= 0 && len(u.Diags) > 0 && u.Diags[0].Span.Start >= u.StrayAt {
		return u.Diags[0].Span.Start, false
	}
	return u.Start, false
}

// RaisedBefore reports whether a unit's first diagnostic, at offset k (its
// Event when l, else its start), was raised before that of an earlier unit
// at offset at (its Event when late). core orders its units' findings by it.
func RaisedBefore(k int, l bool, at int, late bool) bool {
	switch {
	case k != at:
		return k < at
	case l != late:
		return l
	}
	return l // two at one event: the later unit's first
}

// A Unit is one statement of the top level with the stray `end` lines that
// follow it, and the diagnostics raised while parsing them, unfiltered (see
// [Diagnostics]). A text that starts with stray `end` lines has a first unit
// without a statement.
//
// The parser's top level keeps no state from one unit to the next, so a unit
// parses the same wherever its text is put; this is what lets core re-parse
// only the units an edit touches.
type Unit struct {
	Start int      // offset of the unit's first token
	Stmt  ast.Stmt // nil only for a first unit of stray `end` lines
	Diags []diag.Diagnostic
	// Event is -1 when the unit's first diagnostic was raised while its
	// statement was parsed, in the order of the units; else it is the
	// offset where the parser, having read ahead to there past the unit,
	// raised it: the closer check of a body the layout cut (layout.go).
	// [First] reads it.
	Event int
	// Stray reports whether stray `end` lines follow the statement, most
	// of them consumed without a diagnostic (`end check`, a bare `end`): in
	// a text being typed, a block before them has most likely lost its
	// header, and what it held is read as statements of the top level.
	// StrayAt is the offset of the first of them, or -1.
	Stray   bool
	StrayAt int
	// Opens are the block statements of the unit whose closer is missing,
	// closed by the layout instead, in the order they were closed.
	Opens []Open
	// Reach is the end of the furthest token the parse of the unit looked
	// at: past the unit's end only when a body was cut by the layout after
	// reading ahead to where it stopped, which is what decided the unit's
	// tree and diagnostics.
	Reach int
	// Context is set when the parse of the unit's statement looked for
	// what its lines close or continue in every block it is in (layout.go:
	// takenFrom, closesAround): parsed inside another block, it may read
	// otherwise.
	Context bool
	// Bounded is set when the parse of the unit's statement reached the
	// bound on the work of reading ahead past the layout's end of bodies
	// (layout.go: walkPerToken): how far that work goes depends on the
	// text before the unit, so a stretch parsed alone may read the unit
	// otherwise than the whole text does.
	Bounded bool
	// Work is the steps of reading ahead the parse of the unit's statement
	// took (none when a block before it parsed it ahead of its layout end:
	// those count in that block's unit), and Tokens the tokens from the
	// unit's start to the next unit's (the line breaks before the first
	// unit are no unit's). The parse reads ahead at most walkPerToken steps
	// for each token of the text (layout.go), so a unit's Bounded depends on
	// the work of the units before it and on the size of the whole text,
	// which an edit anywhere changes.
	Work, Tokens int
}

// Units parses src as Parse does and returns the tree, its top-level units
// in order (their statements are f.Stmts) and the warnings for the
// characters the lexer dropped. Parse's diagnostics are the units'
// diagnostics as [Diagnostics] combines them.
func Units(src string) (f *ast.File, units []Unit, dropped []diag.Diagnostic) {
	return UnitsFrom(src, 0)
}

// UnitsFrom is Units parsing src[from:] only, as if it were the whole text,
// with every position an offset of src (the File's extent is [from,
// len(src))). from must be the start of a line of src: the parser's top
// level keeps no state from one unit to the next, so the units of a stretch
// of lines that starts and ends where units do are the units the whole
// text has there, and core parses just the statements a query needs.
// Comments are grouped and doc comments attached looking at src, so a doc
// comment above the stretch is not attached.
func UnitsFrom(src string, from int) (f *ast.File, units []Unit, dropped []diag.Diagnostic) {
	f, units, dropped, _ = unitsFrom(src, from, false, nil)
	return f, units, dropped
}

// UnitsAhead is UnitsFrom parsing src[from:to] only, a stretch of a longer
// text that goes on after to: where a body whose closer is missing reads
// ahead past to, ahead gives the offset of the first place at or after its
// argument where the rest of the text could stop the body (an `end` not
// consumed by a statement, or a clause word starting a statement: what
// the caller knows of the rest from an earlier parse of it), or len(src)
// when there is none, and the parser reads the line there as if it
// followed. The units are those of src[from:to] (none past to); a unit
// whose reading depended on more than ahead gives (its statement ends past
// to, or its parse stopped at to) has a Reach of at least to. ahead
// returns -1 when it cannot tell: the parse then stops at to. short reports
// whether a statement read past to where ahead could not tell (a header or
// a member list cut at to): the stretch alone does not say how it parses.
// shared reports whether a body read the rest as ahead said for another
// (a block around one that read the rest to the end of the text), or
// asked ahead for a body whose layout ends at to (layout.go: endsPast):
// the whole text reads so too only where its parse reads each body's walk
// past its layout end once, the block around taking over the walk of the
// block inside (no stray or mistyped `end` and no block left open but one
// that reads on to the end of the text), and stays under the bound on the
// work of reading ahead that the stretch alone stays under.
func UnitsAhead(src string, from, to int, ahead func(at int) int) (f *ast.File, units []Unit, dropped []diag.Diagnostic, short, shared bool) {
	var p *parser
	f, units, dropped, _, p = unitsWindowParser(src, from, to, ahead, false, nil)
	return f, units, dropped, p.short, p.shared
}

// UnitsLexedUntil is Units that also returns what the lexer made of src,
// which the linter reads too (lint.Check), so that the text is lexed once,
// and that gives up when done is closed: the
// statement it is at fails as at the end of the text, and no other is
// parsed. The result is then incomplete; the caller closed done because
// it no longer wants it.
func UnitsLexedUntil(src string, done <-chan struct{}) (f *ast.File, units []Unit, dropped []diag.Diagnostic, lx *lexer.Result) {
	return unitsFrom(src, 0, true, done)
}

func unitsFrom(src string, from int, keep bool, done <-chan struct{}) (f *ast.File, units []Unit, dropped []diag.Diagnostic, lx *lexer.Result) {
	f, units, dropped, lx, _ = unitsWindowParser(src, from, len(src), nil, keep, done)
	return f, units, dropped, lx
}

func unitsWindowParser(src string, from, to int, ahead func(int) int, keep bool, done <-chan struct{}) (f *ast.File, units []Unit, dropped []diag.Diagnostic, lx *lexer.Result, p *parser) {
	bufp := new([]token.Token) // the caller keeps the tokens
	if !keep {
		bufp = tokenPool.Get().(*[]token.Token)
	}
	lx = lexer.LexFromUntil(src[:to], from, *bufp, done) // a new buffer when src needs more
	p = &parser{src: src, toks: lx.Tokens, dropped: lx.Dropped, eof: token.Token{Kind: token.EOF, Start: to, End: to}, lead: from, event: -1, rest: ahead, done: done}
	p.window, p.to = len(p.toks), to
	f = &ast.File{Range: ast.Range{From: from, To: to}}
	p.program()
	if len(p.toks) > p.window {
		lx.Tokens = p.toks[:p.window] // the lines read past to were the caller's
	}
	// The tree keeps no tokens. Small buffers go back to the pool, cleared
	// so that they do not keep this source alive; a large file's buffer
	// (ten times its size) is left to the collector rather than kept
	// allocated between analyses.
	if !keep {
		if cap(lx.Tokens) <= poolMax {
			clear(lx.Tokens)
			*bufp = lx.Tokens[:0]
		}
		tokenPool.Put(bufp)
	}
	// The units and statements, in slices of their exact size.
	firstStart := len(src) + 1
	if p.units.n > 0 {
		firstStart = p.units.chunks[0][0].start
	}
	stray := false // stray `end` lines before the first statement
	for _, r := range p.raised {
		stray = stray || r.owner != droppedOwner && r.owner < firstStart
	}
	if n := p.units.n; n > 0 || stray {
		if stray {
			n++
		}
		units = make([]Unit, 0, n)
	}
	if p.units.n > 0 {
		f.Stmts = make([]ast.Stmt, 0, p.units.n)
	}
	tok := p.leadTok // where the last unit's tokens start (the line breaks before the first are nobody's)
	if stray {
		units = append(units, Unit{Start: p.lead, Reach: p.lead, StrayAt: -1})
	}
	for _, c := range p.units.chunks {
		for _, u := range c {
			if len(units) > 0 {
				units[len(units)-1].Tokens = u.tok - tok
				tok = u.tok
			}
			units = append(units, Unit{Start: u.start, Stmt: u.stmt, Stray: u.stray, StrayAt: u.strayAt, Reach: u.reach, Context: u.context, Bounded: u.bounded, Work: u.work})
			f.Stmts = append(f.Stmts, u.stmt)
		}
	}
	if len(units) > 0 {
		units[len(units)-1].Tokens = min(len(p.toks), p.window) - tok
	}
	p.orphans(f)
	p.attribute(units)
	boundDepth(units, f.Stmts)
	f.Comments = groupComments(src, lx.Comments)
	attachDocs(src, f)
	dropped = droppedFindings(src, lx.Dropped)
	if !keep {
		lx = nil // its tokens are the pool's now
	}
	return f, units, dropped, lx, p
}

// tokenPool recycles token buffers of at most poolMax tokens (files of up
// to about 20 KB) between Parse calls.
var tokenPool = sync.Pool{New: func() any { b := make([]token.Token, 0, 1024); return &b }}

const poolMax = 4096

type parser struct {
	src     string
	toks    []token.Token
	dropped []token.Span // the spans the lexer dropped, in order (firstOnLine)
	pos     int
	lastEnd int // end of the last consumed token
	eof     token.Token
	diags   []diag.Diagnostic
	depth   int
	done    <-chan struct{} // closed: stop (see UnitsLexedUntil); nil: never

	units   pendingUnits // the top level's units so far
	lead    int          // offset of the first token that is not a line break
	leadTok int          // its index

	// raised holds, for each of diags, the statement it belongs to and
	// when it was raised (see raise).
	raised []raise
	owner  int         // offset of the innermost statement being parsed
	head   token.Token // its first token
	event  int         // while a closer check runs where a cut body stopped, that place's offset; else -1

	frames []*frame      // the block statements being parsed, innermost last (layout.go)
	rest   func(int) int // what the rest of the text past the tokens holds (UnitsAhead), or nil
	shared bool          // a body read the rest as rest said for another, or for a layout end at the stretch's end (UnitsAhead)
	short  bool          // a statement read past the tokens where rest cannot tell (pastEnd)
	inStmt int           // statements being parsed (stmtRecover), one in another
	// clearFor is the block whose body read past the stretch where the
	// rest of the text stops it (readPast): it may read what rest said.
	clearFor *frame
	settled  bool             // the end of the tokens is the text's, as rest said (closeFrame)
	window   int              // the number of tokens of the text parsed: those after were read past it
	to       int              // where the stretch parsed ends (UnitsAhead)
	low      int              // the first of frames read since a statement parsed ahead began (layout.go: ahead)
	need     frameSpan        // the frames read since then whose being there decided what was read (layout.go: keep)
	aheads   int              // statements being parsed ahead, one inside another (layout.go: maxAheads)
	past     int              // members being read past a describe's layout end, one inside another (tests.go)
	closing  noneCloses       // a token no frame closes (closesAround)
	walked   int              // tokens read ahead and statements walked past bodies' layout ends (layout.go: walkPerToken)
	bounded  bool             // the statement being parsed reached that bound
	walks    map[int]*walkRec // the walks past a body's layout end that hold only plain statements, by first token (layout.go)
	base     int              // the first of frames opened by the innermost statement
	memo     memoTable        // statements parsed ahead of a body's layout end, by first token
	patterns *patternIndex    // where the pattern bodies end (patterns.go)
	gen      int              // the statements kept in memo so far
	opens    []raisedOpen     // the statements closed by the layout
	reach    int              // the furthest token the current unit's parse looked at
	// lastCut is the last statement closeFrame closed by the layout: the
	// token it went on from, and the one where the reference's reading of
	// its body stopped (its closer check's, later in the text).
	lastCut struct{ from, stop int }

	// pastWalks are the walks of describes' members past their layout end,
	// by first token (tests.go: pastWalk); denied counts the times reading
	// ahead was refused (mayReadAhead), which such a walk must not meet.
	pastWalks map[int]pastWalk
	denied    int

	idents []ast.Ident    // the rest of the current slab of identifiers
	lits   []ast.BasicLit // the rest of the current slab of literals

	// stmts holds the statements of the blocks being parsed, innermost
	// last: a block takes a slice of its exact size when it ends (growing
	// each block's slice by append would allocate several).
	stmts []ast.Stmt
}

// pendingUnits are the units of the top level while it is parsed, in
// chunks of unitChunk (a long file's units, appended to one slice, would
// allocate about five times their size as it grows); UnitsFrom copies them
// to a slice of their exact size.
type pendingUnits struct {
	chunks [][]pendingUnit
	n      int
}

type pendingUnit struct {
	start   int      // offset of the unit's first token
	stmt    ast.Stmt // never nil
	reach   int      // offset of the furthest token its parse looked at (Unit.Reach)
	stray   bool     // stray `end` lines follow it (Unit.Stray)
	strayAt int      // the first of them (Unit.StrayAt)
	context bool     // its parse read all its blocks' frames (Unit.Context)
	bounded bool     // its parse reached the bound on reading ahead (Unit.Bounded)
	work    int      // the steps of reading ahead its parse took (Unit.Work)
	tok     int      // the index of its first token
}

// noFrame is p.low before a statement's parse read any frame.
const noFrame = 1 << 30

const unitChunk = 256

func (pu *pendingUnits) add(u pendingUnit) {
	if pu.n%unitChunk == 0 {
		// Small texts have few units: the first chunk grows as needed.
		pu.chunks = append(pu.chunks, make([]pendingUnit, 0, min(unitChunk, 8)))
	}
	c := &pu.chunks[len(pu.chunks)-1]
	*c = append(*c, u)
	pu.n++
}

// startOf returns the start of unit i, parsed or being parsed, or lead
// before the first.
func (pu *pendingUnits) startOf(i, lead int) int {
	if i = min(i, pu.n-1); i < 0 {
		return lead
	}
	return pu.chunks[i/unitChunk][i%unitChunk].start
}

// markStray notes that stray `end` lines follow the last unit, if any,
// the first at offset at.
func (pu *pendingUnits) markStray(at int) {
	if pu.n > 0 {
		c := pu.chunks[len(pu.chunks)-1]
		if u := &c[len(c)-1]; !u.stray {
			u.stray, u.strayAt = true, at
		}
	}
}

// bailout unwinds a failed statement to the innermost statement list.
type bailout struct{}

// raise is what the parser knows of a diagnostic besides itself: the
// statement it belongs to (the offset of the innermost statement being
// parsed when it was raised: the unit holding that offset gets it), and,
// for the closer check of a body cut by the layout, which runs after the
// parser read ahead to where the body stopped, that place's offset (-1 for
// the others, raised in the order of their units); at is the offset of
// the token the parser stood at when it raised it (where the reference,
// reading the same, fails: a diagnostic may point back, at a header).
type raise struct {
	owner, event, at int
	top              bool // raised by the top level (a stray `end`), not a statement
	retimed          bool // raised again where a statement read ahead was taken (retime)
	unit             int  // the unit of the top level being parsed then
}

func (p *parser) peek() token.Token {
	if p.pos < len(p.toks) {
		if p.pos >= p.window {
			p.pastEnd()
		}
		return p.toks[p.pos]
	}
	p.pastEnd()
	return p.eof
}

func (p *parser) peekN(n int) token.Token {
	if p.pos+n < len(p.toks) {
		if p.pos+n >= p.window {
			p.pastEnd()
		}
		return p.toks[p.pos+n]
	}
	p.pastEnd()
	return p.eof
}

// pastEnd notes that a statement read past the tokens of a stretch of a
// longer text (UnitsAhead) other than where a body's statements could stop
// (block's readPast, for the block that read the rest: clearFor): what
// follows decides its parse, which the stretch alone cannot tell.
func (p *parser) pastEnd() {
	if p.rest == nil || p.inStmt == 0 || p.settled {
		return
	}
	if p.clearFor != nil && p.top() == p.clearFor {
		return
	}
	p.short = true
}

func (p *parser) kind() token.Kind { return p.peek().Kind }

func (p *parser) atEOF() bool {
	if p.pos >= len(p.toks) {
		p.pastEnd()
		return true
	}
	return false
}

func (p *parser) next() token.Token {
	t := p.peek()
	if p.pos < len(p.toks) {
		p.pos++
		p.lastEnd = t.End
		if p.aheads > 0 || p.past > 0 {
			p.walked++ // read ahead (layout.go: walkPerToken)
		}
	}
	return t
}

func (p *parser) got(k token.Kind) bool {
	if p.kind() == k && !p.atEOF() {
		p.next()
		return true
	}
	return false
}

// report records a diagnostic without unwinding.
func (p *parser) report(start, end int, code, msg string) {
	if end < start {
		end = start
	}
	p.diags = append(p.diags, diag.Diagnostic{
		Span: token.Span{Start: start, End: end}, Severity: diag.Error, Category: diag.Parse,
		Code: code, Message: msg,
	})
	p.raised = append(p.raised, raise{owner: p.owner, event: p.event, at: p.tokStart(p.pos), unit: p.units.n})
}

// failTok records a diagnostic at tok and unwinds.
func (p *parser) failTok(tok token.Token, code, msg string) {
	if tok.Kind == token.Eol {
		// Point at the end of the line rather than across the line break.
		tok.End = tok.Start
	}
	p.report(tok.Start, tok.End, code, msg)
	panic(bailout{})
}

// failTokOf is failTok for a finding of kind k about names (as k
// documents).
func (p *parser) failTokOf(tok token.Token, k diag.Kind, code, msg string, names ...string) {
	if tok.Kind == token.Eol {
		tok.End = tok.Start
	}
	p.report(tok.Start, tok.End, code, msg)
	d := &p.diags[len(p.diags)-1]
	d.Kind, d.Names = k, names
	panic(bailout{})
}

// keywordOf returns the keyword t is, or "" when it is none.
func keywordOf(t token.Token) string {
	if t.Kind.IsKeyword() {
		return t.Kind.Spelling()
	}
	return ""
}

// failHere records a diagnostic at the current token (or the end of the
// file) and unwinds.
func (p *parser) failHere(code, msg string) {
	t := p.peek()
	if t.Kind == token.EOF {
		code = CodeEOF
	}
	p.failTok(t, code, msg)
}

// expect consumes a token of kind k or fails with "expected WHAT, found X".
func (p *parser) expect(k token.Kind, what string) token.Token {
	t := p.peek()
	if t.Kind == k && t.Kind != token.EOF {
		return p.next()
	}
	p.failExpectedHere(CodeExpected, what)
	return t
}

// failExpected records at tok that the parser wanted what and found the
// token found ("expected WHAT, found FOUND", a diag.Expected) and unwinds.
// what names the words wanted first, each quoted, as a program writes them
// ('as', or 'to' or 'down to'), then where they go (after the variable
// name); or, wanting no word, what it wanted (a variable name).
func (p *parser) failExpected(tok token.Token, code, what string, found token.Token) {
	p.failExpectedSaid(tok, code, what, found, describe(found))
}

// failExpectedSaid is failExpected with the found token described as said.
func (p *parser) failExpectedSaid(tok token.Token, code, what string, found token.Token, said string) {
	p.failTokOf(tok, diag.Expected, code, "expected "+what+", found "+said, expectedNames(what, p.written(found))...)
}

// expected returns the message and the names of the diag.Expected finding
// failExpected makes, for a caller that reports it otherwise.
func (p *parser) expected(what string, found token.Token) (string, []string) {
	return "expected " + what + ", found " + describe(found), expectedNames(what, p.written(found))
}

// failExpectedHere is failExpected at the current token, which is what was
// found; at the end of the file, with CodeEOF.
func (p *parser) failExpectedHere(code, what string) {
	t := p.peek()
	if t.Kind == token.EOF {
		code = CodeEOF
	}
	p.failExpected(t, code, what, t)
}

// endOfFile is the token found at the end of the file, for a finding that
// points at another.
var endOfFile = token.Token{Kind: token.EOF}

// written returns a token as the text writes it: "\n" for the end of a
// line, "" for the end of the file.
func (p *parser) written(t token.Token) string {
	switch {
	case t.Kind == token.EOF:
		return ""
	case t.Kind == token.Eol:
		return "\n"
	case 0 <= t.Start && t.Start <= t.End && t.End <= len(p.src):
		return p.src[t.Start:t.End]
	}
	return t.Text
}

// expectedNames returns a diag.Expected finding's names: found, what the
// wanted words follow, and the words, read off what as failExpected takes
// it: the words quoted first, apart by ", " or " or ", then " after X",
// X's quotes taken off when it is one quoted word.
func expectedNames(what, found string) []string {
	names := []string{found, ""}
	rest := what
	for strings.HasPrefix(rest, "'") {
		w, r, ok := strings.Cut(rest[1:], "'")
		if !ok {
			break
		}
		names, rest = append(names, w), r
		if r, ok := strings.CutPrefix(rest, ", "); ok && strings.HasPrefix(r, "'") {
			rest = r
		} else if r, ok := strings.CutPrefix(rest, " or "); ok && strings.HasPrefix(r, "'") {
			rest = r
		} else {
			break
		}
	}
	if after, ok := strings.CutPrefix(rest, " after "); ok {
		if w, ok := strings.CutPrefix(after, "'"); ok && strings.IndexByte(w, '\'') == len(w)-1 {
			after = w[:len(w)-1]
		}
		names[1] = after
	}
	return names
}

// expectOf is expect with WHAT made of the parts, joined only when the
// token is not of kind k (a statement's every keyword would otherwise
// build a message that is then dropped).
func (p *parser) expectOf(k token.Kind, what ...string) token.Token {
	if t := p.peek(); t.Kind == k && t.Kind != token.EOF {
		return p.next()
	}
	return p.expect(k, strings.Join(what, ""))
}

// enter guards recursion depth.
func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		p.depth = 0 // let recovery run with room to spare
		p.walked = max(p.walked, WorkBound(len(p.toks)))
		p.failHere(CodeDepth, depthMessage)
	}
}

func (p *parser) leave() { p.depth-- }

// speculate runs f; when f fails it rewinds and drops what f reported.
func (p *parser) speculate(f func()) (ok bool) {
	pos, last, nd, depth := p.pos, p.lastEnd, len(p.diags), p.depth
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			p.note(p.pos)
			p.pos, p.lastEnd, p.diags, p.raised, p.depth = pos, last, p.diags[:nd], p.raised[:nd], depth
			ok = false
		}
	}()
	f()
	return true
}

func (p *parser) rewind(pos int) {
	p.note(p.pos)
	p.pos = pos
	if pos > 0 && pos <= len(p.toks) {
		p.lastEnd = p.toks[pos-1].End
	} else {
		p.lastEnd = 0
	}
}

// describe names a token for a message: 'store', identifier "x", end of line.
func describe(t token.Token) string {
	switch t.Kind {
	case token.EOF:
		return "end of file"
	case token.Eol:
		return "end of line"
	case token.Identifier:
		return "identifier " + quoteText(t.Text)
	case token.StringLiteral:
		return "text " + quoteText(clip(t.Text, 30))
	case token.IntLiteral, token.FloatLiteral:
		return "number " + t.Text
	case token.BooleanLiteral:
		return "boolean " + t.Text
	case token.NothingLiteral:
		return "'nothing'"
	case token.Colon:
		return "':'"
	case token.Comma:
		return "','"
	case token.Plus:
		return "'+'"
	case token.Minus:
		return "'-'"
	case token.Percent:
		return "'%'"
	case token.Slash:
		return "'/'"
	case token.Dot:
		return "'.'"
	case token.Equals:
		return "'='"
	case token.LeftBracket:
		return "'['"
	case token.RightBracket:
		return "']'"
	case token.LeftBrace:
		return "'{'"
	case token.RightBrace:
		return "'}'"
	case token.LeftParen:
		return "'('"
	case token.RightParen:
		return "')'"
	}
	if t.Kind.IsKeyword() {
		return "'" + t.Kind.Spelling() + "'"
	}
	return t.Kind.String()
}

// failExpectedName is failExpectedHere where a name was wanted: the token
// found is described by describeName.
func (p *parser) failExpectedName(what string) {
	t := p.peek()
	code := CodeExpected
	if t.Kind == token.EOF {
		code = CodeEOF
	}
	p.failExpectedSaid(t, code, what, t, describeName(t))
}

// describeName is describe for a token found where a name was expected: it
// says when the token is a keyword, which WFL does not allow as a name there.
func describeName(t token.Token) string {
	if t.Kind.IsKeyword() {
		return "the keyword '" + t.Kind.Spelling() + "', which cannot be a name here"
	}
	return describe(t)
}

// quoteText quotes source text for a message: quotes, backslashes and
// line breaks escaped, a byte that is not UTF-8 written as \xNN, so that a
// message is valid UTF-8 whatever the source holds, and a control or
// invisible character (NUL, a byte order mark) as \xNN or \uNNNN, so that
// a terminal or an editor shows what it is.
func quoteText(s string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 || c == 0x7F {
				b = append(b, '\\', 'x', hex[c>>4], hex[c&0xF])
				break
			}
			if c < utf8.RuneSelf {
				b = append(b, c)
				break
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				b = append(b, '\\', 'x', hex[c>>4], hex[c&0xF])
			case r <= 0xFFFF && (r == 0xFEFF || !unicode.IsGraphic(r)):
				b = append(b, '\\', 'u', hex[r>>12], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
			default:
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		i++
	}
	return string(append(b, '"'))
}

// clip returns s cut after its first n characters, with "…" when it was
// cut: a cut never splits a character.
func clip(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}

// isStatementStarter reports the keywords that always begin a statement; an
// expression never continues past one, and recovery stops at one.
func isStatementStarter(k token.Kind) bool {
	switch k {
	case token.KeywordStore, token.KeywordCreate, token.KeywordDisplay, token.KeywordCheck,
		token.KeywordIf, token.KeywordCount, token.KeywordFor, token.KeywordRoute,
		token.KeywordDefine, token.KeywordChange, token.KeywordTry, token.KeywordRepeat,
		token.KeywordExit, token.KeywordPush, token.KeywordBreak, token.KeywordContinue,
		token.KeywordSkip, token.KeywordOpen, token.KeywordClose, token.KeywordWait,
		token.KeywordLoad, token.KeywordInclude, token.KeywordExport, token.KeywordGive,
		token.KeywordReturn:
		return true
	}
	return false
}

// ---- statement lists and recovery ----

// program parses the top level, with the reference's handling of stray
// `end` lines.
func (p *parser) program() {
	for p.pos < p.window {
		start := p.pos
		t := p.peek()
		if t.Kind == token.Eol {
			p.next()
			continue
		}
		if p.units.n == 0 && len(p.diags) == 0 {
			p.lead, p.leadTok = t.Start, p.pos
		}
		if t.Kind == token.KeywordEnd {
			nt := p.peekN(1)
			p.units.markStray(t.Start)
			if p.pos+1 >= len(p.toks) {
				p.next()
				break
			}
			switch nt.Kind {
			case token.KeywordAction, token.KeywordCheck, token.KeywordFor, token.KeywordCount,
				token.KeywordRepeat, token.KeywordTry, token.KeywordLoop, token.KeywordMap,
				token.KeywordWhile, token.KeywordPattern, token.KeywordList, token.KeywordContainer:
				p.next()
				p.next()
				continue
			case token.Eol:
				p.next()
				continue
			default:
				p.next()
				p.owner = t.Start
				p.report(t.Start, t.End, CodeStrayEnd, "'end' followed by "+describe(nt)+" closes nothing here")
				p.raised[len(p.raised)-1].top = true
				continue
			}
		}
		p.reach, p.low, p.bounded = p.pos, noFrame, false
		walked, at := p.walked, p.pos
		if st := p.stmtRecover(); st != nil {
			p.units.add(pendingUnit{start: t.Start, stmt: st, strayAt: -1, reach: p.tokEnd(max(p.reach, p.pos)), context: p.low == 0, bounded: p.bounded, work: p.walked - walked, tok: at})
		}
		for p.kind() == token.Eol {
			p.next()
		}
		if p.kind() == token.KeywordEnd && len(p.toks)-p.pos <= 2 {
			p.units.markStray(p.peek().Start)
			p.pos = len(p.toks)
			break
		}
		if p.pos == start {
			p.next() // progress guard; unreachable in practice
		}
	}
}

// stmtRecover parses one statement; on failure it skips to the next line
// break or statement keyword and returns a BadStmt over the skipped text. A
// statement parsed already, ahead of a body cut by the layout, is taken as
// it was.
func (p *parser) stmtRecover() (st ast.Stmt) {
	if m, ok := p.memo.get(p.pos); ok && (m.kept == nil || slices.Equal(p.frames, m.kept.around)) {
		p.note(m.reach)
		if k := m.kept; k != nil {
			// It read the blocks around it then, those it needed still
			// around it here (keep); at the least it reads here the first
			// of its own.
			p.low = min(p.low, k.low, len(p.frames))
			p.need.merge(k.need)
			p.retime(m)
		}
		p.pos, p.lastEnd = m.end, m.lastEnd
		return m.stmt
	}
	start := p.pos
	from := p.peek().Start
	depth, owner, head, frames, base := p.depth, p.owner, p.head, len(p.frames), p.base
	p.owner, p.head, p.base = from, p.peek(), frames
	p.inStmt++
	defer func() {
		p.inStmt--
		p.owner, p.head, p.base = owner, head, base
		clear(p.frames[frames:])
		p.frames = p.frames[:frames]
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.depth = depth
			for !p.atEOF() {
				k := p.kind()
				if k == token.Eol || isStatementStarter(k) {
					break
				}
				p.next()
			}
			if p.pos == start && !p.atEOF() {
				p.next()
			}
			to := p.lastEnd
			if to < from {
				to = from
			}
			st = &ast.BadStmt{Range: ast.Range{From: from, To: to}}
		}
	}()
	return p.statement()
}

// ahead is a statement parsed after the layout's end of a body: where it
// starts and ends, how far its parse looked, whether it read the blocks
// around it, and the diagnostics and Opens raised from then on.
type ahead struct {
	stmt                       ast.Stmt
	start, end, lastEnd, reach int
	context                    bool
	low                        int       // the first of p.frames its parse read
	need                       frameSpan // the frames around it its parse needed (keep)
	gen                        int       // p.gen when its parse began
	walk                       *walkRec  // a walk taken over whole, in place of the statements it holds (stmt is nil)
	diags, opens               int       // what was raised from then on (and up to diagsEnd, opensEnd)
	diagsEnd, opensEnd         int
}

// block parses statements until one of the stop kinds (not consumed). Line
// breaks between statements are skipped. The block's range runs from from to
// the end of the last consumed token. In the body of a block statement (the
// innermost frame), a body that stops where the statement's closer check
// fails is cut by the layout (layout.go): the block then ends before its
// first line indented at or left of the header, and the parser goes on from
// there.
func (p *parser) block(from int, stop func(token.Kind) bool) *ast.Block {
	b := &ast.Block{}
	base, n := len(p.stmts), 0 // where this block's statements start on p.stmts; how many
	fr := p.ownFrame()
	if fr != nil {
		fr.stop = stop
	}
	cut, cutPos := -1, 0 // statements before the layout's end of the body, and its token; -1 before it
	var after []ahead    // the statements from there on
	w := walk{plain: true}
	// hold makes the statements read past the layout's end the body's:
	// reading ahead reached its bound (layout.go: walkPerToken), and the
	// block is read as the reference reads it. The walks it took over
	// give their statements, in their places (walk.body).
	hold := func() {
		if w.took {
			stmts := w.body(p.stmts[base:base+n], cut)
			p.stmts = append(p.stmts[:base], stmts...)
			n = len(stmts)
		}
		cut, after = -1, after[:0]
		w = walk{plain: true}
	}
	for {
		if p.pos >= len(p.toks) {
			if cut < 0 && p.endsPast(fr) {
				// The layout ends the body where the stretch does: the
				// rest of the text is read as past any layout end.
				cut, cutPos = n, p.pos
				p.shared = true
			}
			if !p.readPast(cut >= 0) {
				break
			}
		}
		k := p.kind()
		if stop(k) {
			if at := p.peek().Start; k == token.KeywordEnd && fr != nil && p.strayEnd(fr, cut >= 0) {
				if cut < 0 {
					// The stray closer's line stays in the body as a
					// statement that did not parse: the body is broken
					// (an action's result is not known from the rest).
					p.stmts = append(p.stmts[:base+n], &ast.BadStmt{Range: ast.Range{From: at, To: max(at, p.lastEnd)}})
					n++
				}
				w.plain = w.plain && cut < 0
				continue
			}
			break
		}
		if k == token.Eol {
			p.next()
			continue
		}
		start := p.pos
		if cut >= 0 && !p.mayReadAhead() {
			hold()
		}
		if len(after) == 1 && p.firstOnLine(p.peek().Start) && p.indentOf(p.peek().Start) > fr.indent && !p.closerTyped(cutPos) && !p.memberAt(fr, cutPos) && !p.clauseAround(fr, cutPos) {
			// The line at the layout's end is followed by the body's
			// lines: it is misindented, not the end (unless it is the
			// block's closer being typed).
			cut, after = -1, after[:0]
			w = walk{plain: true}
		}
		if cut < 0 && fr != nil && p.mayReadAhead() && p.outdented(fr, p.peek()) && !p.strayMemberLine(fr, p.peek()) {
			cut, cutPos = n, start
		}
		var st ast.Stmt
		if cut >= 0 {
			if r := p.walks[p.pos]; r != nil && len(after) > 0 && readAhead.jump {
				// The rest of the walk is one a block inside this one
				// made from here: take it over whole (layout.go: walkRec).
				p.pos, p.lastEnd = r.to, r.lastEnd
				p.note(r.reach)
				p.walked++
				after = append(after, ahead{start: start, walk: r})
				w.take(r)
				continue
			}
			p.walked++
			a := p.ahead(p.stmtRecover)
			if st = a.stmt; st != nil {
				after = append(after, a)
				w.add(p, a)
			} else {
				w.plain = false
			}
		} else {
			st = p.stmtRecover()
		}
		if st != nil {
			// (Inner blocks take their statements off the stack when they
			// end; slicing at this block's own count guards the list even
			// if one did not.)
			p.stmts = append(p.stmts[:base+n], st)
			n++
		}
		if p.pos == start {
			p.next()
			w.plain = w.plain && cut < 0
		}
	}
	if cut >= 0 && !p.mayReadAhead() {
		hold()
	}
	walkedTo, walkedLastEnd := p.pos, p.lastEnd
	if t := p.peek(); cut < 0 && fr != nil && (t.Kind == token.KeywordEnd || clauseWord(t.Kind)) && !p.atEOF() && p.firstOnLine(t.Start) && p.indentOf(t.Start) < fr.indent {
		cut, cutPos = n, p.pos // the closer that stopped the body is the layout's end
	}
	if cut >= 0 && (p.headerAround(fr, after) || !p.continues(fr, cutPos != p.pos) || p.takenFrom(fr)) {
		// Cut by the layout: the statements after the cut go to the
		// statement list around, which goes on from there.
		for _, a := range after {
			p.keep(a, fr)
		}
		if len(after) > 0 && w.plain {
			p.recordWalk(cutPos, &walkRec{segs: w.segs, to: walkedTo, lastEnd: walkedLastEnd, reach: w.reach})
		}
		p.note(p.pos)
		fr.ended, fr.at = true, p.pos
		n = cut
		w.took = false // the walks taken over were past the cut
		// The parser goes on from the line breaks before the cut, which
		// the statement lists around skip, as after any statement.
		p.pos = cutPos
		for p.pos > 0 && p.toks[p.pos-1].Kind == token.Eol {
			p.pos--
		}
		// The block and its statement end with the last token before the
		// cut (not with the line break, which the next line's unit holds).
		p.lastEnd = p.lastToken(cutPos, from)
		from = min(from, p.lastEnd)
		p.lastEnd = p.bodyBlanks(fr, p.lastEnd, p.tokStart(cutPos))
	}
	if p.atEOF() && fr != nil {
		// A body the end of the text stopped ends with its last token,
		// and so does its statement, whose closer is missing: the line
		// breaks after it are nobody's.
		p.lastEnd = p.lastToken(p.pos, p.lastEnd)
		from = min(from, p.lastEnd)
		p.lastEnd = p.bodyBlanks(fr, p.lastEnd, len(p.src))
	}
	if n > 0 {
		b.Stmts = w.body(p.stmts[base:base+n], cut)
	} else if cut < 0 && !p.atEOF() {
		from = p.headerLineEnd(from)
	}
	clear(p.stmts[base:])
	p.stmts = p.stmts[:base]
	to := p.lastEnd
	if to < from {
		to = from
	}
	b.Range = ast.Range{From: from, To: to}
	if fr != nil {
		fr.body = from
		if len(b.Stmts) > 0 {
			fr.body = b.Stmts[len(b.Stmts)-1].End()
		}
	}
	return b
}

// headerLineEnd returns where the line after the header of a body that
// holds no statement starts, from, past the blank lines the body holds:
// the body is those lines (where the user types its first statement, in
// the scope of the names the header binds), not the empty span at its
// closer.
func (p *parser) headerLineEnd(from int) int {
	i := min(from, len(p.src))
	for i > 0 && (p.src[i-1] == ' ' || p.src[i-1] == '\t' || p.src[i-1] == '\n' || p.src[i-1] == '\r') {
		i--
	}
	for j := i; j < from; j++ {
		if p.src[j] == '\n' || p.src[j] == '\r' && (j+1 >= len(p.src) || p.src[j+1] != '\n') {
			return j + 1
		}
	}
	return from
}

func stopAt(kinds ...token.Kind) func(token.Kind) bool {
	return func(k token.Kind) bool {
		for _, s := range kinds {
			if k == s {
				return true
			}
		}
		return false
	}
}

var stopEnd = stopAt(token.KeywordEnd)

func (p *parser) skipEol() {
	for p.kind() == token.Eol {
		p.next()
	}
}

func (p *parser) optColon() {
	p.got(token.Colon)
}

// closeBlock expects `end KW` after a block body.
func (p *parser) closeBlock(kw token.Kind, what string) {
	p.expectOf(token.KeywordEnd, "'end ", kw.Spelling(), "' after the ", what)
	p.expectOf(kw, "'", kw.Spelling(), "' after 'end'")
}

// colonBlock parses `: STATEMENTS` up to a word that stop accepts (not
// consumed); what names what the ':' follows.
func (p *parser) colonBlock(what string, stop func(token.Kind) bool) *ast.Block {
	p.expectOf(token.Colon, "':' after ", what)
	p.skipEol()
	return p.block(p.lastEnd, stop)
}

// body parses a block's statements, from the line after its header to the
// `end KW` that closes it; what names the block in messages.
func (p *parser) body(kw token.Kind, what string) *ast.Block {
	fr := p.openFrame(kw, func() { p.closeBlock(kw, what) })
	p.skipEol()
	b := p.block(p.lastEnd, stopEnd)
	p.closeFrame(fr)
	return b
}

// rng makes a Range from from to the end of the last consumed token.
func (p *parser) rng(from int) ast.Range {
	to := p.lastEnd
	if to < from {
		to = from
	}
	return ast.Range{From: from, To: to}
}

func (p *parser) identOf(t token.Token) *ast.Ident {
	return p.newIdent(t.Start, t.End, t.Text)
}

// Identifiers and literals, of which a document has many, are allocated in
// slabs (an allocation each was a quarter of the parser's allocations). A
// slab is at most 512 bytes (16 identifiers, 12 literals), the largest
// objects the runtime allocates without a header (a larger slab would
// cost more memory than the nodes allocated one by one), and holds at
// most one node for every per tokens left (dense code has an identifier
// every five tokens, a literal every ten), so that little of the last one
// goes unused.
func (p *parser) slab(per, most int) int {
	return min(max((len(p.toks)-p.pos)/per, 4), most)
}

func (p *parser) newIdent(from, to int, name string) *ast.Ident {
	if len(p.idents) == 0 {
		p.idents = make([]ast.Ident, p.slab(8, 16))
	}
	id := &p.idents[0]
	p.idents = p.idents[1:]
	*id = ast.Ident{Range: ast.Range{From: from, To: to}, Name: name}
	return id
}

func (p *parser) newLit(from, to int, k ast.LitKind, v string) *ast.BasicLit {
	if len(p.lits) == 0 {
		p.lits = make([]ast.BasicLit, p.slab(16, 12))
	}
	l := &p.lits[0]
	p.lits = p.lits[1:]
	*l = ast.BasicLit{Range: ast.Range{From: from, To: to}, Kind: k, Value: v}
	return l
}

// tailIdent returns the name made of the last words of the merged
// identifier token t (`headers h`, `query db`, `certificate tls_cert`),
// spelled name, with the extent those words have in the source: the lexer
// joins the words of a token by one space whatever separated them, so the
// name's place is found in the text, not computed from the spelling.
func (p *parser) tailIdent(t token.Token, name string) *ast.Ident {
	i := t.End
	for range strings.Fields(name) {
		for i > t.Start && !isWordByte(p.src[i-1]) {
			i--
		}
		for i > t.Start && isWordByte(p.src[i-1]) {
			i--
		}
	}
	return p.newIdent(i, t.End, name)
}

// headIdent is tailIdent for a name made of the first words of t
// (`my_port secured`).
func (p *parser) headIdent(t token.Token, name string) *ast.Ident {
	i := t.Start
	for range strings.Fields(name) {
		for i < t.End && !isWordByte(p.src[i]) {
			i++
		}
		for i < t.End && isWordByte(p.src[i]) {
			i++
		}
	}
	return p.newIdent(t.Start, i, name)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func (p *parser) kwIdent(t token.Token) *ast.Ident {
	return p.newIdent(t.Start, t.End, t.Kind.Spelling())
}

// ident consumes an identifier or fails with "expected WHAT, found X".
func (p *parser) ident(what string) *ast.Ident {
	t := p.peek()
	if t.Kind != token.Identifier {
		p.failExpectedName(what)
	}
	p.next()
	return p.identOf(t)
}

// identOrEnd consumes an identifier; at the end of the file it reports at
// the statement's keyword as the reference does.
func (p *parser) identOrEnd(what string, kw token.Token) *ast.Ident {
	if p.atEOF() {
		p.failExpected(kw, CodeEOF, what, endOfFile)
	}
	return p.ident(what)
}

// nextOf consumes the next token, which must be of kind k. At the end of the
// file it reports "expected atEnd" at the statement's keyword kw, as the
// reference does; a token of another kind is consumed, then reported as
// "expected what, found X".
func (p *parser) nextOf(k token.Kind, kw token.Token, atEnd, what string) token.Token {
	if p.atEOF() {
		p.failExpected(kw, CodeEOF, atEnd, endOfFile)
	}
	t := p.next()
	if t.Kind != k {
		p.failExpected(t, CodeExpected, what, t)
	}
	return t
}

// nameWords parses one or more consecutive identifiers as one name (the
// reference's "simple variable name").
func (p *parser) nameWords() *ast.Ident {
	t := p.peek()
	if t.Kind != token.Identifier {
		p.failExpectedName("a variable name")
	}
	id := p.identOf(p.next())
	for p.kind() == token.Identifier {
		w := p.next()
		id.Name += " " + w.Text
		id.To = w.End
	}
	return id
}
