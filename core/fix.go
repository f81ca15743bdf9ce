package core

// This file computes quick fixes: text edits that repair one diagnostic, and
// a "fix all" that applies the ones that only change layout.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/format"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/token"
)

// A Fix repairs one diagnostic.
type Fix struct {
	Title      string          // what the fix does, e.g. "Rename 'userName' to 'user_name'"
	Diagnostic diag.Diagnostic // the finding it repairs
	// Edits are offsets into the snapshot's text, sorted last-first and not
	// overlapping: apply them in order (as ApplyEdits does), or all at once
	// against the original text as LSP clients do.
	Edits []Edit
	// Safe fixes change only layout (indentation, blanks at line ends, the
	// letter case of booleans); [Snapshot.FixAll] applies exactly these.
	Safe bool
}

// Fixes returns the quick fixes for the snapshot's diagnostics whose span
// overlaps span (an empty span at an offset touches the diagnostics around
// it), in diagnostic order.
func (s *Snapshot) Fixes(span token.Span) []Fix {
	a := s.Analysis()
	fx := newFixer(s)
	var out []Fix
	for _, d := range a.Diagnostics {
		if d.Span.End < span.Start || d.Span.Start > span.End {
			continue
		}
		out = append(out, fx.fixes(d)...)
	}
	return out
}

