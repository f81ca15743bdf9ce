package presentation

// This file answers document links: the file named by `include from "…"`
// and `load module from "…"`, resolved against the document's folder.

import (
	"path/filepath"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// A DocumentLink is a span of the text that names a file.
type DocumentLink struct {
	Span   token.Span // the path inside the quotes
	Target string     // the absolute path of the file
}

// DocumentLinks returns the links of a document; base is the file path of
// the document (relative paths are resolved against its folder), or "" for
// documents that are not files, which then have links only for absolute paths.
func DocumentLinks(a *core.Syntax, base string) []DocumentLink {
	if a.File == nil {
		return nil
	}
	var out []DocumentLink
	ast.Inspect(a.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.LoadStmt:
			lit, ok := n.Path.(*ast.BasicLit)
			if !ok || lit.Kind != ast.LitString || lit.Value == "" || lit.End()-lit.Pos() < 2 {
				return false
			}
			target := filepath.FromSlash(lit.Value)
			if !filepath.IsAbs(target) {
				if base == "" {
					return false
				}
				target = filepath.Join(filepath.Dir(base), target)
			}
			out = append(out, DocumentLink{Span: token.Span{Start: lit.Pos() + 1, End: lit.End() - 1}, Target: target})
			return false
		case ast.Expr:
			return false
		}
		return true
	})
	return out
}
