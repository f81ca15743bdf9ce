package core

// This file answers the position queries of an edited document (hover,
// definition, references, highlights, completion, signature help, semantic
// tokens and inlay hints of a range) without analysing the whole text
// again, from the last version analysed in full (the base) and a fresh
// analysis of the few statements the query and the edits since the base
// touch.
//
// The diagnostics already keep the document as units (incremental.go), and
// a unit of this version that is the very unit of the base's state (the
// same pointer) was neither edited since nor connected to an edit through
// a declared name, nor names what a file it includes changed since
// (incremental_imports.go): the checker learnt of it what it learnt in the
// base. (The names of included files are not the base's: every partial
// analysis is checked with the state's context.) Nor did one that only
// checks such a unit again and declares just what it did, the same symbols
// (unit.root, unitsig.go): an edit's names reach far, and those units
// would otherwise be taken by every query until the next full analysis.
// So, for a query about a stretch of the text:
//
//  1. the units the stretch overlaps, the units no longer the base's (the
//     dirty ones, and the one after each or after one removed, whose doc
//     comment lies in the unit before),
//     and the units with an include are taken, with the units that declare
//     or write a name they mention, and so on (their contexts, reach.go);
//     for references and highlights (QueryName), with every unit that
//     names the name at the cursor too, so that the analysis holds every
//     use of it. A unit whose symbols an edit changed is not the base's:
//     the derivation checked it again (unit.root);
//  2. those units are parsed again, in the text's own offsets, and
//     checked with the file's context, where the top-level names the other
//     units declare are given as the base's symbols, their declarations
//     moved to where their units now are: completion, signature help and
//     the member lists see every name of the file, and every name the
//     checked units mention is declared, if at all, in a unit taken;
//  3. the answer comes from that analysis: its tree holds every statement
//     the stretch shows, every declaration of the names those statements
//     mention, and for QueryName every use of the name asked about.
//
// When the closure is most of the text, the snapshot is not derived from
// an analysed version, or the stretches do not parse as their units did,
// the full analysis answers. TestQueryEqualsFull compares every query's
// answer with a full analysis's after random edits of the corpus.

import (
	"wfl-lsp/lang/token"
)

// partialMin is the size of text below which queries use the full
// analysis: it costs little more than a partial one (the partial analyses
// of a keystroke's requests cost less than the full one from about 300
// lines, 10 KB, of benchdoc's chunks). A variable for the tests.
var partialMin = 8 << 10

// partialMax is the share of the text (in units) above which a query's
// closure is not worth analysing apart. A variable for the tests.
var partialMax = 0.25

// Query returns an analysis that answers the position queries about span
// (hover, definition, completion, signature help at an offset in it;
// semantic tokens and inlay hints of a range inside it) as the snapshot's
// full analysis does. It is the full analysis when that is computed or
// cheaper; else an analysis of the statements that span and the edits
// since the last full analysis reach (see the file comment), whose tree
// holds only those. It is safe to call from many goroutines.
func (s *Snapshot) Query(span token.Span) *Analysis {
	return s.queryFor(span, 0)
}

// queryFor is Query, whose partial analysis also holds every unit that
// names the name of hash uses, when it is not 0.
func (s *Snapshot) queryFor(span token.Span, uses uint32) *Analysis {
	if c := s.reading(); c != s {
		return c.queryFor(span, uses) // a quote left open (openquote.go)
	}
	if s.analysed.Load() || len(s.Text) < partialMin {
		return s.Analysis()
	}
	if q := s.query(); q != nil {
		if a := q.answer(span, uses); a != nil {
			return a
		}
	}
	return s.Analysis()
}

