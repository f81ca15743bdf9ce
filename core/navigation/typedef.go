package navigation

// This file answers go to type definition (the container or interface that
// is the type of the value a name holds) and go to implementation (the
// containers that implement an interface or extend a container, the
// definitions of an action, the methods that override or implement a
// container's or an interface's action), across the family of files of
// Files.

import (
	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/types"
)

// TypeDefinition returns the declaration of the container or interface
// that is the type of the name at offset: of a variable, constant,
// parameter or property, the one its value is an instance of (through
// lists, maps and optional values: their elements'); of an action, its
// return type's; of a container or interface name, itself. It returns nil
// when the type is not a container or interface of the program.
func TypeDefinition(a *core.Analysis, offset int, f Files) []FileSpan {
	id, sym := a.SymbolAt(offset)
	if id == nil || sym == nil || a.Info == nil {
		return nil
	}
	var target *check.Symbol
	switch sym.Kind {
	case check.SymContainer, check.SymInterface:
		target = sym
	case check.SymAction, check.SymMethod:
		for _, d := range sym.Versions() {
			if d.ReturnType != nil {
				if target = typeExprTarget(a, d.ReturnType); target != nil {
					break
				}
			}
		}
	default:
		t := a.Info.TypeOf(id) // the type here, flow-sensitive
		if namedType(t) == "" {
			t = sym.Type
		}
		if name := namedType(t); name != "" {
			target = resolveType(a, id, name)
		}
	}
	if target == nil {
		return nil
	}
	return declarationOf(a, target, f)
}

// namedType returns the name of the container, interface or other named
// type t is, or holds: the elements of lists, maps and optional values,
// the result of a function. "" when there is none.
func namedType(t *types.Type) string {
	for depth := 0; t != nil && depth < 8; depth++ {
		switch t.Kind {
		case types.KInstance, types.KContainer, types.KInterface, types.KCustom:
			return t.Name
		case types.KList, types.KMap, types.KOptional, types.KAsync:
			t = t.Elem
		case types.KFunction:
			t = t.Result
		default:
			return ""
		}
	}
	return ""
}

// resolveType returns the container or interface a type name means where
// id is, or nil.
func resolveType(a *core.Analysis, id *ast.Ident, name string) *check.Symbol {
	s := a.Info.ScopeAt(id.Pos()).Resolve(name)
	if s == nil || (s.Kind != check.SymContainer && s.Kind != check.SymInterface) {
		s = a.Info.Global.Symbols.Get(name)
	}
	if s == nil || (s.Kind != check.SymContainer && s.Kind != check.SymInterface) {
		return nil
	}
	return s
}

// typeExprTarget returns the container or interface a written type names,
// or holds (`List of Dog`), or nil.
func typeExprTarget(a *core.Analysis, te *ast.TypeExpr) *check.Symbol {
	if te == nil {
		return nil
	}
	if te.Ident != nil {
		if s := a.Info.Uses[te.Ident]; s != nil && (s.Kind == check.SymContainer || s.Kind == check.SymInterface) {
			return s
		}
	}
	for _, arg := range te.Args {
		if s := typeExprTarget(a, arg); s != nil {
			return s
		}
	}
	return nil
}

// declarationOf returns where sym, a symbol of the document (possibly
// included), is declared: in the document, or in the file it comes from.
func declarationOf(a *core.Analysis, sym *check.Symbol, f Files) []FileSpan {
	if sym.From() == "" {
		var out []FileSpan
		for _, sp := range core.DeclSpans(sym) {
			out = append(out, FileSpan{Path: f.Base, Span: sp, Lines: a.Lines})
		}
		return out
	}
	if f.Load == nil {
		return nil
	}
	b, ok := f.Load(sym.From())
	if !ok {
		return nil
	}
	out, _ := declaredIn(b, sym)
	return out
}

// Implementations returns, for the name at offset:
//   - an interface: the containers that implement it, directly, through an
//     interface that extends it or through a container they extend;
//   - a container: the containers that extend it, directly or not;
//   - an action: its definitions (every version, overloads included);
//   - an action of a container or a required action of an interface: the
//     actions of that name in the containers below it, which override or
//     implement it.
//
// Nearest first; nil when there is nothing to go to.
func Implementations(a *core.Analysis, offset int, f Files) []FileSpan {
	_, sym := a.SymbolAt(offset)
	if sym == nil || a.Info == nil {
		return nil
	}
	switch sym.Kind {
	case check.SymContainer, check.SymInterface:
		g := typeGraphOf(a, f)
		var out []FileSpan
		for _, n := range g.below(typeKey{homeOf(sym, f.Base), sym.Name}) {
			if n.sym.Kind == check.SymContainer {
				out = append(out, FileSpan{Path: n.key.path, Span: n.sym.Decl, Lines: n.a.Lines})
			}
		}
		return out
	case check.SymAction:
		return declarationOf(a, sym, f)
	case check.SymMethod:
		owner := sym.Parent
		if owner == nil || (owner.Kind != check.SymContainer && owner.Kind != check.SymInterface) {
			return nil
		}
		g := typeGraphOf(a, f)
		var out []FileSpan
		for _, n := range g.below(typeKey{homeOf(owner, f.Base), owner.Name}) {
			m := n.sym.Members()[sym.Name]
			if n.sym.Kind != check.SymContainer || m == nil || m.Kind != check.SymMethod || m.From() != "" {
				continue
			}
			for _, sp := range core.DeclSpans(m) {
				out = append(out, FileSpan{Path: n.key.path, Span: sp, Lines: n.a.Lines})
			}
		}
		return out
	}
	return nil
}
