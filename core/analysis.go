package core

// This file runs the WFL front end over a document.

import (
	"slices"
	"sync"
	"sync/atomic"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// Analysis is everything the front end learned about one snapshot. It is
// immutable and shared by every reader of the snapshot.
type Analysis struct {
	Syntax                        // the line table and the syntax tree
	Info        *check.Info       // names, symbols and types; never nil
	Diagnostics []diag.Diagnostic // parse, semantic, type and lint findings

	// cuts are the quotes left open that the analysed text closes on their
	// lines (Snapshot.Analysis, while a quote is open), or nil.
	cuts []int

	// exports returns, while a quote is left open, the analysis of the
	// text as it stands, which the files that include it read
	// (Snapshot.own; see Exported), or is nil: this analysis is that one.
	exports func() *Analysis

	// part is set for a partial analysis (query.go): File holds only the
	// statements of the stretches part names, Info what checking them
	// learnt, and Diagnostics is nil.
	part *coverage

	// diags are the diagnostics' state of the snapshot this is the full
	// analysis of (its units), or nil for another analysis.
	diags *atomic.Pointer[diagState]

	// ix is the analysis' index (index.go), built by the first query that
	// needs it, and gone with the analysis.
	ixOnce sync.Once
	ix     *index
}

// rawAnalysis is what analyze computed before combining (the incremental
// diagnostics start from it; an Analysis does not keep it): the parser's
// top-level units, each pass's findings whatever the others found, and the
// lint configuration.
type rawAnalysis struct {
	units   []parser.Unit
	dropped []diag.Diagnostic
	passes  check.Passes
	cfg     config.Config
	lint    []diag.Diagnostic
	// other is the linter's findings in the mode it did not report in
	// (without the tree when the text parses, with it when it does not),
	// when both asked for them (see fullState).
	other []diag.Diagnostic
	both  bool
	ctx   *check.Context // what the checker knew of the file (its includes' names among it)
	// included are the texts of the files the imports were read from, by
	// path (see importSet).
	included map[string]string
}

// analyze runs the front end over text. As in the reference, a program with
// parse errors reports only those (and the text lint rules): the checker still
// runs so hover and definition work on the partial tree, but its findings on a
// tree with holes would be guesses (a variable used only inside a broken block
// looks unused), so they are not reported.
func analyze(uri URI, text string, src includeSource) (*Analysis, rawAnalysis) {
	return analyzeModes(uri, text, src, false, nil, nil)
}

// analyzeModes is analyze; with both, the linter also reports in its other
// mode (rawAnalysis.other), which the diagnostics' state keeps too. When
// parsed is not nil, it is what text parses to (Snapshot.Syntax made it).
// Once done is closed (nil: never), the parser and the checker stop at
// the next statement and the linter does not run: the analysis is
// incomplete, for a caller that no longer wants it (NewSnapshotContext).
func analyzeModes(uri URI, text string, src includeSource, both bool, parsed *parsedText, done <-chan struct{}) (*Analysis, rawAnalysis) {
	analyses.Add(1)
	var f *ast.File
	var units []parser.Unit
	var dropped []diag.Diagnostic
	var lx *lexer.Result // nil: the linter lexes the text again
	if parsed != nil {
		f, units, dropped = parsed.syntax.File, parsed.units, parsed.dropped
	} else {
		f, units, dropped, lx = parser.UnitsLexedUntil(text, done)
	}
	ctx := check.FileContext(f)
	ctx.Done = done
	in := followIncludes(f, uri.Path(), src)
	ctx.Imports, ctx.Unfollowed = in.syms, in.problems
	parseDiags := parser.Diagnostics(units, dropped)
	cfg := ConfigFor(uri)
	// The linter and the line table need only the text and the tree: from
	// parallelMin bytes they are computed on another core while the checker
	// runs here (lang itself starts no goroutines).
	var lintDiags, lintOther []diag.Diagnostic
	var lines *token.Lines
	var lintPanic any
	lintDone := make(chan struct{})
	lint := func() {
		defer close(lintDone)
		defer func() { lintPanic = recover() }()
		lines = token.NewLines(text)
		if closed(done) {
			return
		}
		if both {
			lintDiags, lintOther = lint.CheckUntil(text, f, lx, cfg, true, done)
			if hasError(parseDiags) {
				lintDiags, lintOther = lintOther, lintDiags
			}
		} else {
			lintDiags = lintDiagnostics(text, f, lx, parseDiags, cfg, done)
		}
	}
	parallel := len(text) >= parallelMin
	if parallel {
		go lint()
	}
	info, passes := check.CheckPasses(f, text, ctx)
	checkDiags := passes.Diagnostics()
	if !parallel {
		lint()
	}
	<-lintDone
	if lintPanic != nil {
		panic(lintPanic) // surfaces in the caller, as when the linter ran here
	}
	if hasError(parseDiags) {
		checkDiags = nil
	}
	// One slice of the exact size: the analysis lives as long as its
	// snapshot, and the spare capacity of appended slices would too.
	diags := make([]diag.Diagnostic, 0, len(parseDiags)+len(checkDiags)+len(lintDiags))
	diags = append(append(append(diags, parseDiags...), checkDiags...), lintDiags...)
	return &Analysis{
		Syntax:      Syntax{Lines: lines, File: f},
		Info:        info,
		Diagnostics: diags,
	}, rawAnalysis{units: units, dropped: dropped, passes: passes, cfg: cfg, lint: lintDiags, other: lintOther, both: both, ctx: ctx, included: in.texts}
}

// LeftOpen reports whether the quote at offset is one the text leaves open
// and the analysis reads closed on its line: what follows it on its line
// is then not the text as typed.
func (a *Analysis) LeftOpen(quote int) bool { return slices.Contains(a.cuts, quote) }

// OpenQuote returns the offset of the quote left open that the analysed
// text closes on its line (Snapshot.Analysis), or -1 when the analysis is
// of the text as it stands.
func (a *Analysis) OpenQuote() int {
	if len(a.cuts) == 0 {
		return -1
	}
	return a.cuts[0]
}

// closed reports whether done is closed (never, for nil).
func closed(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// parallelMin is the size of text from which analyze spreads independent
// passes over two goroutines; below it, the hand-off costs more than it saves.
const parallelMin = 32 << 10

func hasError(diags []diag.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// lintDiagnostics runs the linter under cfg, the .wflcfg in force. As the
// reference linter, the rules that need a tree run only when the text
// parses; the text rules always run.
func lintDiagnostics(text string, f *ast.File, lx *lexer.Result, parseDiags []diag.Diagnostic, cfg config.Config, done <-chan struct{}) []diag.Diagnostic {
	if hasError(parseDiags) {
		f = nil
	}
	out, _ := lint.CheckUntil(text, f, lx, cfg, false, done)
	return out
}