// FixAll returns the snapshot's text with every safe fix applied, and how
// many were applied.
func (s *Snapshot) FixAll() (string, int, error) {
	a := s.Analysis()
	fx := newFixer(s)
	var edits []Edit // safe fixes have one edit each
	for _, d := range a.Diagnostics {
		switch d.Code {
		case lint.CodeWhitespace, lint.CodeIndent, lint.CodeKeyword: // the only ones with safe fixes
		default:
			continue
		}
		for _, f := range fx.fixes(d) {
			if f.Safe && len(f.Edits) == 1 {
				edits = append(edits, f.Edits[0])
			}
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
	text, err := applyDisjoint(s.Text, kept)
	if err != nil {
		return s.Text, 0, err
	}
	return text, len(kept), nil
}

// applyDisjoint applies edits sorted last-first that do not overlap, in one
// pass (ApplyEdits copies the whole text once per edit).
func applyDisjoint(text string, edits []Edit) (string, error) {
	var b strings.Builder
	b.Grow(len(text))
	pos := 0
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		if e.Start < pos || e.End < e.Start || e.End > len(text) ||
			!runeBoundary(text, e.Start) || !runeBoundary(text, e.End) {
			return "", fmt.Errorf("fix edit [%d, %d) is out of order, outside the text or splits a character", e.Start, e.End)
		}
		b.WriteString(text[pos:e.Start])
		b.WriteString(e.Text)
		pos = e.End
	}
	b.WriteString(text[pos:])
	return b.String(), nil
}

type fixer struct {
	snap *Snapshot
	a    *Analysis
	src  string

	depths     []int // canonical indentation depth of each line, computed on first use
	indentSize int   // indent_size in force for the document (valid with depths)
}

func newFixer(s *Snapshot) *fixer {
	return &fixer{snap: s, a: s.Analysis(), src: s.Text}
}

func (fx *fixer) fixes(d diag.Diagnostic) []Fix {
	one := func(title string, safe bool, edits ...Edit) []Fix {
		return []Fix{{Title: title, Diagnostic: d, Edits: edits, Safe: safe}}
	}
	switch d.Code {
	case lint.CodeWhitespace:
		return one("Remove trailing whitespace", true, Edit{Start: d.Span.Start, End: d.Span.End})
	case lint.CodeIndent:
		return fx.indent(d, one)
	case lint.CodeKeyword:
		word := fx.src[d.Span.Start:d.Span.End]
		lower := strings.ToLower(word)
		boolean := lower == "yes" || lower == "no" || lower == "true" || lower == "false"
		return one("Write '"+word+"' as the keyword '"+lower+"'", boolean, Edit{Start: d.Span.Start, End: d.Span.End, Text: lower})
	case lint.CodeName:
		return fx.snakeCase(d)
	}
	if d.Category == diag.Semantic && (strings.HasSuffix(d.Message, "is not defined") || strings.HasPrefix(d.Message, "Undefined action '")) {
		return fx.undefined(d)
	}
	if d.Category == diag.Parse {
		return fx.closer(d)
	}
	return nil
}

// indent replaces a line's leading blanks with the canonical indentation.
func (fx *fixer) indent(d diag.Diagnostic, one func(string, bool, ...Edit) []Fix) []Fix {
	if fx.a.File == nil {
		return nil
	}
	if fx.depths == nil {
		fx.depths = format.LineDepths(fx.a.File, fx.src, fx.a.Lines)
		fx.indentSize = ConfigFor(fx.snap.URI).IndentSize
	}
	line := fx.a.Lines.Line(d.Span.Start)
	if line >= len(fx.depths) || fx.depths[line] == format.Verbatim {
		return nil
	}
	want := strings.Repeat(" ", fx.depths[line]*fx.indentSize)
	start, end := fx.a.Lines.LineStart(line), fx.a.Lines.LineEnd(line)
	ws := start + len(fx.src[start:end]) - len(strings.TrimLeft(fx.src[start:end], " \t\f"))
	return one("Indent the line with "+strconv.Itoa(len(want))+" spaces", true, Edit{Start: start, End: ws, Text: want})
}

// snakeCase renames a declared name and every reference to it.
func (fx *fixer) snakeCase(d diag.Diagnostic) []Fix {
	id := identAt(fx.a.File, d.Span)
	if id == nil {
		return nil
	}
	sym := fx.a.Info.ObjectOf(id)
	if sym == nil {
		return nil
	}
	newName := lint.SnakeCase(id.Name)
	if !validName(newName) || fx.declared(newName) {
		return nil
	}
	var edits []Edit
	for _, ref := range fx.a.Info.References(sym) {
		edits = append(edits, Edit{Start: ref.From, End: ref.To, Text: newName})
	}
	if len(edits) == 0 {
		return nil
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
	return []Fix{{Title: "Rename '" + id.Name + "' to '" + newName + "' everywhere", Diagnostic: d, Edits: edits}}
}

// validName reports whether name lexes as one identifier.
func validName(name string) bool {
	toks := lexer.Lex(name).Tokens
	return len(toks) == 1 && toks[0].Kind == token.Identifier && toks[0].Start == 0 && toks[0].End == len(name) && toks[0].Text == name
}

// declared reports whether any symbol of the file has this name.
func (fx *fixer) declared(name string) bool {
	for _, s := range fx.a.Info.Symbols {
		if s.Name == name {
			return true
		}
	}
	return fx.a.Info.Global != nil && fx.a.Info.Global.Lookup(name) != nil
}

// identAt returns the identifier whose extent is exactly span, or nil.
func identAt(f *ast.File, span token.Span) *ast.Ident {
	var found *ast.Ident
	if f == nil {
		return nil
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || found != nil || n.End() < span.Start || n.Pos() > span.End {
			return false
		}
		if id, ok := n.(*ast.Ident); ok && id.From == span.Start && id.To == span.End {
			found = id
			return false
		}
		return true
	})
	return found
}

// identNamed returns the first identifier called name inside span, or nil.
func identNamed(f *ast.File, span token.Span, name string) *ast.Ident {
	var found *ast.Ident
	if f == nil {
		return nil
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || found != nil || n.End() <= span.Start || n.Pos() >= span.End {
			return false
		}
		if id, ok := n.(*ast.Ident); ok && id.Name == name && id.From >= span.Start && id.To <= span.End {
			found = id
			return false
		}
		return true
	})
	return found
}

