package core

// This file implements what the editor is told while a quote is left open
// (lexer.OpenQuotes): WFL strings span lines, so the reference pairs such
// a quote with the next line's and reads every string below inside out.
// The features then answer from the snapshot of the text with the quote
// closed on its line, at the same length (lexer.CloseQuote: every offset
// and line is the same), which derives its diagnostics and its partial
// analyses from the last version's as any version does (reading); the
// list shown is quoteList's. The verdict (Snapshot.Diagnostics, `check`,
// MCP's valid) stays the reference's reading's.

import (
	"iter"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// A quoteState is what a snapshot keeps of a quote left open in its
// text: cuts holds it (and where an edit of the last version's text
// left it, heldCuts), and closed is the snapshot of the text with it
// closed on its line, at the same length (lexer.CloseQuote), which the
// features answer from and whose findings the editor's list shows;
// prevClosed is an earlier version's, which closed derives from. closes
// is, on a closed snapshot, the offset of the quote it closes plus one
// (0: none). readA is the closed text's analysis with this text's
// verdict (Snapshot.Analysis). closedCuts are the quotes the closed text
// leaves open, when the edit from the last version tells them
// (closedAfter).
type quoteState struct {
	cutsOnce   sync.Once
	cuts       []int
	cutsDone   atomic.Bool // cuts is found
	heldCuts   []int       // cuts as the last version's, when an edit left them (Workspace.Change)
	cutsHeld   bool
	closedCuts []int // the closed text's cuts as the last version's closed text's, when the edit left them
	closedHeld bool
	closedOnce sync.Once
	closed     atomic.Pointer[Snapshot]
	prevClosed atomic.Pointer[Snapshot]
	closes     int
	readOnce   sync.Once
	readA      *Analysis
	readDone   atomic.Bool
}

// openQuotes returns the quotes left open in the text (lexer.OpenQuotes),
// found once; the units' shapes say when there can be none.
func (s *Snapshot) openQuotes() []int {
	s.quote.cutsOnce.Do(func() {
		defer s.quote.cutsDone.Store(true)
		if s.quote.cutsHeld {
			s.quote.cuts = s.quote.heldCuts
		} else {
			st := s.diags.Load()
			none := st != nil && !st.mayOpenQuote() || st == nil && s.quotesAsBase()
			if !none && strings.IndexByte(s.Text, '"') >= 0 {
				s.quote.cuts = lexer.OpenQuotes(s.Text)
			}
		}
		if s.quote.cuts == nil {
			// The quote was closed: the last closed version is not kept
			// for later ones (Workspace.Change carries it on).
			s.quote.prevClosed.Store(nil)
		}
	})
	return s.quote.cuts
}

// quoteMarks are the bytes that change how quotes pair: a quote, the
// comment marks, a backslash and the line breaks.
const quoteMarks = "\"#/\\\n\r"

// joinMarks are those of quoteMarks that pair with the byte after them:
// two slashes start a comment, a backslash escapes what follows. A byte
// typed or deleted beside any other leaves every quote paired as it was:
// a string still ends at the same quote, a comment or a line at the same
// byte.
const joinMarks = "/\\"

// cutsAfter returns the quotes the text leaves open once edits are made
// to it, when they are known without a scan: the text's are found, and
// one edit replaced text without a quote, comment mark, backslash or line
// break by text without one either (typing a word into a string left
// open), with no slash or backslash either side of it, which pairs no
// quote otherwise whichever is read open. ok is false when they are not
// known.
func (s *Snapshot) cutsAfter(edits []Edit) (cuts []int, ok bool) {
	if !s.quote.cutsDone.Load() || len(edits) != 1 {
		return nil, false
	}
	e := edits[0]
	// (And the bytes either side: a letter typed between two slashes
	// ends a comment, and one after a backslash frees the quote it
	// escaped. One typed at the end of a line, or after a quote, does
	// not change how anything pairs: typing on a string left open at the
	// end of its line is the common case.)
	if strings.ContainsAny(e.Text, quoteMarks) || strings.ContainsAny(s.Text[e.Start:e.End], quoteMarks) ||
		strings.ContainsAny(s.Text[max(e.Start-1, 0):e.Start], joinMarks) || strings.ContainsAny(s.Text[e.End:min(e.End+1, len(s.Text))], joinMarks) {
		return nil, false
	}
	return shiftCuts(s.quote.cuts, e), true
}

// closedAfter returns the quotes that the text of the next version left
// open (its edits made to s's text), once its first one is closed on its
// line, when they are known without a scan: s's closed text's, moved by
// the edits, when s had one made and the edits kept s's quotes left open
// (cutsAfter: one edit, replacing text without a quote, comment mark,
// backslash or line break by text without one, with no slash or
// backslash either side). Both closed texts close the same quote on the
// same line, and pair every quote of that line the same way (the edit
// holds no mark, nor joins one in the text left open, and each line ends
// its string where the line ends); the edit changes how no quote pairs
// elsewhere either. So
// they leave the same quotes open. It spares a scan of the whole text at
// each keystroke in a string left open (about 0.35 ms at 10,000 lines).
func (s *Snapshot) closedAfter(edits []Edit, kept bool) (cuts []int, ok bool) {
	c := s.quote.closed.Load()
	if !kept || c == nil || !c.quote.cutsDone.Load() { // (kept: one edit)
		return nil, false
	}
	return shiftCuts(c.quote.cuts, edits[0]), true
}

// shiftCuts returns the offsets of cuts as they are once e is made.
func shiftCuts(cuts []int, e Edit) []int {
	if len(cuts) == 0 {
		return nil
	}
	out := make([]int, len(cuts))
	for i, at := range cuts {
		if at >= e.End {
			at += len(e.Text) - (e.End - e.Start)
		}
		out[i] = at
	}
	return out
}

// quotesAsBase reports, before the diagnostics' state is made, whether
// the text pairs its quotes as its base did, which left none open and
// ended every string on its line: the edits since touched no quote,
// comment, backslash or line break, or they touched only lines that now
// hold no quote (a line broken or joined, a comment or a backslash typed
// there, or a whole string deleted, leaves every other line's strings as
// they were). It spares a scan of the text (about 0.4 ms at 10,000
// lines) on the requests that come before the state after a keystroke.
func (s *Snapshot) quotesAsBase() bool {
	b := s.base.Load()
	if b == nil || !s.same.known {
		return false
	}
	st := b.diags.Load()
	if st == nil || st.mayOpenQuote() {
		return false
	}
	edited := func(text string) (from, to int) {
		return min(s.same.prefix, len(text)), max(s.same.prefix, len(text)-s.same.suffix)
	}
	touched := func(text string) bool { // (with the bytes either side, as in cutsAfter)
		from, to := edited(text)
		return strings.ContainsAny(text[max(from-1, 0):min(to+1, len(text))], quoteMarks)
	}
	if !touched(s.Text) && !touched(b.Text) {
		return true
	}
	// Lines as the base's state reads them (scanStrings): a lone carriage
	// return does not end one, and a string may hold it.
	from, to := edited(s.Text)
	from = strings.LastIndexByte(s.Text[:from], '\n') + 1
	if end := strings.IndexByte(s.Text[to:], '\n'); end >= 0 {
		to += end
	} else {
		to = len(s.Text)
	}
	return strings.IndexByte(s.Text[from:to], '"') < 0
}

// reading returns the snapshot the features answer from: s, or, while a
// quote is left open, the snapshot of the text with it closed (with every
// quote left open closed, one at a time).
func (s *Snapshot) reading() *Snapshot {
	if s.openQuotes() == nil {
		return s
	}
	s.quote.closedOnce.Do(func() {
		at := s.quote.cuts[0]
		c := &Snapshot{URI: s.URI, Version: s.Version, Text: lexer.CloseQuote(s.Text, at), src: s.src, ctx: s.ctx}
		c.quote.closes = at + 1
		c.quote.heldCuts, c.quote.cutsHeld = s.quote.closedCuts, s.quote.closedHeld
		// Derived from the last version's closed text while the string is
		// typed on, else from the version this text's state derives from,
		// whose text had no quote open (the two differ on the quote's
		// line), else from this text's state (the texts differ on the
		// quote's line and in how the lines below are lexed). Its queries
		// start from the last closed version's base, or this one's: not
		// from this text's analysis, which reads the strings inside out.
		p := s.quote.prevClosed.Swap(nil)
		switch {
		case p != nil && p.diags.Load() != nil:
			c.base.Store(p)
		case p != nil && p.base.Load() != nil:
			c.base.Store(p.base.Load())
		case s.diags.Load() == nil && s.base.Load() != nil:
			c.base.Store(s.base.Load())
		case s.diags.Load() != nil:
			c.base.Store(s)
		}
		// The files it includes may have changed since the last closed
		// version: their names are read again (this text's state has).
		c.reimport = c.base.Load() != s && s.mayInclude()
		switch {
		case c.base.Load() == nil:
			// Nothing to derive from: its first analysis is full.
		case p != nil && p.analysed.Load():
			c.qbase.Store(newQueryBase(p))
		case p != nil && p.qbase.Load() != nil:
			c.qbase.Store(p.qbase.Load())
		case s.qbase.Load() != nil:
			c.qbase.Store(s.qbase.Load())
		}
		if o := s.outline.Load(); o != nil {
			c.outline.Store(o)
		}
		s.quote.closed.Store(c)
	})
	return s.quote.closed.Load().reading() // (another quote may be open)
}

// ReadText returns the text the features read: Text, or, while a quote is
// left open, Text with it closed on its line (lexer.CloseQuote), of the
// same length and lines.
func (s *Snapshot) ReadText() string { return s.reading().Text }

// openQuoteList returns the editor's list while a quote is left open,
// and whether one is. While the quote is the first of its line, or pairs
// with no later quote, the list is the closed text's (closedList,
// closedRuns): the reference drops a quote without a partner and reads the
// rest of its line as code (`display "Hell` says 'Hell' is not defined),
// where the user is typing the string the features read. And the state of
// this text, which the reference reads inside out from a quote that pairs
// with a later line's (on each keystroke in the string, the rest of the
// text parsed and checked again), is not made for it; else the list is
// quoteList.
func (s *Snapshot) openQuoteList() (*token.Lines, int, iter.Seq[diag.Diagnostic], bool) {
	if _, ok := s.leftOpen(); !ok {
		return nil, 0, nil, false
	}
	if s.closedRuns() {
		lines, n, seq := s.closedList()
		return lines, n, seq, true
	}
	lines, n, seq := s.quoteList(s.diagState())
	return lines, n, seq, true
}

// closedRuns reports whether the editor's list is closedList (see
// openQuoteList).
func (s *Snapshot) closedRuns() bool {
	at, ok := s.leftOpen()
	return ok && (lexer.Partner(s.Text, at) < 0 || firstOfLine(s.Text, at))
}

// leftOpen returns the first quote left open; the text's state, when
// made, says when none is.
func (s *Snapshot) leftOpen() (at int, ok bool) {
	if st := s.diags.Load(); st != nil && !st.mayOpenQuote() {
		return 0, false
	}
	cuts := s.openQuotes()
	if cuts == nil {
		return 0, false
	}
	return cuts[0], true
}

// firstOfLine reports whether the quote at offset at of text is the first
// of its line.
func firstOfLine(text string, at int) bool {
	return strings.IndexByte(text[lineStartAt(text, at):at], '"') < 0
}

// lineTable returns the text's line table: the diagnostics' state's, the
// one the edits made, or a new one.
func (s *Snapshot) lineTable() *token.Lines {
	if l := s.lines.Load(); l != nil {
		return l
	}
	s.lines.CompareAndSwap(nil, token.NewLines(s.Text))
	return s.lines.Load()
}

// quoteList is the editor's list while a quote is left open that pairs
// with a later line's after other quotes of its line (openQuoteList; st
// is the text's diagnostics' state). Which of them was left open is a
// guess. Before the top-level statement that holds the quote, the list is
// the closed text's (reading), whose text is the same there and which
// reads the text below as the features do, but for the unused variables
// the quote's line names (whether it reads them depends on which of its
// quotes is open): the reference's reading, which reads that text inside
// out, would hide findings above about the names its broken lines below
// hold, and its lint of the tree's layout. From that statement on, it is
// the tolerant one of the reference's reading but for anything other than
// parse errors and the lines' lengths (that statement's tree, and the
// text after it, are read inside out: a container whose actions below the
// line the reference reads as a string lacks them), with the finding that
// says the quote is open.
func (s *Snapshot) quoteList(st *diagState) (*token.Lines, int, iter.Seq[diag.Diagnostic]) {
	at := s.quote.cuts[0]
	from, _ := slices.BinarySearch(st.starts, at+1)
	from = st.starts[max(from-1, 0)] // the start of the unit that holds the quote
	s.reading()
	_, n, above := s.quote.closed.Load().TolerantSeq() // (which tells of another quote open in its turn)
	line := wordsOf(s.Text[lineStartAt(s.Text, at):lineEndAt(s.Text, at)])
	seq := st.tolerant()
	return st.lines, n + st.count() + len(s.quote.cuts), withOpenQuotes(func(yield func(diag.Diagnostic) bool) {
		for d := range above {
			if d.Span.Start >= from {
				break
			}
			if d.Kind == diag.Unused && namesHeld(d, line) {
				continue
			}
			if !yield(d) {
				return
			}
		}
		for d := range seq {
			if d.Span.Start < from || (d.Category != diag.Parse || d.Severity != diag.Error) && d.Code != diag.LintLength {
				continue
			}
			if !yield(d) {
				return
			}
		}
	}, s.Text, s.quote.cuts)
}

// wordsOf returns the set of the words of text.
func wordsOf(text string) map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, notWordRune) {
		words[w] = true
	}
	return words
}

