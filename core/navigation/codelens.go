package navigation

// This file answers code lens: the declarations that show how often they
// are referred to (actions, containers, interfaces, the actions of
// containers), and the count itself, computed when a lens is shown.

import (
	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// A Lens is the name of a declaration that shows its reference count.
type Lens struct {
	Span token.Span // the declared name
	Kind check.SymbolKind
}

// ReferenceCount returns how many places refer to the name declared at
// offset, its declarations left out: in the document, and, for a name
// shared through `include from`, in every file of f that includes the
// document (see ReferencesAcross). It returns false when there is no
// declared name at offset.
func ReferenceCount(a *core.Analysis, offset int, f Files) (int, bool) {
	_, sym := a.SymbolAt(offset)
	if sym == nil {
		return 0, false
	}
	if f.Load != nil && f.IncludesOf != nil {
		if refs, ok := ReferencesAcross(a, offset, f.Base, f.Candidates, f.IncludesOf, f.Load); ok {
			n := 0
			for _, r := range refs {
				if !r.Decl {
					n++
				}
			}
			return n, true
		}
	}
	return len(References(a, offset, false)), true
}

// CodeLenses returns the names the text declares that get a lens, in
// source order: every definition of an action (each version of an
// overloaded one), every container and interface, and every action of a
// container. They are read from the tree alone: each such declaration
// defines a symbol of its kind (TestLensesAreDeclarations checks it over
// the corpus, the mutants and random edits of them), and after an edit the
// editor gets its lenses without a full analysis.
func CodeLenses(x *core.Syntax) []Lens {
	var out []Lens
	add := func(id *ast.Ident, kind check.SymbolKind) {
		if id != nil && id.Name != "" {
			out = append(out, Lens{Span: core.NodeSpan(id), Kind: kind})
		}
	}
	ast.Inspect(x.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ActionDecl:
			if n.Method {
				add(n.Name, check.SymMethod)
			} else {
				add(n.Name, check.SymAction)
			}
		case *ast.ContainerDecl:
			add(n.Name, check.SymContainer)
		case *ast.InterfaceDecl:
			add(n.Name, check.SymInterface)
		}
		return true
	})
	return out
}