// undefined offers, for a name that is not defined, the visible names
// closest to it in spelling, and declaring it just before the statement
// that uses it.
func (fx *fixer) undefined(d diag.Diagnostic) []Fix {
	id := identAt(fx.a.File, d.Span)
	if id == nil {
		// "Undefined action 'x'" spans the whole call: find the name in it.
		if name, ok := quoted(d.Message, "'"); ok {
			id = identNamed(fx.a.File, d.Span, name)
		}
	}
	if id == nil {
		return nil
	}
	var out []Fix
	for _, name := range fx.closeNames(id) {
		out = append(out, Fix{
			Title:      "Change '" + id.Name + "' to '" + name + "'",
			Diagnostic: d,
			Edits:      []Edit{{Start: id.From, End: id.To, Text: name}},
		})
	}
	if strings.HasPrefix(d.Message, "Variable '") {
		if st := fx.enclosingStmt(id.From); st != nil {
			ls := fx.a.Lines.LineStart(fx.a.Lines.Line(st.Pos()))
			indent := fx.src[ls:st.Pos()]
			if strings.Trim(indent, " \t") == "" {
				out = append(out, Fix{
					Title:      "Declare '" + id.Name + "' before its use",
					Diagnostic: d,
					Edits:      []Edit{{Start: ls, End: ls, Text: indent + "store " + id.Name + " as nothing" + lineBreakOf(fx.src)}},
				})
			}
		}
	}
	return out
}