// namesHeld reports whether one of the names d is about is made of words
// all of which are in words.
func namesHeld(d diag.Diagnostic, words map[string]bool) bool {
	return slices.ContainsFunc(d.ProgramNames(), func(name string) bool {
		ws := strings.FieldsFunc(name, notWordRune)
		return len(ws) > 0 && !slices.ContainsFunc(ws, func(w string) bool { return !words[w] })
	})
}

// closedList is the list of the closed text (reading), less what it finds
// on the statement being typed (the quote's line, and the innermost
// statement that holds the quote: which of its quotes is the open one is
// a guess, and the string lost its last character) but the lengths of its
// other lines, and the findings but
// parse errors about a name whose words the string holds on that line (a
// quote typed before a declaration, `" store total as 1`, or a block's
// header, turns the name it declares into text: its uses wait), with the
// finding that says the quote is open.
func (s *Snapshot) closedList() (*token.Lines, int, iter.Seq[diag.Diagnostic]) {
	at := s.quote.cuts[0]
	c := s.reading()
	_, n, seq := s.quote.closed.Load().TolerantSeq() // (which tells of another quote open in its turn)
	end := lineEndAt(s.Text, at)
	lineStart := lineStartAt(s.Text, at)
	from, to := lineStart, end
	var inner ast.Node
	ast.Inspect(c.Query(token.Span{Start: at, End: at}).File, func(n ast.Node) bool {
		if n == nil || n.Pos() > at || n.End() < at {
			return false
		}
		if _, ok := n.(ast.Stmt); ok {
			inner = n
		}
		return true
	})
	if inner != nil {
		from, to = min(from, inner.Pos()), max(to, inner.End())
	}
	held := wordsOf(s.Text[at+1 : end]) // the words of the string on the quote's line
	return s.lineTable(), n + len(s.quote.cuts), withOpenQuotes(func(yield func(diag.Diagnostic) bool) {
		for d := range seq {
			if d.Span.Start >= from && d.Span.Start <= to && (d.Category != diag.Parse || d.Span.Start <= end) &&
				(d.Code != diag.LintLength || d.Span.Start >= lineStart && d.Span.Start <= end) && !closesAbove(d, from) {
				continue // (a line's length is the text's, but the quote's line's, which the closing quote lengthens)
			}
			if namesHeld(d, held) { // (a parse finding names no name of the program)
				continue
			}
			if !yield(d) {
				return
			}
		}
	}, s.Text, s.quote.cuts)
}

