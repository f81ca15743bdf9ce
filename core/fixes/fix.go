package fixes

// This file computes quick fixes: text edits that repair one diagnostic, and
// a "fix all" that applies the ones that only change layout.

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/format"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// A Fix repairs one diagnostic.
type Fix struct {
	Title      string          // what the fix does, e.g. "Rename 'userName' to 'user_name'"
	Kind       Kind            // what sort of repair it is
	Diagnostic diag.Diagnostic // the finding it repairs
	// Edits are offsets into the snapshot's text, sorted last-first and not
	// overlapping: apply them in order (as ApplyEdits does), or all at once
	// against the original text as LSP clients do.
	Edits []core.Edit
	// Safe fixes change only layout (indentation, blanks at line ends, the
	// letter case of booleans); [All] applies exactly these.
	Safe bool
	// Preferred marks the fix to apply when the user asks for "the" fix of
	// the diagnostic (LSP's isPreferred): at most one per diagnostic.
	Preferred bool

	sound  bool // correct as made (checked where it is made): Fixes does not check it again
	dist   int  // DidYouMean: the edit distance of the name it proposes
	errors int  // the errors of the program it makes (see fixer.passes)
}

// A Kind says what sort of repair a [Fix] makes.
type Kind string

// The kinds of fixes.
const (
	Whitespace     Kind = "remove-trailing-whitespace" // LINT-WHITESPACE
	Indent         Kind = "indent"                     // LINT-INDENT
	KeywordCase    Kind = "keyword-case"               // LINT-KEYWORD
	SnakeCase      Kind = "rename-snake-case"          // LINT-NAME: the name and every reference
	DidYouMean     Kind = "did-you-mean"               // an undefined name: a visible name, builtin or operator spelled alike
	Declare        Kind = "declare-variable"           // an undefined variable: `store NAME as nothing` (or the empty value its use asks for) before the statement
	CreateAction   Kind = "create-action"              // an undefined action called: a definition with its parameters
	StoreToChange  Kind = "store-to-change"            // a redeclaration: `store X as V` becomes `change X to V`
	RemoveUnused   Kind = "remove-unused-variable"     // ANALYZE-UNUSED: the declaration, when its value has no effect
	Implement      Kind = "implement-interface"        // a container lacking an action its interface requires: a stub
	InsertCloser   Kind = "insert-closer"              // a missing `end …` line
	CloseQuote     Kind = "close-quote"                // a quote left open on its line: '"' at the end of the line
	ReplaceCloser  Kind = "replace-closer"             // a closer of the wrong block: its second word replaced
	ExtraWords     Kind = "remove-extra-words"         // `end for each` -> `end for`
	InsertKeyword  Kind = "insert-keyword"             // a missing word the parser names (`as`, `to`, `if`, `each`, …): inserted where it expected it
	ReplaceKeyword Kind = "replace-keyword"            // a word spelled like the one the parser expected there, replaced by it
	IncludePath    Kind = "include-path"               // an include naming no file: the path of a file of its folder spelled alike
)

// At returns the quick fixes for the snapshot's diagnostics whose span
// overlaps span (an empty span at an offset touches the diagnostics around
// it), in diagnostic order.
//
// A fix is offered only when it works: layout fixes and renames by
// construction, every other one after it was applied to a copy of the text
// and checked there (see [fixer.passes]). Candidates that break the program
// are dropped. At most 16 candidates are checked (maxChecked): the
// findings after get only the fixes that need no check. When ctx is done
// (the editor cancelled its request, or moved on), At stops between two
// findings and returns the fixes made until then.
func At(ctx context.Context, s *core.Snapshot, span token.Span) []Fix {
	touches := func(d diag.Diagnostic) bool { return d.Span.End >= span.Start && d.Span.Start <= span.End }
	return of(ctx, s, touches, maxChecked)
}

// Of returns the quick fixes for the diagnostics of the snapshot's
// list (Snapshot.Tolerant) that want returns true for (it is called once
// for each, in order), in diagnostic order, made and checked as [At]
// makes them. A caller that wants the
// fixes of many findings asks for a few at a time: checking a fix that
// is not safe may take an analysis of the whole text, and every one asked
// for is checked. When ctx is done, Of stops and returns the fixes made
// until then.
func Of(ctx context.Context, s *core.Snapshot, want func(diag.Diagnostic) bool) []Fix {
	return of(ctx, s, want, math.MaxInt)
}

