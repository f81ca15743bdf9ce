package core

// This file answers signature help: inside a call of an action (`call greet
// with …`) or a builtin (`length of …`), the signatures of the callee and
// which parameter the cursor is on.

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
)

// A Signature is one way to call the callee.
type Signature struct {
	Label  string
	Params []string // each a substring of Label
	Doc    string
}

// SignatureInfo is the answer to signature help.
type SignatureInfo struct {
	Signatures  []Signature
	ActiveParam int // index of the parameter at the cursor
}

// SignatureHelp returns the signatures of the innermost call around
// offset, or nil outside calls.
func (a *Analysis) SignatureHelp(offset int) *SignatureInfo {
	if a.File == nil || a.Info == nil {
		return nil
	}
	var name *ast.Ident
	var args []*ast.Arg
	ast.Inspect(a.File, func(n ast.Node) bool {
		if n == nil || n.Pos() > offset || n.End() < offset {
			return false
		}
		switch c := n.(type) {
		case *ast.ActionCallExpr:
			if c.Name != nil && offset > c.Name.End() {
				name, args = c.Name, c.Args
			}
		case *ast.CallExpr:
			if id, ok := c.Fun.(*ast.Ident); ok && offset > id.End() {
				name, args = id, c.Args
			}
		}
		return true
	})
	if name == nil {
		return nil
	}
	info := &SignatureInfo{}
	for i, arg := range args {
		if offset <= arg.End() {
			info.ActiveParam = i
			break
		}
		info.ActiveParam = i
		// Past the last argument with a separator typed: the next one.
		if i == len(args)-1 {
			tail := strings.TrimSpace(a.Lines.Text()[arg.End():offset])
			if tail == "and" || tail == "," {
				info.ActiveParam = i + 1
			}
		}
	}
	sym := a.Info.ObjectOf(name)
	switch {
	case sym != nil && (sym.Kind == check.SymAction || sym.Kind == check.SymMethod):
		for _, d := range sym.Actions {
			sig := Signature{Label: actionSignature(sym, d), Doc: d.Doc.Text()}
			for _, p := range d.Params {
				if p.Name == nil {
					continue
				}
				label := p.Name.Name
				if p.Type != nil {
					label += " as " + typeExprString(p.Type)
				}
				sig.Params = append(sig.Params, label)
			}
			info.Signatures = append(info.Signatures, sig)
		}
	case builtins.Lookup(name.Name) != nil:
		b := builtins.Lookup(name.Name)
		for i, s := range b.Signatures {
			sig := Signature{Label: b.Label(i), Doc: b.Doc}
			for _, p := range s.Params {
				sig.Params = append(sig.Params, p.Name+" as "+p.Type.String())
			}
			info.Signatures = append(info.Signatures, sig)
		}
	}
	if len(info.Signatures) == 0 {
		return nil
	}
	return info
}
