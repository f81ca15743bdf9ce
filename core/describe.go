package core

// This file spells what the analysis knows of a symbol the way every
// feature shows it: completion's details, hover, signature help, inlay
// hints, the outline and the call hierarchy write an action's header and a
// type as it is declared.

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// Known reports whether t is a type the checker found (not unknown, not
// invalid): what every feature shows of a type, or leaves out.
func Known(t *types.Type) bool {
	return t != nil && t.Kind != types.KUnknown && t.Kind != types.KInvalid
}

// ActionSignature writes an action's header the way it is declared.
func ActionSignature(sym *check.Symbol, d *ast.ActionDecl) string {
	label, _ := ActionSignatureSpans(sym, d)
	return label
}

// ActionSignatureSpans is ActionSignature with the byte offsets in it of
// each parameter that has a name (`NAME` or `NAME as TYPE`), in order.
func ActionSignatureSpans(sym *check.Symbol, d *ast.ActionDecl) (string, [][2]int) {
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
			b.WriteString(" as " + TypeExprString(p.Type))
		}
		if p.Name != nil {
			spans = append(spans, [2]int{start, b.Len()})
		}
	}
	if d.ReturnType != nil {
		b.WriteString(" -> " + TypeExprString(d.ReturnType))
	}
	return b.String(), spans
}

// TypeExprString spells a type as it is written: `list of text`, `map of
// text to number`.
func TypeExprString(t *ast.TypeExpr) string {
	if t == nil {
		return ""
	}
	switch {
	case t.Name == "map" && len(t.Args) == 2:
		return "map of " + TypeExprString(t.Args[0]) + " to " + TypeExprString(t.Args[1])
	case len(t.Args) == 1:
		return t.Name + " of " + TypeExprString(t.Args[0])
	}
	return t.Name
}

// NodeSpan returns the span of the text n was parsed from.
func NodeSpan(n ast.Node) token.Span { return token.Span{Start: n.Pos(), End: n.End()} }

// DeclSpans returns where sym is declared in its analysis' document: the
// declaration, or the name of each version of an overloaded action; none
// for a symbol an included file declares.
func DeclSpans(sym *check.Symbol) []token.Span {
	if sym.From() != "" {
		return nil
	}
	var out []token.Span
	if vs := sym.Versions(); len(vs) > 1 {
		for _, d := range vs {
			if d.Name != nil {
				out = append(out, token.Span{Start: d.Name.Pos(), End: d.Name.End()})
			}
		}
		return out
	}
	if sym.Decl.End > sym.Decl.Start {
		out = append(out, sym.Decl)
	}
	return out
}
