package core

// This file gives the requests that read only the structure of a text
// (folding ranges, document links, selection ranges) what they read: its
// syntax tree and line table, without the checker's facts. After an edit
// that costs a parse, about half of a full analysis at 10,000 lines
// (BenchmarkKeystrokeOutline), and the analysis the snapshot makes later
// starts from that parse rather than parse again.

import (
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

// parsedText is what analyze parses a text into before it checks it.
type parsedText struct {
	file    *ast.File
	units   []parser.Unit
	dropped []diag.Diagnostic
}

// Syntax returns the snapshot's syntax tree and line table: its analysis's
// when that is computed, else those of a parse of its own, which the
// analysis, when asked for later, takes over. It is safe to call from many
// goroutines.
func (s *Snapshot) Syntax() *Syntax {
	if s.analysed.Load() {
		return &s.Analysis().Syntax
	}
	s.syntaxOnce.Do(func() {
		f, units, dropped := parser.Units(s.Text)
		s.parsed.Store(&parsedText{file: f, units: units, dropped: dropped})
		s.syntax = &Syntax{Lines: s.QueryLines(), File: f}
	})
	return s.syntax
}
