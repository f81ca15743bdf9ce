package navigation

// This file answers hover: what the word under the cursor is. For a name,
// what it denotes (variable, constant, parameter, action, container,
// property, method, event, pattern, builtin, predeclared or implicit name),
// its type where known, where it is declared and its doc comment; for a
// builtin, its signatures and description; for a keyword, what it does.

import (
	"fmt"
	"sort"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// HoverInfo describes the word at a position.
type HoverInfo struct {
	Span      token.Span // the word
	Kind      string     // "variable", "action", "builtin", "keyword", …
	Name      string
	Signature []string // WFL-like lines shown as code: "variable first name: Text", a builtin's overloads, …
	Doc       string   // the doc comment or description, plain text
	DeclLine  int      // 1-based line of the declaration in the same document, or 0
}

// Markdown renders the hover for clients that display markdown.
func (h *HoverInfo) Markdown() string {
	var b strings.Builder
	if len(h.Signature) > 0 {
		b.WriteString("```wfl\n")
		b.WriteString(strings.Join(h.Signature, "\n"))
		b.WriteString("\n```\n")
	}
	h.writeTail(&b)
	return strings.Trim(b.String(), "\n")
}

// PlainText renders the hover without markup.
func (h *HoverInfo) PlainText() string {
	var b strings.Builder
	for _, s := range h.Signature {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	h.writeTail(&b)
	return strings.Trim(b.String(), "\n")
}

func (h *HoverInfo) writeTail(b *strings.Builder) {
	if h.Doc != "" {
		b.WriteByte('\n')
		b.WriteString(h.Doc)
		b.WriteByte('\n')
	}
	if h.DeclLine > 0 {
		fmt.Fprintf(b, "\nDeclared on line %d.\n", h.DeclLine)
	}
}

// Hover returns what is at offset, or nil when there is nothing to say.
func Hover(a *core.Analysis, offset int) *HoverInfo {
	if r, ok := a.IdentAt(offset); ok {
		if h := hoverIdent(a, r); h != nil {
			return h
		}
		if r.Sym == nil {
			return undeclared(r.Ident.Name, token.Span{Start: r.Ident.Pos(), End: r.Ident.End()})
		}
	} else if r, ok := brokenIdentAt(a, offset); ok {
		return hoverIdent(a, r)
	}
	return hoverKeyword(a, offset)
}

// undeclared describes a name nothing declares.
func undeclared(name string, sp token.Span) *HoverInfo {
	h := &HoverInfo{Span: sp, Kind: "name", Name: name, Signature: []string{"name " + name}, Doc: "Nothing declares this name here."}
	if strings.Contains(name, " ") {
		h.Doc += " WFL reads the words `" + name + "` as one name, as it does any words that are not its keywords."
	}
	return h
}

func hoverIdent(a *core.Analysis, r core.IdentRef) *HoverInfo {
	id, sym := r.Ident, r.Sym
	h := &HoverInfo{Span: token.Span{Start: id.Pos(), End: id.End()}, Name: id.Name}
	if sym == nil {
		if b := builtins.Lookup(id.Name); b != nil {
			return hoverBuiltin(h, b)
		}
		return nil
	}
	h.Kind = sym.Kind.String()
	h.Doc = sym.Doc()
	if sym.Decl.End > sym.Decl.Start && sym.From() == "" && a.Lines != nil {
		h.DeclLine = a.Lines.Line(sym.Decl.Start) + 1
	}
	typ := sym.Type
	if a.Info != nil {
		if t := a.Info.TypeOf(id); core.Known(t) {
			typ = t // the type at this use, which flow typing may have narrowed
		}
	}
	switch sym.Kind {
	case check.SymBuiltin:
		if sym.Builtin() != nil {
			return hoverBuiltin(h, sym.Builtin())
		}
	case check.SymAction, check.SymMethod:
		versions := sym.Versions()
		for _, d := range versions {
			h.Signature = append(h.Signature, core.ActionSignature(sym, d))
		}
		if len(h.Signature) == 0 {
			h.Signature = []string{h.Kind + " " + sym.Name}
		}
		if h.Doc == "" && len(versions) > 0 {
			h.Doc = versions[0].Doc.Text()
		}
		if n := len(sym.Nested()); n > 0 {
			which := "The last version is defined in a nested block"
			if n > 1 {
				which = fmt.Sprintf("The last %d versions are defined in nested blocks", n)
			}
			h.Doc = strings.TrimSpace(h.Doc + "\n\n" + which + ": a call reaches them when the program runs, but is checked against the others only.")
		}
		if len(versions) > 1 {
			h.DeclLine = 0 // several: the signatures say enough
		}
		return h
	case check.SymType:
		h.Signature = []string{"type " + sym.Name}
		h.Doc = "A type WFL defines."
		return h
	case check.SymSignal:
		h.Signature = []string{"signal " + sym.Name}
		h.Doc = "A signal `register signal handler for` can handle."
		return h
	case check.SymField:
		h.Signature = []string{"field " + sym.Name}
		switch {
		case sym.Parent != nil && sym.Parent.Kind == check.SymBuiltin:
			h.Kind = "parameter"
			h.Signature = []string{"parameter " + sym.Name + " (of builtin " + sym.Parent.Name + ")"}
		case sym.Parent != nil:
			h.Signature[0] += "  (key of " + sym.Parent.Name + ")"
		default:
			h.Doc = "A member of a value whose type is only known when the program runs."
		}
		return h
	case check.SymCapture:
		line := "capture " + sym.Name
		if sym.Parent != nil {
			line += "  (of pattern " + sym.Parent.Name + ")"
		}
		h.Signature = []string{line}
		return h
	case check.SymContainer:
		line := "container " + sym.Name
		if sym.Extends() != "" {
			line += " extends " + sym.Extends()
		}
		h.Signature = []string{line}
		names := make([]string, 0, len(sym.Members()))
		for n, m := range sym.Members() {
			names = append(names, m.Kind.String()+" "+n)
		}
		sort.Strings(names)
		for _, n := range names {
			h.Signature = append(h.Signature, "    "+n)
		}
		return h
	case check.SymInterface, check.SymEvent, check.SymPattern:
		h.Signature = []string{h.Kind + " " + sym.Name}
		return h
	}
	if _, ok := sym.Node.(*ast.ListenStmt); ok && sym.Kind == check.SymVariable {
		h.Kind = "server"
		h.Signature = []string{"server " + sym.Name}
		h.Doc = strings.TrimSpace("A web server listening on its port, made by `listen on port … as " + sym.Name + "`; `wait for request comes in on " + sym.Name + "` waits for its requests. WFL's type checker types it as Text.\n\n" + h.Doc)
		return h
	}
	line := h.Kind + " " + sym.Name
	if core.Known(typ) {
		line += ": " + typ.String()
	}
	if sym.Parent != nil {
		line += "  (of " + sym.Parent.Kind.String() + " " + sym.Parent.Name + ")"
	}
	h.Signature = []string{line}
	return h
}

func hoverBuiltin(h *HoverInfo, b *builtins.Builtin) *HoverInfo {
	h.Kind = "builtin"
	h.Name = b.Name
	if len(b.Signatures) == 0 {
		h.Signature = []string{b.Label(0)}
	}
	for i := range b.Signatures {
		h.Signature = append(h.Signature, b.Label(i))
	}
	h.Doc = b.Doc
	if b.Module != "" {
		h.Doc = strings.TrimSpace(h.Doc + "\n\nModule: " + b.Module + ".")
	}
	if !b.Implemented {
		h.Doc = strings.TrimSpace(h.Doc + "\n\nReserved: the WFL runtime does not implement it.")
	}
	return h
}

// hoverKeyword describes the word at offset that names nothing: a keyword
// (by its own doc, as a type name after `as` or `:`, as an operator, or
// by the statement it is part of), `yes`, `no`, `nothing`, a phrase that
// gives a value, or a word of a statement's syntax (by the statement).
func hoverKeyword(a *core.Analysis, offset int) *HoverInfo {
	if a.Lines == nil {
		return nil
	}
	toks := a.Tokens()
	i := sort.Search(len(toks), func(i int) bool { return toks[i].End >= offset })
	for ; i < len(toks) && toks[i].Start <= offset; i++ {
		t := toks[i]
		if h := hoverWord(a, toks, i); h != nil {
			return h
		}
		_ = t
	}
	return nil
}

// hoverWord describes toks[i], a word that names nothing, or returns nil
// for punctuation and for texts and numbers, which say what they are.
func hoverWord(a *core.Analysis, toks []token.Token, i int) *HoverInfo {
	t := toks[i]
	text := a.Lines.Text()
	word := text[t.Start:t.End]
	h := &HoverInfo{Span: t.Span(), Kind: "keyword", Name: word}
	switch t.Kind {
	case token.StringLiteral, token.IntLiteral, token.FloatLiteral:
		return nil // a text or number says what it is
	case token.BooleanLiteral:
		h.Kind = "literal"
		h.Signature = []string{word + ": Boolean"}
		if t.Text == "true" {
			h.Doc = "The truth value yes (also written `true`)."
		} else {
			h.Doc = "The truth value no (also written `false`)."
		}
		return h
	case token.NothingLiteral:
		h.Kind = "literal"
		h.Signature = []string{word + ": Nothing"}
		h.Doc = "No value: what a missing entry, a failed lookup or an action without a result gives. `nothing`, `missing` and `undefined` are the same value."
		return h
	}
	if !t.Kind.IsKeyword() && t.Kind != token.Identifier {
		return nil
	}
	spelling := word
	if t.Kind.IsKeyword() {
		spelling = t.Kind.Spelling()
	}
	if i > 0 && (toks[i-1].Kind == token.KeywordAs || toks[i-1].Kind == token.Colon) {
		if doc, ok := typeWordDocs[strings.ToLower(spelling)]; ok {
			h.Kind, h.Signature, h.Doc = "type", []string{"type " + doc[0]}, doc[1]
			return h
		}
	}
	// A word of a phrase that gives a value (`current time in
	// milliseconds`, `file exists at`).
	for j := i; j >= 0 && j >= i-4 && a.Lines.Line(toks[j].Start) == a.Lines.Line(t.Start); j-- {
		for _, p := range valuePhrases {
			if strings.HasPrefix(text[toks[j].Start:], p[0]) && toks[j].Start+len(p[0]) >= t.End {
				h.Name, h.Signature, h.Doc = p[0], []string{p[1]}, p[2]
				return h
			}
		}
	}
	if t.Kind.IsKeyword() {
		if doc, ok := completion.KeywordDocs()[spelling]; ok {
			h.Signature, h.Doc = []string{doc[0]}, doc[1]
			return h
		}
		if doc, ok := operatorDocs[spelling]; ok {
			h.Signature, h.Doc = []string{doc[0]}, doc[1]
			return h
		}
	}
	// A word of a statement's syntax: the statement says what it does.
	l := a.Lines.Line(t.Start)
	for j := i - 1; j >= 0 && a.Lines.Line(toks[j].Start) == l; j-- {
		if toks[j].Kind.IsKeyword() && (j == 0 || a.Lines.Line(toks[j-1].Start) < l) {
			if doc, ok := completion.KeywordDocs()[toks[j].Kind.Spelling()]; ok {
				h.Signature = []string{doc[0]}
				h.Doc = "`" + spelling + "` is part of this statement. " + doc[1]
				return h
			}
		}
	}
	if t.Kind.IsKeyword() {
		h.Signature = []string{spelling}
		h.Doc = "A word of WFL's syntax."
		return h
	}
	for _, it := range completion.PatternWords() {
		if it.Label == spelling {
			h.Kind, h.Signature, h.Doc = "pattern element", []string{it.Detail}, it.Doc
			return h
		}
	}
	return undeclared(spelling, t.Span())
}

// valuePhrases are the phrases that give a value: the phrase, its form
// and type, what it gives.
var valuePhrases = [][3]string{
	{"current time in milliseconds", "current time in milliseconds: Number", "The milliseconds since 1 January 1970 (UTC), now."},
	{"current time formatted as", "current time formatted as FORMAT: Text", "The time now, written in the format given (`\"%H:%M\"`)."},
	{"file exists at", "file exists at PATH: Boolean", "Yes when a file is at the path."},
	{"directory exists at", "directory exists at PATH: Boolean", "Yes when a directory is at the path."},
	{"read content from", "read content from FILE: Text", "The content of an open file."},
	{"list files in", "list files in DIRECTORY: List of Text", "The names of the files in a directory."},
}

// typeWordDocs are the type names, in any case, with what they hold.
var typeWordDocs = map[string][2]string{
	"text":    {"Text", "Text: a sequence of characters."},
	"number":  {"Number", "A number, whole or with a fraction."},
	"boolean": {"Boolean", "A truth value: yes or no."},
	"list":    {"List", "A list of values, in order."},
	"map":     {"Map", "A map from keys to values."},
	"any":     {"Any", "A value of any type: not checked."},
	"date":    {"Date", "A calendar date."},
	"time":    {"Time", "A time of day."},
	"pattern": {"Pattern", "A pattern, made by `create pattern`, that texts are matched against."},
	"nothing": {"Nothing", "No value."},
}

// operatorDocs are the words of expressions: operators and comparisons.
var operatorDocs = map[string][2]string{
	"plus":       {"A plus B", "Adds two numbers; with a text, joins them."},
	"minus":      {"A minus B", "Subtracts B from A."},
	"times":      {"A times B", "Multiplies two numbers."},
	"divided by": {"A divided by B", "Divides A by B."},
	"modulo":     {"A modulo B", "The remainder of A divided by B."},
	"is":         {"A is B | A is not B | A is greater than B | …", "Compares two values."},
	"not":        {"not A | A is not B", "The opposite truth value."},
	"and":        {"A and B", "Yes when both are yes; also joins a call's arguments."},
	"or":         {"A or B", "Yes when either is yes."},
	"greater":    {"A is greater than [or equal to] B", "Compares two numbers."},
	"less":       {"A is less than [or equal to] B", "Compares two numbers."},
	"than":       {"A is greater than B | A is less than B", "Compares two numbers."},
	"equal":      {"A is [not] equal to B", "Compares two values."},
	"above":      {"A is above B", "A is greater than B."},
	"below":      {"A is below B", "A is less than B."},
	"between":    {"A is between LOW and HIGH", "Yes when A is at least LOW and at most HIGH."},
	"with":       {"A with B", "Joins values into a text (`display \"n = \" with n`); also passes a call's arguments."},
	"of":         {"ACTION of ARGUMENTS", "Calls an action or builtin with its arguments: `length of names`."},
	"contains":   {"A contains B", "Yes when the text or list A contains B."},
	"matches":    {"TEXT matches PATTERN", "Yes when the text matches the pattern."},
	"to":         {"… to …", "Links a statement's parts: `change x to 5`, `add 1 to total`, `count from 1 to 10`."},
}

// BuiltinDoc returns the description of a builtin, for completion items
// resolved lazily.
func BuiltinDoc(name string) (string, bool) {
	b := builtins.Lookup(name)
	if b == nil {
		return "", false
	}
	h := hoverBuiltin(&HoverInfo{}, b)
	return strings.Join(h.Signature, "\n") + "\n\n" + h.Doc, true
}
