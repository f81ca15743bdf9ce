package core

// This file gives the requests that read only the structure of a text
// (folding ranges, document links, selection ranges) what they read: its
// syntax tree and line table, without the checker's facts. After an edit
// that costs a parse, about half of a full analysis at 10,000 lines
// (BenchmarkKeystrokeOutline), and the analysis the snapshot makes later
// starts from that parse rather than parse again.

import (
	"weak"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// Syntax is a text's line table and syntax tree. An Analysis holds one;
// Snapshot.Syntax makes one alone.
type Syntax struct {
	Lines *token.Lines // the snapshot's line table
	File  *ast.File    // the syntax tree; never nil, partial when there are parse errors
}

// parsedText is what analyze parses a text into before it checks it, and
// the Syntax made of it.
type parsedText struct {
	syntax  Syntax
	units   []parser.Unit
	dropped []diag.Diagnostic
}

// Syntax returns the snapshot's syntax tree and line table: its analysis's
// when that is computed, else those of a parse of its own, which the
// analysis, when asked for while it is still held, takes over. The
// snapshot holds that parse weakly: a tree is several times the size of
// its text, and a client that asks for folding ranges at every keystroke
// but never for an analysis would otherwise keep one beside the analysis
// of the version the queries start from. It is safe to call from many
// goroutines.
func (s *Snapshot) Syntax() *Syntax {
	if c := s.reading(); c != s {
		if s.quote.readDone.Load() {
			return &s.Analysis().Syntax
		}
		return c.Syntax() // a quote left open (openquote.go)
	}
	if s.analysed.Load() {
		return &s.Analysis().Syntax
	}
	lines := s.QueryLines() // before the lock: it may analyse, which takes the parse
	if s.analysed.Load() {  // it did: the analysis's tree, not a parse of its own
		return &s.Analysis().Syntax
	}
	s.syntaxMu.Lock()
	defer s.syntaxMu.Unlock()
	if p := s.parsed.Value(); p != nil {
		return &p.syntax // keeps p alive while it is used
	}
	f, units, dropped := parser.Units(s.Text)
	p := &parsedText{syntax: Syntax{Lines: lines, File: f}, units: units, dropped: dropped}
	s.parsed = weak.Make(p)
	return &p.syntax
}

// takeParse returns the parse Syntax made, if it is still held, for the
// analysis.
func (s *Snapshot) takeParse() *parsedText {
	s.syntaxMu.Lock()
	defer s.syntaxMu.Unlock()
	return s.parsed.Value()
}
