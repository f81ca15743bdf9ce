package core

// This file lists the names a scope holds for the features that offer or
// compare names (completion, the fixes of misspelt names): a partial
// analysis's file scope holds no names of its own but reaches the base's
// (query_partial.go), which are listed as they are, with how far their
// declarations moved.

import (
	"iter"

	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// A Scoped is a symbol a scope holds, and how far its declaration moved:
// a partial analysis's outer names are the base's symbols (see query.go),
// listed as they are rather than copied with their declaration moved.
type Scoped struct {
	Sym *check.Symbol
	by  int // bytes the declaration moved since the symbol was made
}

// Decl returns where the symbol is declared in the text (zero for a name
// with no declaration of its own there).
func (s Scoped) Decl() token.Span {
	d := s.Sym.Decl
	if d.End > 0 {
		d.Start += s.by
		d.End += s.by
	}
	return d
}

// Bound returns where the statement that binds the symbol starts in the
// text, for a name with no declaration of its own that a statement binds
// (the fields of a request `wait for request … as R` binds besides R), or
// -1 for another.
func (s Scoped) Bound() int {
	if s.Sym.Decl.End > 0 || s.Sym.Kind != check.SymImplicit || s.Sym.Node == nil || s.Sym.From() != "" {
		return -1
	}
	return s.Sym.Node.Pos() + s.by
}

// ScopeNames yields the names of a scope that keep accepts, in the order
// they resolve: declared, then bound, each followed by what its Outer holds
// (a partial analysis's file scope, see query.go). Given prefixes (lower
// case), keep accepts only names that start with one of them, ignoring
// case: the Outer's thousands of names are then not all visited.
func (a *Analysis) ScopeNames(sc *check.Scope, keep func(string, *check.Symbol) bool, prefixes ...string) iter.Seq2[string, Scoped] {
	return func(yield func(string, Scoped) bool) {
		for _, bound := range []bool{false, true} {
			for n, s := range a.TableNames(sc, bound, keep, prefixes...) {
				if !yield(n, s) {
					return
				}
			}
		}
	}
}

// TableNames is ScopeNames for one of the scope's tables: the names it
// declares (bound false) or those bound in it, then what its Outer holds
// of the same.
func (a *Analysis) TableNames(sc *check.Scope, bound bool, keep func(string, *check.Symbol) bool, prefixes ...string) iter.Seq2[string, Scoped] {
	return func(yield func(string, Scoped) bool) {
		table := &sc.Symbols
		if bound {
			table = sc.Injected()
		}
		for n, sym := range table.All() {
			if keep(n, sym) && !yield(n, Scoped{Sym: sym}) {
				return
			}
		}
		if sc.Outer() == nil || a.part == nil {
			return
		}
		for n, s := range a.part.q.outer(bound, keep, prefixes) {
			if !yield(n, s) {
				return
			}
		}
	}
}
