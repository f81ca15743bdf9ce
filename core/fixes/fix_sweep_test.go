package fixes

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// TestFixSweep applies every quick fix offered on the corpus programs and
// mutants, one at a time, analyses the result in full and fails when the
// diagnostic the fix repairs is still on its line or an error appears that
// the program did not have. The program had an error when it was reported,
// or found by a pass of the checker that was not reported (fixing the last
// parse error lets the checker's findings through), or when it is a
// semantic or type error in text the parser gave up on before the fix (a
// Bad node: the checker never saw it) that the fix did not change. An error
// in a statement the fix changed is new. It logs the counts by kind of fix: candidates, offered (the
// candidates that passed the same check inside Fixes), applied, failed.
// In CI it sweeps coretest.Programs' programs (every fourth) and every third
// mutant (every 30th in short mode); -stress sweeps them all.
func TestFixSweep(t *testing.T) {
	t.Parallel()
	stride := 3
	if testing.Short() {
		stride = 30
	}
	if *coretest.Stress > 0 {
		stride = 1
	}
	progs := coretest.OrSkip(t, stride)
	dir := t.TempDir()
	uri := core.FileURI(filepath.Join(dir, "a.wfl"))
	type tally struct{ tried, offered, applied, failed int }
	byKind := map[Kind]*tally{}
	var total tally
	programs, withFixes := 0, 0
	for _, path := range slices.Sorted(maps.Keys(progs)) {
		src := progs[path]
		programs++
		s := core.NewSnapshot(uri, 1, src)
		a := s.Analysis()
		had := errorsFound(a, src)
		unread := badSpans(src)
		kind := func(k Kind) *tally {
			if byKind[k] == nil {
				byKind[k] = &tally{}
			}
			return byKind[k]
		}
		fx := newFixer(s)
		_, shown := s.Tolerant() // the reference's, and while the text does not parse the others the editor shows
		for _, d := range shown {
			for _, f := range fx.fixes(d) { // the candidates, before they are checked
				kind(f.Kind).tried++
				total.tried++
			}
		}
		fixes := At(t.Context(), s, token.Span{Start: 0, End: len(src)})
		if len(fixes) > 0 {
			withFixes++
		}
		preferred := map[string]int{} // diagnostic -> preferred fixes
		for _, f := range fixes {
			n := kind(f.Kind)
			n.offered++
			total.offered++
			if f.Kind == "" {
				t.Errorf("%s: fix %q has no kind", path, f.Title)
			}
			if f.Preferred {
				preferred[fmt.Sprint(f.Diagnostic.Span.Start, " ", f.Diagnostic.Code, " ", f.Diagnostic.Message)]++
			}
			out, err := core.ApplyEdits(src, f.Edits...)
			if err != nil {
				t.Errorf("%s: %q: %v", path, f.Title, err)
				n.failed++
				total.failed++
				continue
			}
			n.applied++
			total.applied++
			bs := core.NewSnapshot(uri, 2, out)
			b := bs.Analysis()
			_, shownB := bs.Tolerant()
			if why := brokenBy(a, b, shown, shownB, f, had, unread, out); why != "" {
				n.failed++
				total.failed++
				t.Errorf("%s:%d: %q [%s %s]: %s", path, a.Lines.Line(f.Diagnostic.Span.Start)+1, f.Title, f.Diagnostic.Code, f.Diagnostic.Message, why)
			}
		}
		for at, n := range preferred {
			if n > 1 {
				t.Errorf("%s: %d preferred fixes for the diagnostic %s", path, n, at)
			}
		}
	}
	kinds := slices.Sorted(maps.Keys(byKind))
	for _, k := range kinds {
		n := byKind[k]
		t.Logf("%-28s candidates %5d  offered %5d  applied %5d  failed %d", k, n.tried, n.offered, n.applied, n.failed)
	}
	t.Logf("%d programs (%d with fixes): %d candidate fixes, %d offered (the others broke the program, or were names alike past the first %d), %d applied, %d failed",
		programs, withFixes, total.tried, total.offered, maxNames, total.applied, total.failed)
}

