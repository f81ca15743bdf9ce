package presentation

// This file answers formatting requests (whole document or a range of lines).

import (
	"wfl-lsp/core"
	"wfl-lsp/lang/config"
	"wfl-lsp/lang/format"
)

// FormatEdits returns the edits that give the 0-based lines [startLine,
// endLine] of text their canonical layout (endLine -1: to the end), under
// cfg's indent_size. The edits replace whole lines, do not overlap, and
// come last-first: their offsets are all offsets into text, and applying
// them in the order given (as [ApplyEdits] does) yields the formatted text.
// A text that does not parse is not formatted: the error is a
// *format.SyntaxError.
func FormatEdits(text string, cfg config.Config, startLine, endLine int) ([]core.Edit, error) {
	fe, err := format.Edits(text, format.Options{IndentSize: cfg.IndentSize}, startLine, endLine)
	if err != nil {
		return nil, err
	}
	edits := make([]core.Edit, len(fe))
	for i, e := range fe {
		edits[len(fe)-1-i] = core.Edit{Start: e.Start, End: e.End, Text: e.Text}
	}
	return edits, nil
}

// Format returns the canonical layout of a snapshot's text under the
// configuration in force for its file.
func Format(s *core.Snapshot) (string, error) {
	cfg := core.ConfigFor(s.URI)
	return format.Source(s.Text, format.Options{IndentSize: cfg.IndentSize})
}

// FormatLines returns the edits that format the 0-based lines [startLine,
// endLine] of the snapshot (endLine -1: to the end) under the configuration
// in force for its file; see [FormatEdits].
func FormatLines(s *core.Snapshot, startLine, endLine int) ([]core.Edit, error) {
	return FormatEdits(s.Text, core.ConfigFor(s.URI), startLine, endLine)
}
