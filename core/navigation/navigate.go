package navigation

// This file answers the navigation queries: where a name is declared
// (definition), every place it is declared or used (references), and the
// same places within the document marked as reads and writes (highlight).
// All answers are byte spans in the analysed text.

import (
	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// Definition returns the declarations of the name at offset: one span for
// most names, one per definition for an overloaded action. Names the file
// does not declare (builtins, predeclared and implicit names) have none.
func Definition(a *core.Analysis, offset int) []token.Span {
	_, sym := a.SymbolAt(offset)
	if sym == nil {
		r, _ := brokenIdentAt(a, offset) // a name in a line being typed
		sym = r.Sym
	}
	if sym == nil {
		return nil
	}
	return core.DeclSpans(sym)
}

// A Reference is one place a symbol is named.
type Reference struct {
	Span  token.Span
	Decl  bool // the place declares the symbol
	Write bool // the place declares or assigns it
}

// References returns every place that names the same symbol as the name at
// offset, in source order; the declarations only if includeDecl.
func References(a *core.Analysis, offset int, includeDecl bool) []Reference {
	_, sym := a.SymbolAt(offset)
	if sym == nil {
		return nil
	}
	return referencesOf(a, includeDecl, sym)
}

// referencesOf returns every place that names one of syms, in source order.
func referencesOf(a *core.Analysis, includeDecl bool, syms ...*check.Symbol) []Reference {
	writes := a.Writes()
	var out []Reference
	for r := range a.IdentsOf(syms...) {
		if r.Def && !includeDecl {
			continue
		}
		out = append(out, Reference{
			Span:  token.Span{Start: r.Ident.Pos(), End: r.Ident.End()},
			Decl:  r.Def,
			Write: r.Def || writes[r.Ident],
		})
	}
	return out
}

// Highlights returns the places in the document that name the same symbol
// as the name at offset, declarations included, each marked read or write.
func Highlights(a *core.Analysis, offset int) []Reference { return References(a, offset, true) }

// brokenIdentAt returns, for an offset in a statement the parser could not
// read (a line being typed), the name there that resolves where the
// statement stands: the longest run of words around the offset, separated
// by single spaces, that names a symbol of the scope there or a builtin.
// The tree has no identifier there; hover and definition still answer.
func brokenIdentAt(a *core.Analysis, offset int) (core.IdentRef, bool) {
	if a.Info == nil || a.Lines == nil || !a.InBadStatement(offset) {
		return core.IdentRef{}, false
	}
	l := a.Lines.Line(offset)
	toks := a.LineTokens(a.Lines.LineStart(l), a.Lines.LineEnd(l))
	at := -1
	for i, t := range toks {
		if t.Kind == token.Identifier && t.Start <= offset && offset <= t.End {
			at = i
			break
		}
	}
	if at < 0 {
		return core.IdentRef{}, false
	}
	// The run of words around it, each one space after the one before.
	first, last := at, at
	for first > 0 && toks[first-1].Kind == token.Identifier && toks[first-1].End+1 == toks[first].Start {
		first--
	}
	for last+1 < len(toks) && toks[last+1].Kind == token.Identifier && toks[last].End+1 == toks[last+1].Start {
		last++
	}
	text := a.Lines.Text()
	scope := a.Info.ScopeAt(offset)
	for n := last - first + 1; n >= 1; n-- {
		for i := max(first, at-n+1); i <= at && i+n-1 <= last; i++ {
			from, to := toks[i].Start, toks[i+n-1].End
			name := text[from:to]
			id := &ast.Ident{Range: ast.Range{From: from, To: to}, Name: name}
			if sym := scope.Resolve(name); sym != nil {
				return core.IdentRef{Ident: id, Sym: sym}, true
			}
			if n == 1 && builtins.Lookup(name) != nil {
				return core.IdentRef{Ident: id}, true
			}
		}
	}
	return core.IdentRef{}, false
}