// Ready makes, on the caller's goroutine, what Query(span) answers from
// when that costs little, and reports whether Query(span) now answers
// without analysing more: the analysis when it is computed (or the text is
// small enough, partialMin, for it to cost no more than a partial one);
// after an edit, the diagnostics derived from the version before, the
// query state and the partial analysis of the statements span reaches. It
// reports false, having started nothing, when Query would need a full
// analysis of a large text first because no analysed version precedes
// this one; and false when the span's statements reach too much of the
// text for a partial analysis (then the full one is still to be made).
// The LSP layer calls it on its read loop, so that the requests about the
// cursor an editor sends with each keystroke are answered there at once,
// without waking another thread.
func (s *Snapshot) Ready(span token.Span) bool {
	if c := s.reading(); c != s {
		return c.Ready(span)
	}
	if s.analysed.Load() || len(s.Text) < partialMin {
		s.Analysis()
		return true
	}
	q := s.query()
	if q == nil {
		return s.analysed.Load()
	}
	return q.answer(span, 0) != nil
}

// QueryName is Query for the queries that follow the name at offset through
// the document (references, highlights): when the name is declared in the
// file or in a file it includes, or resolves to nothing in a file with
// includes, a partial analysis that also holds every unit naming it (and
// what those need), so that it holds every use; the one of Query when there
// is no name there, or one that resolves to nothing in a file without
// includes; else the full analysis (a builtin's uses are anywhere).
func (s *Snapshot) QueryName(offset int) *Analysis {
	if c := s.reading(); c != s {
		return c.QueryName(offset)
	}
	span := token.Span{Start: offset, End: offset}
	a := s.Query(span)
	if a.part == nil {
		return a
	}
	id, sym := a.SymbolAt(offset)
	if id == nil {
		return a
	}
	if st := a.part.q.st; sym == nil && (st.ctx == nil || !st.ctx.Includes) {
		// A name that resolves to nothing (a name being typed) has no
		// uses to gather, whichever analysis answers: the partial one
		// resolves it as the full one does.
		return a
	}
	if sym != nil && (sym.From() == "" && sym.Decl.End <= sym.Decl.Start || sym.Name != id.Name) {
		return s.Analysis()
	}
	// Every unit that names the name: its uses, and for a name that an
	// included file declares, or that resolves to nothing in a file with
	// includes (references and highlights then look for it among the
	// included files' names), every place it is named. A name the file
	// declares is declared in one of those units, unless a unit of
	// another name declares it (a request field).
	if a = s.queryFor(span, nameHash(id.Name)); a.part == nil || sym == nil || sym.From() != "" || a.covers(sym.Decl.Start) {
		return a
	}
	return s.Analysis()
}

// QueryLines returns the line table of the snapshot's text that Query's
// analyses use: the diagnostics' (derived first if need be, which the
// publisher does anyway), so that a request converts its positions without
// building a table of its own. With a quote open, the analyses read a
// copy of the text with the quote closed on its line, of the same bytes
// and lines but not the same characters at the line's end: positions are
// converted over the text itself, whose table is then made.
func (s *Snapshot) QueryLines() *token.Lines {
	if c := s.reading(); c != s {
		return s.Lines()
	}
	if l := s.lines.Load(); l != nil {
		return l
	}
	if s.analysed.Load() || len(s.Text) < partialMin || s.qbase.Load() == nil {
		return s.Lines()
	}
	return s.diagState().lines
}

// Partial reports whether the analysis is a partial one (see Query).
func (a *Analysis) Partial() bool { return a.part != nil }

// PartialEverywhere makes every query partial when it can be, whatever
// the size of the text or of the closure, and completion find the names
// of every table through its index (names.go), until tb's test ends: the
// property tests of core and of its feature packages compare those answers
// with a full analysis's on small texts too. It is for tests only, and not
// for tests that run in parallel with others.
func PartialEverywhere(tb interface{ Cleanup(func()) }) {
	min, most, small := partialMin, partialMax, smallIndex
	partialMin, partialMax, smallIndex = 0, 1, 0
	tb.Cleanup(func() { partialMin, partialMax, smallIndex = min, most, small })
}
