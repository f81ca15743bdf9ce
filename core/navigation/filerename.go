package navigation

// This file keeps the `include from` statements of a workspace naming the
// same files when files or folders are renamed or moved (an editor asks
// before it renames: LSP's workspace/willRenameFiles). A statement needs a
// new path when the file it names moves, or when the file it stands in
// moves and names the other by a relative path.

import (
	"path/filepath"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/lexer"
)

// A FileMove renames a file or a folder: what was at From, or under it, is
// then at the same place at or under To. Both are absolute, clean paths.
type FileMove struct{ From, To string }

// Moved returns where path is once the moves are made, one after the
// other as an editor makes them (a later move may move again what an
// earlier one moved: a file renamed, then its folder), and whether any
// moved it.
func Moved(path string, moves []FileMove) (string, bool) {
	moved := false
	for _, m := range moves {
		if path == m.From {
			path, moved = m.To, true
		} else if rest, ok := strings.CutPrefix(path, m.From); ok && (strings.HasPrefix(rest, string(filepath.Separator)) || strings.HasSuffix(m.From, string(filepath.Separator))) {
			path, moved = filepath.Join(m.To, rest), true
		}
	}
	return path, moved
}

// RenamedIncludes returns the edits of a file's `include from "…"`
// statements that keep them naming the files they name once the moves are
// made. base is the file's path (itself moved when a move says so). A path
// written absolute stays absolute; a relative one is written relative to
// the file's new folder, with forward slashes, keeping a leading "./". A
// statement whose path needs no change, or that is not a plain text
// literal, is left alone. Each edit replaces the text between the quotes.
func RenamedIncludes(s *core.Syntax, base string, moves []FileMove) []core.Edit {
	if s == nil || s.File == nil || base == "" {
		return nil
	}
	newBase, _ := Moved(base, moves)
	var edits []core.Edit
	ast.Inspect(s.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.LoadStmt:
			lit, ok := n.Path.(*ast.BasicLit)
			if !n.Include || !ok || lit.Kind != ast.LitString || lit.Value == "" || lit.End()-lit.Pos() < 2 {
				return false
			}
			if text, ok := renamedPath(lit.Value, base, newBase, moves); ok {
				edits = append(edits, core.Edit{Start: lit.Pos() + 1, End: lit.End() - 1, Text: text})
			}
			return false
		case ast.Expr:
			return false
		}
		return true
	})
	return edits
}

// renamedPath returns what an include written as written, in a file at
// base that moves to newBase, must say once the moves are made, as it is
// written between quotes; false when it says it already.
func renamedPath(written, base, newBase string, moves []FileMove) (string, bool) {
	p := filepath.FromSlash(written)
	abs := filepath.IsAbs(p)
	target := core.IncludedPath(written, base)
	newTarget, _ := Moved(target, moves)
	var out string
	if abs {
		if newTarget == target {
			return "", false
		}
		out = filepath.ToSlash(newTarget)
	} else {
		rel, err := filepath.Rel(filepath.Dir(newBase), newTarget)
		if err != nil {
			return "", false
		}
		out = filepath.ToSlash(rel)
		if strings.HasPrefix(written, "./") && !strings.HasPrefix(out, "../") {
			out = "./" + out
		}
		if filepath.FromSlash(out) == filepath.Clean(p) || out == written {
			return "", false // the same file by the same words
		}
	}
	return lexer.Escape(out), true
}
