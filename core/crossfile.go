package core

// This file follows `include from "…"` for go-to-definition: a name the
// document uses but does not declare may be declared at the top level of a
// file it includes (included files share their definitions; `load module`
// runs a file in a scope of its own, so it is not followed).

import (
	"fmt"
	"path/filepath"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// A FileSpan is a span in another file.
type FileSpan struct {
	Path  string
	Span  token.Span
	Lines *token.Lines // that file's line table, to convert Span
}

// maxIncludeDepth bounds how far includes of includes are followed.
const maxIncludeDepth = 4

// IncludedDefinition returns the declarations, in the files the document
// includes (and the files they include), of the name at offset when the
// document itself does not declare it. base is the document's path; load
// returns the analysis of a file, or false.
func (a *Analysis) IncludedDefinition(offset int, base string, load func(path string) (*Analysis, bool)) []FileSpan {
	id, sym := a.SymbolAt(offset)
	if id == nil || (sym != nil && len(declSpans(sym)) > 0) {
		return nil
	}
	seen := map[string]bool{base: true}
	var out []FileSpan
	var search func(from *Analysis, fromPath string, depth int)
	search = func(from *Analysis, fromPath string, depth int) {
		if depth > maxIncludeDepth {
			return
		}
		for _, inc := range from.includes(fromPath) {
			if seen[inc] {
				continue
			}
			seen[inc] = true
			b, ok := load(inc)
			if !ok || b.Info == nil || b.Info.Global == nil {
				continue
			}
			if s := b.Info.Global.Symbols[id.Name]; s != nil {
				for _, sp := range declSpans(s) {
					out = append(out, FileSpan{Path: inc, Span: sp, Lines: b.Lines})
				}
				continue
			}
			search(b, inc, depth+1)
		}
	}
	search(a, base, 0)
	return out
}

// includes returns the paths of the files the document includes.
func (a *Analysis) includes(base string) []string {
	if a.File == nil || base == "" {
		return nil
	}
	var out []string
	for _, s := range a.File.Stmts {
		ls, ok := s.(*ast.LoadStmt)
		if !ok || !ls.Include {
			continue
		}
		lit, ok := ls.Path.(*ast.BasicLit)
		if !ok || lit.Kind != ast.LitString || lit.Value == "" {
			continue
		}
		p := filepath.FromSlash(lit.Value)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(base), p)
		}
		out = append(out, filepath.Clean(p))
	}
	return out
}

// HoverAcross is Hover, except that a name declared in an included file
// (see IncludedDefinition) shows that declaration, and where it is.
func (a *Analysis) HoverAcross(offset int, base string, load func(path string) (*Analysis, bool)) *HoverInfo {
	h := a.Hover(offset)
	id, sym := a.SymbolAt(offset)
	if id == nil || (sym != nil && len(declSpans(sym)) > 0) || h != nil && h.Kind == "builtin" {
		return h
	}
	defs := a.IncludedDefinition(offset, base, load)
	if len(defs) == 0 {
		return h
	}
	b, ok := load(defs[0].Path)
	if !ok {
		return h
	}
	there := b.Hover(defs[0].Span.Start)
	if there == nil {
		return h
	}
	there.Span = token.Span{Start: id.Pos(), End: id.End()}
	there.DeclLine = 0
	where := fmt.Sprintf("Declared in %s on line %d.", filepath.Base(defs[0].Path), defs[0].Lines.Line(defs[0].Span.Start)+1)
	there.Doc = strings.TrimSpace(there.Doc + "\n\n" + where)
	return there
}