// errorsFound counts a program's errors by code and message (line numbers
// in messages left out): those reported, and those each pass of the checker
// found on the tree (reported only when the passes before it found none).
func errorsFound(a *core.Analysis, src string) map[string]int {
	reported := map[string]int{}
	for _, d := range a.Diagnostics {
		if d.Severity == diag.Error {
			reported[sweepKey(d)]++
		}
	}
	found := map[string]int{}
	// The program's as the reference reads it, and, with a quote left
	// open, with the string closed at the end of its line, as the editor
	// reads it: closing it lets those errors through.
	trees := []*ast.File{}
	f, _ := parser.Parse(src)
	trees = append(trees, f)
	if cuts := lexer.OpenQuotes(src); cuts != nil {
		end := cuts[0] + strings.IndexAny(src[cuts[0]:]+"\n", "\r\n")
		f, units, dropped := parser.Units(src[:end] + `"` + src[end:])
		trees = append(trees, f)
		n := map[string]int{}
		for _, d := range parser.Diagnostics(units, dropped) {
			if d.Severity == diag.Error {
				n[sweepKey(d)]++
			}
		}
		for k, c := range n {
			reported[k] = max(reported[k], c)
		}
	}
	for _, f := range trees {
		_, passes := check.CheckPasses(f, src, check.FileContext(f))
		n := map[string]int{}
		for _, d := range slices.Concat(passes.Analyzer, passes.Static, passes.Type) {
			if d.Severity == diag.Error {
				n[sweepKey(d)]++
			}
		}
		for k, c := range n {
			found[k] = max(found[k], c)
		}
	}
	for k, n := range found {
		reported[k] = max(reported[k], n)
	}
	return reported
}

var sweepLine = regexp.MustCompile(`line \d+`)

func sweepKey(d diag.Diagnostic) string {
	return d.Code + " " + sweepLine.ReplaceAllString(d.Message, "line N")
}

// brokenBy says what f broke, comparing the analyses before (a) and after
// (b) it (of the text out), or returns "".
func brokenBy(a, b *core.Analysis, shownA, shownB []diag.Diagnostic, f Fix, had map[string]int, unread []token.Span, out string) string {
	seen := map[string]int{}
	var news []string
	// The errors of the fixed program, with those of each pass of the
	// checker that earlier errors keep from being reported.
	errs := withPasses(b, out)
	for _, d := range errs {
		if d.Severity != diag.Error {
			continue
		}
		if d.Category != diag.Parse {
			if at, inserted := originalOffset(f.Edits, d.Span.Start); !inserted && inSpans(untouched(unread, f.Edits), at) {
				continue
			}
		}
		if sameGap(a, f.Edits, d) {
			continue
		}
		k := sweepKey(d)
		if seen[k]++; seen[k] > had[k] {
			news = append(news, fmt.Sprintf("line %d: %s", b.Lines.Line(d.Span.Start)+1, k))
		}
	}
	if len(news) > 0 {
		return "new errors: " + strings.Join(news, "; ")
	}
	// The same finding on the diagnostic's line, before and after (the line
	// found by following the diagnostic's start through the edits).
	key := sweepKey(f.Diagnostic)
	line := a.Lines.Line(f.Diagnostic.Span.Start)
	at := f.Diagnostic.Span.Start
	for _, e := range f.Edits { // last-first
		if at >= e.End && at > e.Start {
			at += len(e.Text) - (e.End - e.Start)
		} else if at > e.Start {
			at = e.Start
		}
	}
	// Counted among what every pass finds, or the editor's tolerant list
	// shows when that shows more: a fix may be offered for a finding the
	// reference does not report while the text does not parse (a parse
	// error raised after the first, placed before it).
	count := func(ds []diag.Diagnostic, lines *token.Lines, line int) int {
		n := 0
		for _, d := range ds {
			if sweepKey(d) == key && lines.Line(d.Span.Start) == line {
				n++
			}
		}
		return n
	}
	before := max(count(withPasses(a, a.Lines.Text()), a.Lines, line), count(shownA, a.Lines, line))
	after := max(count(errs, b.Lines, b.Lines.Line(at)), count(shownB, b.Lines, b.Lines.Line(at)))
	if after >= before {
		return "the diagnostic is still there"
	}
	return ""
}

