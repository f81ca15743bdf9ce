package core

// This file answers code lens: the declarations that show how often they
// are referred to (actions, containers, interfaces, the actions of
// containers), and the count itself, computed when a lens is shown.

import (
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// A Lens is the name of a declaration that shows its reference count.
type Lens struct {
	Span token.Span // the declared name
	Kind check.SymbolKind
}

// CodeLenses returns the names the document declares that get a lens, in
// source order: every definition of an action (each version of an
// overloaded one), every container and interface, and every action of a
// container.
func (a *Analysis) CodeLenses() []Lens {
	var out []Lens
	for _, r := range a.Idents() {
		if !r.Def || r.Sym == nil || r.Sym.From != "" {
			continue
		}
		switch r.Sym.Kind {
		case check.SymAction, check.SymContainer, check.SymInterface:
		case check.SymMethod:
			if r.Sym.Parent == nil || r.Sym.Parent.Kind != check.SymContainer {
				continue
			}
		default:
			continue
		}
		out = append(out, Lens{Span: nodeSpan(r.Ident), Kind: r.Sym.Kind})
	}
	return out
}

// ReferenceCount returns how many places refer to the name declared at
// offset, its declarations left out: in the document, and, for a name
// shared through `include from`, in every file of f that includes the
// document (see ReferencesAcross). It returns false when there is no
// declared name at offset.
func (a *Analysis) ReferenceCount(offset int, f Files) (int, bool) {
	_, sym := a.SymbolAt(offset)
	if sym == nil {
		return 0, false
	}
	if f.Load != nil && f.IncludesOf != nil {
		if refs, ok := a.ReferencesAcross(offset, f.Base, f.Candidates, f.IncludesOf, f.Load); ok {
			n := 0
			for _, r := range refs {
				if !r.Decl {
					n++
				}
			}
			return n, true
		}
	}
	return len(a.References(offset, false)), true
}
