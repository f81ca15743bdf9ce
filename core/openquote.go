package core

// This file implements what the editor is told while a quote is left open
// (lexer.OpenQuotes): WFL strings span lines, so the reference pairs such
// a quote with the next line's and reads every string below inside out.
// Snapshot.Analysis then answers from the tree that reads the string to
// the end of its line; the list shown is quoteList's. The verdict
// (Snapshot.Diagnostics, `check`, MCP's valid) stays the reference's
// reading's.

import (
	"iter"
	"slices"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// openQuotes returns the quotes left open in the text (lexer.OpenQuotes),
// found once.
func (s *Snapshot) openQuotes() []int {
	s.cutsOnce.Do(func() {
		if strings.IndexByte(s.Text, '"') >= 0 {
			s.cuts = lexer.OpenQuotes(s.Text)
		}
	})
	return s.cuts
}

// quoteOpen reports whether a quote is left open in the text (st is its
// diagnostics' state): Analysis reads it to the end of its line.
func (s *Snapshot) quoteOpen(st *diagState) bool { return st.mayOpenQuote() && s.openQuotes() != nil }

// quoteRuns reports whether a quote is left open that pairs with a later
// line's (quoteOpen): the editor's list is then quoteList. (One that pairs
// with none the lexer drops, and reads the lines below as meant.)
func (s *Snapshot) quoteRuns(st *diagState) bool {
	return s.quoteOpen(st) && parser.OpenQuote(s.Text, s.cuts[0]).Related != nil
}

// closedList is TolerantSeq's list while a quote is left open: the
// findings of the text with the quote closed at the end of its line (the
// reading the tree is of: Analysis), placed in this text, and the finding
// that says the quote is open, but for the findings of the checker and
// the linter on the statement being typed (the quote's line, and the
// innermost statement that holds it). The reference's reading (the verdict:
// Diagnostics) reads the strings below inside out, and what it finds
// there is not what the user wrote.
func (s *Snapshot) closedList(st *diagState) (*token.Lines, int, iter.Seq[diag.Diagnostic]) {
	at := lineEndAt(s.Text, s.cuts[0])
	s.closedOnce.Do(func() {
		c := &Snapshot{URI: s.URI, Version: s.Version, Text: s.Text[:at] + `"` + s.Text[at:], src: s.src, ctx: s.ctx}
		if p := s.prevClosed.Swap(nil); p != nil && p.diags.Load() != nil {
			c.base.Store(p) // typing on in the string: derived from the last
		}
		s.closed.Store(c)
	})
	_, n, seq := s.closed.Load().TolerantSeq()
	// The statement being typed: its line, and the innermost statement of
	// the tree that holds the quote (Syntax's, which Analysis takes over).
	from, to := strings.LastIndexAny(s.Text[:s.cuts[0]], "\n\r")+1, at
	var inner ast.Node
	ast.Inspect(s.Syntax().File, func(n ast.Node) bool {
		if n == nil || n.Pos() > s.cuts[0] || n.End() < s.cuts[0] {
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
	back := func(off int) int {
		if off > at {
			return off - 1
		}
		return off
	}
	return st.lines, n + len(s.cuts), withOpenQuotes(func(yield func(diag.Diagnostic) bool) {
		for d := range seq {
			d.Span = token.Span{Start: back(d.Span.Start), End: back(d.Span.End)}
			if d.Category != diag.Parse && d.Span.Start >= from && d.Span.Start <= to {
				// Of the statement being typed, only what does not parse:
				// which of its quotes is the open one is a guess.
				continue
			}
			if len(d.Related) > 0 {
				d.Related = slices.Clone(d.Related)
				for i, r := range d.Related {
					d.Related[i].Span = token.Span{Start: back(r.Span.Start), End: back(r.Span.End)}
				}
			}
			if !yield(d) {
				return
			}
		}
	}, s.Text, s.cuts)
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

// quoteList is TolerantSeq's list while a quote is left open (quoteOpen):
// closedList when the quote is the first of its line, which the rest of
// the line then is the string of. Where quotes come before it on its line,
// which of them was left open is a guess: the list is the tolerant one of
// the reference's reading but for what it finds past the quote's line,
// other than parse errors (the text there is read inside out), and the
// unused variables, with the finding that says the quote is open.
func (s *Snapshot) quoteList(st *diagState) (*token.Lines, int, iter.Seq[diag.Diagnostic]) {
	at := s.cuts[0]
	if strings.IndexByte(s.Text[strings.LastIndexAny(s.Text[:at], "\n\r")+1:at], '"') < 0 {
		return s.closedList(st)
	}
	end := lineEndAt(s.Text, at)
	seq := st.tolerant()
	return st.lines, st.count() + len(s.cuts), withOpenQuotes(func(yield func(diag.Diagnostic) bool) {
		for d := range seq {
			if (d.Category != diag.Parse || d.Severity != diag.Error) && d.Span.Start > end || d.Kind == diag.Unused {
				continue // (whether a variable is read depends on the text below)
			}
			if !yield(d) {
				return
			}
		}
	}, s.Text, s.cuts)
}

// lineEndAt returns the offset of the line break that ends the line of
// offset i of text, or len(text).
func lineEndAt(text string, i int) int {
	for i < len(text) && text[i] != '\n' && text[i] != '\r' {
		i++
	}
	return i
}
