package core

// This file runs the WFL front end over a document.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// Analysis is everything the front end learned about one snapshot. It is
// immutable and shared by every reader of the snapshot.
type Analysis struct {
	Lines       *token.Lines      // the snapshot's line table
	File        *ast.File         // the syntax tree; never nil, partial when there are parse errors
	Info        *check.Info       // names, symbols and types; never nil
	Diagnostics []diag.Diagnostic // parse, semantic, type and lint findings
}

// analyze runs the front end over text.
func analyze(uri URI, text string) *Analysis {
	f, diags := parser.Parse(text)
	info, more := check.Check(f, text)
	all := append(diags, more...)
	return &Analysis{
		Lines:       token.NewLines(text),
		File:        f,
		Info:        info,
		Diagnostics: append(all, lintDiagnostics(uri, text, f, diags)...),
	}
}

// lintDiagnostics runs the linter under the .wflcfg in force for uri. As
// the reference linter, the rules that need a tree run only when the text
// parses; the text rules always run.
func lintDiagnostics(uri URI, text string, f *ast.File, parseDiags []diag.Diagnostic) []diag.Diagnostic {
	for _, d := range parseDiags {
		if d.Severity == diag.Error {
			f = nil
			break
		}
	}
	return lint.Check(text, f, nil, ConfigFor(uri))
}
