package core

// This file answers inlay hints: the inferred type after the name of a
// variable declared from a value whose type is not spelled out (not a
// literal), and the parameter name before each positional argument of a
// call to an action declared in the document.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// An InlayHint is a label shown at an offset.
type InlayHint struct {
	Offset    int
	Label     string
	Parameter bool // a parameter name (shown before a value); else a type (shown after a name)
}

// InlayHints returns the hints whose offset lies in span, in order.
func (a *Analysis) InlayHints(span token.Span) []InlayHint {
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
			if t := a.Info.TypeOf(n.Value); known(t) {
				out = append(out, InlayHint{Offset: n.Name.End(), Label: ": " + t.String()})
			}
		case *ast.ActionCallExpr:
			sym := a.Info.ObjectOf(n.Name)
			if sym == nil || sym.Kind != check.SymAction || len(sym.Actions) != 1 {
				break // unknown, or overloaded: which parameters is not certain
			}
			params := sym.Actions[0].Params
			for i, arg := range n.Args {
				if arg.Name != nil || i >= len(params) || params[i].Name == nil || !in(arg.Pos()) {
					continue
				}
				if id, ok := arg.Value.(*ast.Ident); ok && id.Name == params[i].Name.Name {
					continue // the argument already says it
				}
				out = append(out, InlayHint{Offset: arg.Pos(), Label: params[i].Name.Name + ":", Parameter: true})
			}
		}
		return true
	})
	return out
}
