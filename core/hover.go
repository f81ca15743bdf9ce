package core

// This file answers hover: what the word under the cursor is. For a name,
// what it denotes (variable, constant, parameter, action, container,
// property, method, event, pattern, builtin, predeclared or implicit name),
// its type where known, where it is declared and its doc comment; for a
// builtin, its signatures and description; for a keyword, what it does.

import (
	"fmt"
	"sort"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
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
	return strings.TrimRight(b.String(), "\n")
}

// PlainText renders the hover without markup.
func (h *HoverInfo) PlainText() string {
	var b strings.Builder
	for _, s := range h.Signature {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	h.writeTail(&b)
	return strings.TrimRight(b.String(), "\n")
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
func (a *Analysis) Hover(offset int) *HoverInfo {
	if r, ok := a.IdentAt(offset); ok {
		if h := a.hoverIdent(r); h != nil {
			return h
		}
	} else if r, ok := a.brokenIdentAt(offset); ok {
		return a.hoverIdent(r)
	}
	return a.hoverKeyword(offset)
}

func (a *Analysis) hoverIdent(r IdentRef) *HoverInfo {
	id, sym := r.Ident, r.Sym
	h := &HoverInfo{Span: token.Span{Start: id.Pos(), End: id.End()}, Name: id.Name}
	if sym == nil {
		if b := builtins.Lookup(id.Name); b != nil {
			return hoverBuiltin(h, b)
		}
		return nil
	}
	h.Kind = sym.Kind.String()
	h.Doc = sym.Doc
	if sym.Decl.End > sym.Decl.Start && sym.From == "" && a.Lines != nil {
		h.DeclLine = a.Lines.Line(sym.Decl.Start) + 1
	}
	typ := sym.Type
	if a.Info != nil {
		if t := a.Info.TypeOf(id); known(t) {
			typ = t // the type at this use, which flow typing may have narrowed
		}
	}
	switch sym.Kind {
	case check.SymBuiltin:
		if sym.Builtin != nil {
			return hoverBuiltin(h, sym.Builtin)
		}
	case check.SymAction, check.SymMethod:
		versions := sym.Versions()
		for _, d := range versions {
			h.Signature = append(h.Signature, actionSignature(sym, d))
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
		if sym.Extends != "" {
			line += " extends " + sym.Extends
		}
		h.Signature = []string{line}
		names := make([]string, 0, len(sym.Members))
		for n, m := range sym.Members {
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
	line := h.Kind + " " + sym.Name
	if known(typ) {
		line += ": " + typ.String()
	}
	if sym.Parent != nil {
		line += "  (of " + sym.Parent.Kind.String() + " " + sym.Parent.Name + ")"
	}
	h.Signature = []string{line}
	return h
}

func known(t *types.Type) bool {
	return t != nil && t.Kind != types.KUnknown && t.Kind != types.KInvalid
}

// actionSignature writes an action's header the way it is declared.
func actionSignature(sym *check.Symbol, d *ast.ActionDecl) string {
	label, _ := actionSignatureSpans(sym, d)
	return label
}

// actionSignatureSpans is actionSignature with the byte offsets in it of
// each parameter that has a name (`NAME` or `NAME as TYPE`), in order.
func actionSignatureSpans(sym *check.Symbol, d *ast.ActionDecl) (string, [][2]int) {
	var b strings.Builder
	var spans [][2]int
	if sym.Kind == check.SymMethod {
		if d.Static {
			b.WriteString("static ")
		}
		b.WriteString("action " + sym.Name)
		if sym.Parent != nil {
			b.WriteString(" of " + sym.Parent.Name)
		}
	} else {
		b.WriteString("action " + sym.Name)
	}
	for i, p := range d.Params {
		if i == 0 {
			b.WriteString(" with ")
		} else {
			b.WriteString(" and ")
		}
		start := b.Len()
		if p.Name != nil {
			b.WriteString(p.Name.Name)
		}
		if p.Type != nil {
			b.WriteString(" as " + typeExprString(p.Type))
		}
		if p.Name != nil {
			spans = append(spans, [2]int{start, b.Len()})
		}
	}
	if d.ReturnType != nil {
		b.WriteString(" -> " + typeExprString(d.ReturnType))
	}
	return b.String(), spans
}

func typeExprString(t *ast.TypeExpr) string {
	if t == nil {
		return ""
	}
	switch {
	case t.Name == "map" && len(t.Args) == 2:
		return "map of " + typeExprString(t.Args[0]) + " to " + typeExprString(t.Args[1])
	case len(t.Args) == 1:
		return t.Name + " of " + typeExprString(t.Args[0])
	}
	return t.Name
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

// hoverKeyword describes the keyword token at offset.
func (a *Analysis) hoverKeyword(offset int) *HoverInfo {
	if a.Lines == nil {
		return nil
	}
	toks := indexOf(a).tokens(a.Lines.Text(), a.part).Tokens
	i := sort.Search(len(toks), func(i int) bool { return toks[i].End >= offset })
	for ; i < len(toks) && toks[i].Start <= offset; i++ {
		t := toks[i]
		if !t.Kind.IsKeyword() {
			continue
		}
		doc, ok := keywordDocs()[t.Kind.Spelling()]
		if !ok {
			continue
		}
		return &HoverInfo{Span: t.Span(), Kind: "keyword", Name: t.Kind.Spelling(),
			Signature: []string{doc[0]}, Doc: doc[1]}
	}
	return nil
}