// of is Of for the findings touches picks. Once checks fixes have been
// checked, a finding gets only the fixes that need no check.
func of(ctx context.Context, s *core.Snapshot, touches func(diag.Diagnostic) bool, checks int) []Fix {
	_, shown := s.Tolerant()
	picked, touched := make([]bool, len(shown)), 0
	for i, d := range shown {
		if touches(d) {
			picked[i] = true
			touched++
		}
	}
	if touched == 0 {
		// Nothing to fix there: an editor asks at every move of the
		// cursor, and the diagnostics need no full analysis.
		return nil
	}
	fx := newFixer(s)
	// A partial analysis for each of many findings (a whole document's,
	// as MCP's fix tool asks) would cost more than the full one.
	fx.whole = touched > maxPartialFixes
	var out []Fix
	reported := map[string]int{} // the reference's, by findingKey and place
	for _, d := range fx.reported {
		reported[placedKey(d)]++
	}
	checked := 0 // fixes checked on a copy of the text
	for i, d := range shown {
		if !picked[i] {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		checking := checked < checks // see maxChecked
		// A finding only the tolerant list has (the text does not parse)
		// is checked against the tolerant lists: the reference's has
		// nothing but the parse error before and after.
		tolerant := reported[placedKey(d)] == 0
		reported[placedKey(d)]--
		var kept []Fix
		names := 0
		for _, f := range fx.fixes(d) {
			if f.Kind == DidYouMean && names == maxNames {
				continue // enough names spelled alike
			}
			switch {
			case f.Safe || f.sound:
				kept = append(kept, f)
			case checking:
				checked++
				if n, ok := fx.check(f, tolerant); ok {
					f.errors = n
					kept = append(kept, f)
					if f.Kind == DidYouMean {
						names++
					}
				}
			}
		}
		out = append(out, prefer(kept)...)
	}
	return out
}

// maxPartialFixes is how many findings' fixes are made from partial
// analyses at most; beyond, all are made from the full analysis.
const maxPartialFixes = 8

// maxChecked bounds the fixes At checks on a copy of the text. A
// check analyses the fixed text again, which an edit that reaches every
// statement (a name all of them use) or a text that does not parse makes
// an analysis of the whole text: an editor's request for the quick fixes
// of a whole document (its text selected, or a lightbulb over a long
// selection) of 2,000 findings took a minute and more. The findings are
// taken in order, and each takes all its candidates: past the bound, the
// findings after get only the fixes that need no check (layout,
// renames). A caller that wants the fixes of many findings asks for a
// few at a time (Of, which checks all it is asked for).
const maxChecked = 16

// maxNames is how many names spelled like an undefined one are offered.
const maxNames = 3

// prefer leaves at most one of a diagnostic's fixes marked Preferred: of
// those that may be (see below), the one whose program has the fewest
// errors, the first of equals. A fix may be preferred when it was marked so
// where it was made, except that a name spelled like an undefined one may
// be only when no other is as near, and creating an action only when no
// name is spelled alike.
func prefer(fixes []Fix) []Fix {
	nearest, second, names := -1, -1, 0
	for i, f := range fixes {
		if f.Kind != DidYouMean {
			continue
		}
		names++
		switch {
		case nearest < 0:
			nearest = i
		case second < 0:
			second = i
		}
	}
	best := -1
	for i := range fixes {
		f := &fixes[i]
		switch f.Kind {
		case DidYouMean:
			f.Preferred = i == nearest && (second < 0 || fixes[second].dist > f.dist)
		case CreateAction:
			f.Preferred = f.Preferred && names == 0
		}
		if f.Preferred && (best < 0 || f.errors < fixes[best].errors) {
			best = i
		}
		f.Preferred = false
	}
	if best >= 0 {
		fixes[best].Preferred = true
	}
	return fixes
}

// All returns the snapshot's text with every safe fix applied, and how
// many were applied.
func All(s *core.Snapshot) (string, int, error) {
	kept := AllEdits(s)
	text, err := applyDisjoint(s.Text, kept)
	if err != nil {
		return s.Text, 0, err
	}
	return text, len(kept), nil
}

// AllEdits returns the edits of every safe fix, last-first and not
// overlapping: those [All] applies.
func AllEdits(s *core.Snapshot) []core.Edit {
	// The only findings with safe fixes, of the list an editor shows and
	// MCP's fix_wfl lists (Of): the list of the text as it stands would
	// leave the fixes of a program that does not parse unmade, and strip
	// the blanks at the end of a string left open.
	fixable := func(d diag.Diagnostic) bool {
		return d.Code == diag.LintWhitespace || d.Code == diag.LintIndent || d.Code == diag.LintKeyword
	}
	var edits []core.Edit // safe fixes have one edit each
	// Only the safe fixes are kept: none is checked (checking the others,
	// to drop them after, took 4.5 s for 2,000 `Display x`).
	for _, f := range of(context.Background(), s, fixable, 0) {
		if f.Safe && len(f.Edits) == 1 {
			edits = append(edits, f.Edits[0])
		}
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
	// Drop edits that overlap one already kept (none should).
	kept := edits[:0]
	for _, e := range edits {
		if k := len(kept); k > 0 && e.End > kept[k-1].Start {
			continue
		}
		kept = append(kept, e)
	}
	return kept
}

// applyDisjoint applies edits sorted last-first that do not overlap, in one
// pass (ApplyEdits copies the whole text once per edit).
func applyDisjoint(text string, edits []core.Edit) (string, error) {
	var b strings.Builder
	b.Grow(len(text))
	pos := 0
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		if e.Start < pos || e.End < e.Start || e.End > len(text) ||
			!onRune(text, e.Start) || !onRune(text, e.End) {
			return "", fmt.Errorf("fix edit [%d, %d) is out of order, outside the text or splits a character", e.Start, e.End)
		}
		b.WriteString(text[pos:e.Start])
		b.WriteString(e.Text)
		pos = e.End
	}
	b.WriteString(text[pos:])
	return b.String(), nil
}

// onRune reports whether offset i of s starts a character or ends s.
func onRune(s string, i int) bool { return i == len(s) || utf8.RuneStart(s[i]) }

// A fixer makes and checks the fixes of a snapshot's findings. It reads
// the text, its line table and its diagnostics, derived after an edit
// from the version before's; the tree, when a fix needs it, of a parse
// (Snapshot.Syntax); for the fixes of an undefined name, the analysis
// that answers the queries there (analysisAt: after an edit, a partial
// one), and for those of an unused variable and a rename to snake_case,
// the one that holds every place naming the name (analysisNaming); the
// full analysis only for an interface's stubs and a rename to a name the
// file writes already. The fixes an editor asks for at nearly every
// keystroke while a line is being typed, those of a parse error, of a
// name not yet declared or not yet used, are thus made and checked
// without it.
type fixer struct {
	snap     *core.Snapshot
	src      string
	lines    *token.Lines      // the snapshot's line table
	reported []diag.Diagnostic // the snapshot's diagnostics, as its analysis reports them
	a        *core.Analysis    // see analysis; nil until a fix needs it
	own      *ast.File         // see ownTree; nil until needed
	whole    bool              // the fixes of one place are made from the full analysis too (see analysisAt)

	depths     []int // canonical indentation depth of each line, computed on first use
	indentSize int   // indent_size in force for the document (valid with depths)

	known map[string]int // see knownErrors; nil until a fix is checked
	bad   []token.Span   // see unread; nil until computed
}

func newFixer(s *core.Snapshot) *fixer {
	lines, reported := s.Diagnostics()
	return &fixer{snap: s, src: s.Text, lines: lines, reported: reported}
}

// analysis returns the snapshot's full analysis, made the first time a fix
// needs the checker's facts.
func (fx *fixer) analysis() *core.Analysis {
	if fx.a == nil {
		fx.a = fx.snap.Analysis()
	}
	return fx.a
}

// analysisAt returns an analysis that answers about span as the full one
// does (Snapshot.Query): after an edit, usually a partial analysis of the
// statements there and what they need. With whole set, the full analysis.
func (fx *fixer) analysisAt(span token.Span) *core.Analysis {
	if fx.whole {
		return fx.analysis()
	}
	return fx.snap.Query(span)
}

// analysisNaming returns an analysis that holds every place naming the
// name at offset, as the full one does (Snapshot.QueryName). With whole
// set, the full analysis.
func (fx *fixer) analysisNaming(offset int) *core.Analysis {
	if fx.whole {
		return fx.analysis()
	}
	return fx.snap.QueryName(offset)
}

// tree returns the snapshot's syntax tree: its analysis's when it is made.
func (fx *fixer) tree() *ast.File {
	if fx.a != nil {
		return fx.a.File
	}
	return fx.snap.Syntax().File
}

// ownTree returns the syntax tree of the snapshot's own text. It is tree,
// unless a quote is left open: the snapshot's features then read the text
// with the quote closed on its line (Snapshot.ReadText), where the checks of
// a fix need what the text itself holds (a statement of words the open
// quote's line may hold is an error that the fixed program still has).
func (fx *fixer) ownTree() *ast.File {
	if fx.snap.ReadText() == fx.src {
		return fx.tree()
	}
	if fx.own == nil {
		fx.own, _ = parser.Parse(fx.src)
	}
	return fx.own
}

// fixes returns the candidate fixes of d, unchecked.
func (fx *fixer) fixes(d diag.Diagnostic) []Fix {
	one := func(title string, kind Kind, safe bool, edits ...core.Edit) []Fix {
		return []Fix{{Title: title, Kind: kind, Diagnostic: d, Edits: edits, Safe: safe, Preferred: true}}
	}
	switch d.Code {
	case diag.LintWhitespace:
		return one("Remove trailing whitespace", Whitespace, true, core.Edit{Start: d.Span.Start, End: d.Span.End})
	case diag.LintIndent:
		return fx.indent(d, one)
	case diag.LintKeyword:
		word := fx.src[d.Span.Start:d.Span.End]
		lower := strings.ToLower(word)
		boolean := lower == "yes" || lower == "no" || lower == "true" || lower == "false"
		return one("Write '"+word+"' as the keyword '"+lower+"'", KeywordCase, boolean, core.Edit{Start: d.Span.Start, End: d.Span.End, Text: lower})
	case diag.LintName:
		return fx.snakeCase(d)
	case diag.AnalyzeUnused:
		return fx.removeUnused(d)
	}
	switch d.Category {
	case diag.Semantic:
		switch d.Kind {
		case diag.Undefined, diag.UndefinedParamWord, diag.UndefinedAction, diag.UndefinedInterface:
			if len(d.Names) == 1 { // not one an included file declares
				return fx.undefined(d)
			}
		case diag.Redefined:
			return fx.storeToChange(d)
		case diag.MissingInclude:
			return fx.includePath(d)
		}
	case diag.Type:
		if d.Kind == diag.Unsatisfied {
			return fx.implement(d)
		}
	case diag.Parse:
		if d.Kind == diag.OpenQuote || d.Code == diag.ParseDroppedChar && fx.src[d.Span.Start:d.Span.End] == `"` {
			return fx.closeQuote(d)
		}
		return slices.Concat(fx.closer(d), fx.missingKeyword(d), fx.missingStatementWord(d), fx.extraWords(d))
	}
	return nil
}

// passes reports whether f repairs its diagnostic without breaking the
// program: in the text f makes, the diagnostic is gone from its line (fewer
// of the same finding there than before) and no error appears that the
// program did not have. An error the program had counts whether or not it
// was reported: fixing the last parse error (or semantic error) lets the
// checker (or the type checker) report what it had found all along. So does
// a semantic or type error in text the parser could not read before the
// fix (a statement it gave up on) and the fix did not change (an insertion
// at its start changes it, one at its end completes it): the checker never
// saw that text, and the error was there, unreported. An error in a
// statement the fix changes is new. It also returns how many errors the
// fixed program has, reported or not (to prefer the fix that leaves fewest).
func (fx *fixer) check(f Fix, tolerant bool) (errors int, ok bool) {
	if tolerant {
		return fx.passesTolerant(f)
	}
	return fx.passes(f)
}

// placedKey identifies a diagnostic by what it says and where.
func placedKey(d diag.Diagnostic) string {
	return findingKey(d) + "@" + strconv.Itoa(d.Span.Start)
}

// passesTolerant is passes for a finding of the tolerant list while the
// text does not parse: the fix is kept when its finding has fewer
// occurrences on its line afterwards among what every pass of the checker
// finds, and no error appears in the tolerant list that it did not already
// have.
func (fx *fixer) passesTolerant(f Fix) (errors int, ok bool) {
	text, err := applyDisjoint(fx.src, f.Edits)
	if err != nil || text == fx.src {
		return 0, false
	}
	v := fx.version(text)
	lines, after := v.Tolerant()
	_, before := fx.snap.Tolerant()
	key := findingKey(f.Diagnostic)
	line, at := fx.lines.Line(f.Diagnostic.Span.Start), lines.Line(shiftOffset(f.Edits, f.Diagnostic.Span.Start))
	was, is := 0, 0
	had := map[string]int{}
	for _, d := range before {
		if fx.lines.Line(d.Span.Start) == line && findingKey(d) == key {
			was++
		}
		if d.Severity == diag.Error {
			had[findingKey(d)]++
		}
	}
	// The finding must be gone from what every pass of the checker finds
	// in the fixed text, not only from the tolerant list (which may hide
	// it for other reasons), and from the tolerant list (which shows the
	// parse errors raised after the first that lie before it).
	_, reported := v.Diagnostics()
	for _, d := range fx.withHidden(reported, v) {
		if lines.Line(d.Span.Start) == at && findingKey(d) == key {
			is++
		}
	}
	shown := 0
	for _, d := range after {
		if lines.Line(d.Span.Start) == at && findingKey(d) == key {
			shown++
		}
	}
	is = max(is, shown)
	for _, d := range after {
		if d.Severity != diag.Error {
			continue
		}
		errors++
		if k := findingKey(d); had[k] == 0 {
			return 0, false // a new error
		} else {
			had[k]--
		}
	}
	return errors, is < was
}

func (fx *fixer) passes(f Fix) (errors int, ok bool) {
	text, err := applyDisjoint(fx.src, f.Edits)
	if err != nil || text == fx.src {
		return 0, false
	}
	v := fx.version(text)
	lines, after := v.Diagnostics()
	key := findingKey(f.Diagnostic)
	line, at := fx.lines.Line(f.Diagnostic.Span.Start), lines.Line(shiftOffset(f.Edits, f.Diagnostic.Span.Start))
	was, is := 0, 0
	for _, d := range fx.reported {
		if fx.lines.Line(d.Span.Start) == line && findingKey(d) == key {
			was++
		}
	}
	seen := map[string]int{}
	// fresh counts the errors of ds and reports whether one is new.
	fresh := func(ds []diag.Diagnostic) bool {
		for _, d := range ds {
			if lines.Line(d.Span.Start) == at && findingKey(d) == key {
				is++
			}
			if d.Severity != diag.Error {
				continue
			}
			errors++
			if d.Category != diag.Parse && fx.unread(unshiftOffset(f.Edits, d.Span.Start), f.Edits) {
				continue
			}
			k := findingKey(d)
			if seen[k]++; seen[k] > fx.knownErrors()[k] {
				return true
			}
		}
		return false
	}
	if fresh(after) {
		return 0, false
	}
	if slices.ContainsFunc(after, isError) {
		// Errors hide the findings of the passes after them: look at those
		// too, or a fix would pass that only swaps an error for a hidden one.
		if fresh(fx.withHidden(after, v)[len(after):]) {
			return 0, false
		}
	}
	return errors, is < was
}

// unread reports whether an offset of the snapshot's text lies in a
// statement or expression the parser gave up on (a Bad node), which the
// checker did not see, and that none of edits changes.
func (fx *fixer) unread(offset int, edits []core.Edit) bool {
	if offset < 0 {
		return false
	}
	if fx.bad == nil {
		fx.bad = []token.Span{}
		if slices.ContainsFunc(fx.reported, isError) {
			ast.Inspect(fx.ownTree(), func(n ast.Node) bool {
				switch n.(type) {
				case *ast.BadStmt, *ast.BadExpr:
					fx.bad = append(fx.bad, token.Span{Start: n.Pos(), End: n.End()})
					return false
				}
				return n != nil
			})
		}
	}
	for _, sp := range fx.bad {
		if sp.Start <= offset && offset < sp.End {
			for _, e := range edits {
				if e.Start < sp.End && e.End > sp.Start || sp.Start <= e.Start && e.Start < sp.End {
					return false
				}
			}
			return true
		}
	}
	return false
}

// version returns a copy of the snapshot with text, whose diagnostics are
// derived from the snapshot's and whose includes are found where the
// snapshot's are.
func (fx *fixer) version(text string) *core.Snapshot {
	fx.snap.Diagnostics() // the state the new version's are derived from
	return fx.snap.WithText(text)
}

// knownErrors counts the errors the program has by [findingKey]: those
// reported, and those the passes of the checker found but that are not
// reported (the reference reports the semantic ones only when the program
// parses, and the type checker's only when there is no semantic error).
func (fx *fixer) knownErrors() map[string]int {
	if fx.known == nil {
		fx.known = map[string]int{}
		if !slices.ContainsFunc(fx.reported, isError) {
			return fx.known // every pass ran and reported: there is nothing hidden
		}
		for _, d := range fx.withHidden(fx.reported, fx.snap) {
			if d.Severity == diag.Error {
				fx.known[findingKey(d)]++
			}
		}
	}
	return fx.known
}

// withHidden returns diags, the diagnostics reported for v (the snapshot
// or a version of its text made by version), and the findings of every
// pass of the checker over its text that are not among them: those the
// reported list holds back behind an error of an earlier pass. When the
// text parses, v's diagnostics' state keeps them with its units, derived
// from the snapshot's as the reported ones are, and no pass runs over the
// whole text again. When it does not, the passes over the tree a parse of
// the whole text recovers find what the units checked apart do not, and
// they run (TestHiddenEqualsCheckPasses).
func (fx *fixer) withHidden(diags []diag.Diagnostic, v *core.Snapshot) []diag.Diagnostic {
	type finding struct {
		span          token.Span
		code, message string
	}
	reported := map[finding]bool{}
	parses := true
	for _, d := range diags {
		reported[finding{d.Span, d.Code, d.Message}] = true
		parses = parses && (d.Category != diag.Parse || d.Severity != diag.Error)
	}
	out := diags[:len(diags):len(diags)]
	var tree *ast.File
	if !parses && v == fx.snap {
		tree = fx.ownTree() // the snapshot's own parse, perhaps made already for its folding ranges
	}
	for d := range v.PassFindings(parses, tree) {
		if !reported[finding{d.Span, d.Code, d.Message}] {
			out = append(out, d)
		}
	}
	return out
}

// findingKey names a finding independently of where it is: its code and its
// message, with the line numbers it mentions ("already defined at line 3")
// left out, since a fix may move lines.
func findingKey(d diag.Diagnostic) string {
	msg := d.Message
	if strings.Contains(msg, "line ") {
		msg = lineNumber.ReplaceAllString(msg, "line N")
	}
	return d.Code + " " + msg
}

var lineNumber = regexp.MustCompile(`line [0-9]+`)

// shiftOffset maps an offset of the original text to the text that edits
// (sorted last-first, not overlapping) make: an offset inside a replaced
// stretch maps to its start.
func shiftOffset(edits []core.Edit, off int) int {
	delta := 0
	for _, e := range edits {
		switch {
		case off >= e.End && (e.Start < e.End || off > e.Start):
			delta += len(e.Text) - (e.End - e.Start)
		case off > e.Start:
			off = e.Start
		}
	}
	return off + delta
}

// unshiftOffset maps an offset of the text that edits (sorted last-first,
// not overlapping) make back to the original text. It returns -1 for an
// offset in text an edit inserted.
func unshiftOffset(edits []core.Edit, off int) int {
	delta := 0
	for i := len(edits) - 1; i >= 0; i-- { // first in the text first
		e := edits[i]
		start := e.Start + delta
		if off < start {
			break
		}
		if off < start+len(e.Text) {
			return -1
		}
		delta += len(e.Text) - (e.End - e.Start)
	}
	return off - delta
}

// indentUnit is one level of indentation under the document's
// configuration.
func (fx *fixer) indentUnit() string {
	if fx.indentSize == 0 {
		fx.indentSize = max(core.ConfigFor(fx.snap.URI).IndentSize, 1)
	}
	return strings.Repeat(" ", fx.indentSize)
}

// indent replaces a line's leading blanks with the canonical indentation.
func (fx *fixer) indent(d diag.Diagnostic, one func(string, Kind, bool, ...core.Edit) []Fix) []Fix {
	if fx.depths == nil {
		fx.depths = format.LineDepths(fx.tree(), fx.src, fx.lines)
	}
	fx.indentUnit()
	line := fx.lines.Line(d.Span.Start)
	if line >= len(fx.depths) || fx.depths[line] == format.Verbatim {
		return nil
	}
	want := strings.Repeat(" ", fx.depths[line]*fx.indentSize)
	start, end := fx.lines.LineStart(line), fx.lines.LineEnd(line)
	ws := start + len(fx.src[start:end]) - len(strings.TrimLeft(fx.src[start:end], " \t\f"))
	return one("Indent the line with "+strconv.Itoa(len(want))+" spaces", Indent, true, core.Edit{Start: start, End: ws, Text: want})
}

func isError(d diag.Diagnostic) bool { return d.Severity == diag.Error }
