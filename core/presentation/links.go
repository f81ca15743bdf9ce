package presentation

// This file answers document links: the file named by `include from "…"`
// and `load module from "…"`, resolved against the document's folder.
//
// A path that names something other than a regular file (a folder, a named
// pipe, a device such as /dev/zero, or a link to one) is no link: WFL
// reads none of them as a program, and an editor that follows the link
// would open a folder as a document, or read a pipe or a device that may
// never end. A path that names nothing yet is still a link: an editor
// offers to create the file, which is what a user who wrote the include
// before the file wants.

import (
	"errors"

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
// A path to something that is not a regular file is no link (see the file
// comment); each target is looked up on the disk (stat, never opened).
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
			target := core.IncludedPath(lit.Value, base)
			if target == "" || !linkable(target) {
				return false
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

// linkable reports whether a link may point to target: unless it exists
// and is not a regular file. It asks the editor's file access (core's
// AnyFile), which stats the target without opening it.
func linkable(target string) bool {
	_, err := core.AnyFile().Stat(target)
	return !errors.Is(err, core.ErrNotRegular)
}
