package navigation

// This file answers a hover on the path of an `include from "…"`: the file
// it names and what that file declares for the including one.

import (
	"fmt"
	"path/filepath"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// maxIncludeHoverNames bounds the declarations an include's hover lists.
const maxIncludeHoverNames = 20

// IncludeHover returns the hover of the path of the include statement at
// offset (inside its quotes): the file it names, resolved against base's
// folder, and the names it declares, each as its own hover spells it; nil
// when offset is on no include's path or the file cannot be read (the
// include's finding says why).
func IncludeHover(a *core.Analysis, offset int, base string, load func(path string) (*core.Analysis, bool)) *HoverInfo {
	target, b, ok := includedAt(a, offset, base, load)
	if !ok {
		return nil
	}
	lit := includePathAt(a, offset)
	decls := b.Declarations()
	h := &HoverInfo{Span: token.Span{Start: lit.Pos() + 1, End: lit.End() - 1}, Kind: "file", Name: lit.Value}
	for _, sym := range decls[:min(len(decls), maxIncludeHoverNames)] {
		spans := core.DeclSpans(sym)
		if len(spans) == 0 {
			continue
		}
		if d := Hover(b, spans[0].Start); d != nil && len(d.Signature) > 0 {
			h.Signature = append(h.Signature, d.Signature[0])
		}
	}
	switch n := len(decls); {
	case n == 0:
		h.Doc = fmt.Sprintf("`%s` declares no names at its top level.", filepath.Base(target))
	case n > maxIncludeHoverNames:
		h.Doc = fmt.Sprintf("`%s` declares %d names at its top level; the first %d are shown.", filepath.Base(target), n, maxIncludeHoverNames)
	default:
		h.Doc = fmt.Sprintf("The names `%s` declares at its top level, which this file reads.", filepath.Base(target))
	}
	return h
}

// includedAt returns the file the path of the include statement at offset
// names, resolved against base's folder, and its analysis; false when
// offset is on no include's path, the document has no path (its includes
// are not followed), the path's quote is left open, or the file cannot be
// read.
func includedAt(a *core.Analysis, offset int, base string, load func(path string) (*core.Analysis, bool)) (string, *core.Analysis, bool) {
	lit := includePathAt(a, offset)
	if lit == nil || base == "" || a.LeftOpen(lit.Pos()) {
		// No path to follow includes from (the checker follows none), or
		// a quote left open: the analysis reads the path closed on its
		// line, without its last character.
		return "", nil, false
	}
	target := core.IncludedPath(lit.Value, base)
	b, ok := load(target)
	return target, b, ok
}

// includePathAt returns the text literal of the include statement whose
// path holds offset (between its quotes, or on either quote), or nil.
func includePathAt(a *core.Analysis, offset int) *ast.BasicLit {
	if a == nil || a.File == nil {
		return nil
	}
	for _, s := range a.File.Stmts {
		if s.Pos() > offset {
			break
		}
		ls, ok := s.(*ast.LoadStmt)
		if !ok || !ls.Include || offset > s.End() {
			continue
		}
		if lit, ok := ls.Path.(*ast.BasicLit); ok && lit.Kind == ast.LitString && lit.Value != "" && lit.Pos() <= offset && offset <= lit.End() {
			return lit
		}
	}
	return nil
}
