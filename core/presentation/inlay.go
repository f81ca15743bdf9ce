package presentation

// This file answers inlay hints: the inferred type after the name of a
// variable declared from a value whose type is not spelled out (not a
// literal), when it says something, and the parameter name before each
// positional argument of a call of an action (with `call` or `of`).

import (
	"strings"
	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// An InlayHint is a label shown at an offset.
type InlayHint struct {
	Offset    int
	Label     string
	Parameter bool // a parameter name (shown before a value); else a type (shown after a name)
}

// InlayHints returns the hints whose offset lies in span, in order.
func InlayHints(a *core.Analysis, span token.Span) []InlayHint {
	if a.File == nil || a.Info == nil {
		return nil
	}
	var out []InlayHint
	in := func(off int) bool { return span.Start <= off && off <= span.End }
	ast.Inspect(a.File, func(n ast.Node) bool {
		if n == nil || n.End() < span.Start || n.Pos() > span.End {
			return false
		}
		switch n := n.(type) {
		case *ast.VarDecl:
			if n.Name == nil || n.Value == nil || !in(n.Name.End()) {
				break
			}
			if _, lit := n.Value.(*ast.BasicLit); lit {
				break
			}
			if label := typeHint(a, n.Value); label != "" {
				out = append(out, InlayHint{Offset: n.Name.End(), Label: ": " + label})
			}
		case *ast.ActionCallExpr:
			if n.Name != nil {
				out = parameterHints(a, out, n.Name, n.Args, in)
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && !n.Sugar {
				out = parameterHints(a, out, id, n.Args, in)
			}
		}
		return true
	})
	return out
}

// typeHint is the type to show for a declaration's value, or "" when it
// says nothing: an unknown type, or a list of unknown things. An
// overloaded action's value shows every version.
func typeHint(a *core.Analysis, v ast.Expr) string {
	if id, ok := v.(*ast.Ident); ok {
		if sym := a.Info.ObjectOf(id); sym != nil && sym.Kind == check.SymAction && len(sym.Versions()) > 1 {
			var vs []string
			for _, d := range sym.Versions() {
				vs = append(vs, core.ActionSignature(sym, d))
			}
			return strings.Join(vs, " | ")
		}
	}
	t := a.Info.TypeOf(v)
	if !informative(t) {
		return ""
	}
	return t.String()
}

// informative reports whether a type says something: not Unknown, and not
// made of Unknown (List of Unknown, Map from Text to Unknown).
func informative(t *types.Type) bool {
	if !core.Known(t) || t.Kind == types.KAny {
		return false
	}
	switch t.Kind {
	case types.KList, types.KOptional:
		return informative(t.Elem)
	case types.KMap:
		return informative(t.Elem)
	}
	return true
}

// parameterHints adds the names of the parameters before the positional
// arguments of a call of the action fn names (`call f with a and b` and
// `f of a and b` alike). For an overloaded action, the versions that take
// that many arguments must agree on a name for it to be shown.
func parameterHints(a *core.Analysis, out []InlayHint, fn *ast.Ident, args []*ast.Arg, in func(int) bool) []InlayHint {
	sym := a.Info.ObjectOf(fn)
	if sym == nil || sym.Kind != check.SymAction {
		return out
	}
	var fits []*ast.ActionDecl
	for _, d := range sym.Versions() {
		if len(d.Params) == len(args) {
			fits = append(fits, d)
		}
	}
	if len(fits) == 0 {
		return out
	}
	for i, arg := range args {
		if arg.Name != nil || !in(arg.Pos()) {
			continue
		}
		name := ""
		for k, d := range fits {
			p := d.Params[i]
			if p.Name == nil || k > 0 && p.Name.Name != name {
				name = ""
				break
			}
			name = p.Name.Name
		}
		if name == "" {
			continue
		}
		if id, ok := arg.Value.(*ast.Ident); ok && id.Name == name {
			continue // the argument already says it
		}
		out = append(out, InlayHint{Offset: arg.Pos(), Label: name + ":", Parameter: true})
	}
	return out
}