// sameGap reports whether d, a parse error of the fixed text that says what
// the parser wanted, stands where the text before the fix had one wanting
// the same (the same gap, with what the parser finds after it moved:
// `display "` at the end of the text, its quote dropped, finds the end of
// the file, and the end of its line once a closer is inserted below).
func sameGap(a *core.Analysis, edits []core.Edit, d diag.Diagnostic) bool {
	if d.Category != diag.Parse || d.Kind != diag.Expected && d.Kind != diag.ExpectedValue {
		return false
	}
	at, _ := originalOffset(edits, d.Span.Start) // (an insertion's start where the gap is the text's end)
	wanted, _, _ := strings.Cut(d.Message, ", found ")
	return slices.ContainsFunc(a.Diagnostics, func(o diag.Diagnostic) bool {
		w, _, _ := strings.Cut(o.Message, ", found ")
		return o.Category == diag.Parse && o.Kind == d.Kind && o.Span.Start == at && w == wanted
	})
}

// withPasses returns an analysis' diagnostics with the findings of each
// pass of the checker over src, its text, that earlier errors keep from
// being reported.
func withPasses(an *core.Analysis, src string) []diag.Diagnostic {
	out := an.Diagnostics
	tree, _ := parser.Parse(src)
	_, passes := check.CheckPasses(tree, src, check.FileContext(tree))
	for _, pass := range [][]diag.Diagnostic{passes.Analyzer, passes.Static, passes.Type} {
		for _, d := range pass {
			if !slices.ContainsFunc(out, func(r diag.Diagnostic) bool {
				return r.Span == d.Span && r.Code == d.Code && r.Message == d.Message
			}) {
				out = append(out[:len(out):len(out)], d)
			}
		}
	}
	return out
}

// badSpans returns the extents of the Bad nodes of src's tree when it does
// not parse.
func badSpans(src string) []token.Span {
	f, diags := parser.Parse(src)
	if len(diags) == 0 {
		return nil
	}
	var out []token.Span
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.BadStmt, *ast.BadExpr:
			out = append(out, token.Span{Start: n.Pos(), End: n.End()})
		}
		return n != nil
	})
	return out
}

func inSpans(spans []token.Span, off int) bool {
	for _, sp := range spans {
		if sp.Start <= off && off < sp.End {
			return true
		}
	}
	return false
}

// originalOffset maps an offset of the fixed text back to the original
// one, and tells whether it lies in text the fix inserted.
func originalOffset(edits []core.Edit, off int) (int, bool) {
	sorted := slices.Clone(edits)
	slices.SortFunc(sorted, func(x, y core.Edit) int { return x.Start - y.Start })
	shift := 0
	for _, e := range sorted {
		newStart := e.Start + shift
		switch {
		case off < newStart:
			return off - shift, false
		case off < newStart+len(e.Text):
			return e.Start, true
		}
		shift += len(e.Text) - (e.End - e.Start)
	}
	return off - shift, false
}

// untouched returns the spans that no edit changes or inserts into (at
// their start included).
func untouched(spans []token.Span, edits []core.Edit) []token.Span {
	var out []token.Span
	for _, sp := range spans {
		touched := false
		for _, e := range edits {
			lo, hi := max(sp.Start, e.Start), min(sp.End, e.End)
			if lo < hi || (e.Start >= sp.Start && e.Start < sp.End) {
				touched = true
			}
		}
		if !touched {
			out = append(out, sp)
		}
	}
	return out
}