// closeNames returns up to three names visible at id, nearest in spelling
// first, within an edit distance of a third of the name's length (at least
// one, at most three).
func (fx *fixer) closeNames(id *ast.Ident) []string {
	limit := min(max(len(id.Name)/3, 1), 3)
	type cand struct {
		name string
		dist int
	}
	seen := map[string]bool{}
	var cands []cand
	for sc := fx.a.Info.ScopeAt(id.From); sc != nil; sc = sc.Parent {
		for name, sym := range sc.Symbols.All() {
			if seen[name] || name == id.Name {
				continue
			}
			seen[name] = true
			later := sym.Decl != (token.Span{}) && sym.Decl.Start > id.From
			if later && (sc != fx.a.Info.Global || sym.Kind == check.SymVariable || sym.Kind == check.SymConstant) {
				continue // declared after the use: WFL requires declaration before use
			}
			if dist := editDistance(strings.ToLower(name), strings.ToLower(id.Name)); dist <= limit {
				cands = append(cands, cand{name, dist})
			}
		}
	}
	for _, name := range builtins.Names() { // builtin functions are in no scope
		if seen[name] || name == id.Name {
			continue
		}
		seen[name] = true
		if dist := editDistance(strings.ToLower(name), strings.ToLower(id.Name)); dist <= limit {
			cands = append(cands, cand{name, dist})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		return cands[i].name < cands[j].name
	})
	var out []string
	for i := 0; i < len(cands) && i < 3; i++ {
		out = append(out, cands[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// enclosingStmt returns the innermost statement that holds offset and is
// directly in a statement list (the file or a block).
func (fx *fixer) enclosingStmt(offset int) ast.Stmt {
	var found ast.Stmt
	var visit func(list []ast.Stmt)
	visit = func(list []ast.Stmt) {
		for _, st := range list {
			if st.Pos() <= offset && offset < st.End() {
				found = st
				ast.Inspect(st, func(n ast.Node) bool {
					if n == nil || n.End() <= offset || n.Pos() > offset {
						return false
					}
					if b, ok := n.(*ast.Block); ok {
						visit(b.Stmts)
						return false
					}
					return true
				})
				return
			}
		}
	}
	if fx.a.File != nil {
		visit(fx.a.File.Stmts)
	}
	return found
}

func lineBreakOf(src string) string {
	if i := strings.IndexAny(src, "\r\n"); i >= 0 {
		if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			return "\r\n"
		}
		return src[i : i+1]
	}
	return "\n"
}

// closer repairs a missing or wrong block closer. At the end of the file it
// inserts the `end …` line the parser expected, indented like the statement
// it closes. Where another closer was written (`end for` while a `check if`
// is open) it offers both readings: replace the wrong word, or insert the
// expected closer before that line.
func (fx *fixer) closer(d diag.Diagnostic) []Fix {
	want, ok := quoted(d.Message, "expected '")
	if !ok {
		return nil
	}
	brk := lineBreakOf(fx.src)
	lines := fx.a.Lines
	switch {
	case strings.HasPrefix(want, "end") && strings.Contains(d.Message, "found end of file"):
		text := fx.indentOf(fx.openerLine(d, want, lines.Line(len(fx.src)))) + want + brk
		if n := len(fx.src); n > 0 && fx.src[n-1] != '\n' && fx.src[n-1] != '\r' {
			text = brk + text
		}
		return []Fix{{Title: "Insert '" + want + "'", Diagnostic: d, Edits: []Edit{{Start: len(fx.src), End: len(fx.src), Text: text}}}}
	case d.Span.End > d.Span.Start && !strings.Contains(want, " ") &&
		strings.HasSuffix(d.Message, "after 'end', found '"+fx.src[d.Span.Start:d.Span.End]+"'"):
		// expected 'check' after 'end', found 'for'
		closer := "end " + want
		line := lines.Line(d.Span.Start)
		ls := lines.LineStart(line)
		return []Fix{
			{Title: "Close the block with '" + closer + "'", Diagnostic: d,
				Edits: []Edit{{Start: d.Span.Start, End: d.Span.End, Text: want}}},
			{Title: "Insert '" + closer + "' before this line", Diagnostic: d,
				Edits: []Edit{{Start: ls, End: ls, Text: fx.indentOf(fx.openerLine(d, closer, line-1)) + closer + brk}}},
		}
	}
	return nil
}

// indentOf returns the leading blanks of a 0-based line ("" for -1).
func (fx *fixer) indentOf(line int) string {
	if line < 0 {
		return ""
	}
	ls, le := fx.a.Lines.LineStart(line), fx.a.Lines.LineEnd(line)
	return fx.src[ls : ls+len(fx.src[ls:le])-len(strings.TrimLeft(fx.src[ls:le], " \t"))]
}

// quoted returns the text between prefix and the next quote in msg.
func quoted(msg, prefix string) (string, bool) {
	i := strings.Index(msg, prefix)
	if i < 0 {
		return "", false
	}
	rest := msg[i+len(prefix):]
	j := strings.IndexByte(rest, '\'')
	if j < 0 {
		return "", false
	}
	return rest[:j], true
}

// openers maps the second word of a closer to the first word of the
// statements it closes.
var openers = map[string]string{
	"check": "check", "count": "count", "for": "for", "repeat": "repeat", "action": "define",
	"try": "try", "list": "create", "map": "create", "pattern": "create", "describe": "describe",
	"test": "test", "setup": "setup", "teardown": "teardown", "route": "route", "loop": "main",
	"if": "if", "on": "on", "transaction": "in", "": "create",
}

// openerLine returns the 0-based line of the statement a missing closer
// should close: the diagnostic's own line when it points there, else the
// last line at or above from starting with the opener's word that is not
// closed further down. It returns -1 when there is none.
func (fx *fixer) openerLine(d diag.Diagnostic, closer string, from int) int {
	second := strings.TrimSpace(strings.TrimPrefix(closer, "end"))
	opener, ok := openers[second]
	if !ok {
		return -1
	}
	lines := fx.a.Lines
	if d.Span.Start < len(strings.TrimRight(fx.src, " \t\r\n")) {
		if l := lines.Line(d.Span.Start); firstWord(fx.src[lines.LineStart(l):lines.LineEnd(l)]) == opener {
			return l
		}
	}
	open := 0
	for l := from; l >= 0; l-- {
		text := strings.TrimSpace(fx.src[lines.LineStart(l):lines.LineEnd(l)])
		switch {
		case text == closer || strings.HasPrefix(text, closer+" "):
			open++
		case firstWord(text) == opener:
			if open == 0 {
				return l
			}
			open--
		}
	}
	return -1
}

func firstWord(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	return strings.TrimSuffix(f[0], ":")
}