// closesAbove reports whether d says that the closer of a block whose
// header lies before offset from is missing: the reference puts it at the
// end of the text, on the quote's line when that is the last, but it is
// about the block, not about the statement being typed.
func closesAbove(d diag.Diagnostic, from int) bool {
	return d.Category == diag.Parse && d.Kind.Recovered() && len(d.Related) > 0 && d.Related[0].Span.Start < from
}

// withOpenQuotes yields seq's diagnostics (sorted) with the finding of
// each quote of text at cuts left open (parser.OpenQuote) at its place.
func withOpenQuotes(seq iter.Seq[diag.Diagnostic], text string, cuts []int) iter.Seq[diag.Diagnostic] {
	return func(yield func(diag.Diagnostic) bool) {
		for d := range seq {
			for len(cuts) > 0 && cuts[0] < d.Span.Start {
				if !yield(parser.OpenQuote(text, cuts[0])) {
					return
				}
				cuts = cuts[1:]
			}
			if !yield(d) {
				return
			}
		}
		for _, c := range cuts {
			if !yield(parser.OpenQuote(text, c)) {
				return
			}
		}
	}
}

// lineStartAt returns the offset where the line of offset i of text
// starts (after a line feed or a lone carriage return, as lineEndAt ends
// it).
func lineStartAt(text string, i int) int {
	return strings.LastIndexAny(text[:i], "\n\r") + 1
}

// lineEndAt returns the offset of the line break that ends the line of
// offset i of text, or len(text).
func lineEndAt(text string, i int) int {
	for i < len(text) && text[i] != '\n' && text[i] != '\r' {
		i++
	}
	return i
}
