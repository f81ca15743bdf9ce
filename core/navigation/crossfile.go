package navigation

// This file follows `include from "…"` for go-to-definition: a name the
// document uses but does not declare may be declared at the top level of a
// file it includes (included files share their definitions; `load module`
// runs a file in a scope of its own, so it is not followed).

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/check"
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
// document itself does not declare it, or, on the path of an include, the
// start of the file it names. base is the document's path; load
// returns the analysis of a file, or false.
func IncludedDefinition(a *core.Analysis, offset int, base string, load func(path string) (*core.Analysis, bool)) []FileSpan {
	if path, b, ok := includedAt(a, offset, base, load); ok {
		// On an include's path: the file it names, at its start.
		return []FileSpan{{Path: path, Lines: b.Lines}}
	}
	id, sym := a.SymbolAt(offset)
	if id == nil || (sym != nil && len(core.DeclSpans(sym)) > 0) {
		return nil
	}
	if sym != nil && sym.From() != "" {
		// The checker knew where: the symbol of an included file.
		if b, ok := load(sym.From()); ok {
			if out, found := declaredIn(b, sym); found {
				return out
			}
		}
	}
	seen := map[string]bool{base: true}
	var out []FileSpan
	var search func(from *core.Analysis, fromPath string, depth int)
	search = func(from *core.Analysis, fromPath string, depth int) {
		if depth > maxIncludeDepth {
			return
		}
		for _, inc := range from.Includes(fromPath) {
			if seen[inc] {
				continue
			}
			seen[inc] = true
			b, ok := load(inc)
			if !ok || b.Info == nil || b.Info.Global == nil {
				continue
			}
			if s := b.Info.Global.Symbols.Get(id.Name); s != nil {
				for _, sp := range core.DeclSpans(s) {
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

// declaredIn returns where the file whose analysis is b declares sym, a
// symbol an includer's checker imported from it (sym.From), looked up in
// what that file gives its includers as it is now (Analysis.Exported),
// and whether it declares it: the symbol's own position is where it was
// when the includer was checked, which is not kept up to date when only
// it moves (core's Workspace.Refresh), so it is never read.
func declaredIn(b *core.Analysis, sym *check.Symbol) (out []FileSpan, found bool) {
	if p := sym.Parent; p != nil {
		// A member: of a top-level symbol of that file.
		if s := b.Exported(p.Name); s != nil && s.Kind == p.Kind {
			if m := s.Members()[sym.Name]; m != nil && m.Kind == sym.Kind && m.Decl.End > m.Decl.Start {
				return []FileSpan{{Path: sym.From(), Span: m.Decl, Lines: b.Lines}}, true
			}
		}
		return nil, false
	}
	s := b.Exported(sym.Name)
	if s == nil {
		return nil, false
	}
	for _, sp := range core.DeclSpans(s) {
		out = append(out, FileSpan{Path: sym.From(), Span: sp, Lines: b.Lines})
	}
	return out, true
}

// HoverAcross is Hover, except that a name declared in an included file
// (see IncludedDefinition) shows that declaration, and where it is, and
// the path of an include shows what the file declares (IncludeHover). The
// declaration's hover is shown when the included file's features read
// there what the document's checker imported (the same kind of name):
// while a quote is left open there, they read the text with it closed,
// where the name may be a string's text or another word.
func HoverAcross(a *core.Analysis, offset int, base string, load func(path string) (*core.Analysis, bool)) *HoverInfo {
	if h := IncludeHover(a, offset, base, load); h != nil {
		return h
	}
	h := Hover(a, offset)
	id, sym := a.SymbolAt(offset)
	if id == nil || (sym != nil && len(core.DeclSpans(sym)) > 0) || h != nil && h.Kind == "builtin" {
		return h
	}
	defs := IncludedDefinition(a, offset, base, load)
	if len(defs) == 0 {
		return h
	}
	b, ok := load(defs[0].Path)
	if !ok {
		return h
	}
	there := Hover(b, defs[0].Span.Start)
	if there == nil || sym != nil && h != nil && (there.Kind != h.Kind || there.Name != h.Name) {
		return h
	}
	there.Span = token.Span{Start: id.Pos(), End: id.End()}
	there.DeclLine = 0
	where := fmt.Sprintf("Declared in %s on line %d.", filepath.Base(defs[0].Path), defs[0].Lines.Line(defs[0].Span.Start)+1)
	there.Doc = strings.TrimSpace(there.Doc + "\n\n" + where)
	return there
}

// A FileRef is a place that names a symbol, in some file.
type FileRef struct {
	Path  string
	Span  token.Span
	Lines *token.Lines
	Decl  bool
}

// ReferencesAcross returns the references to a name declared at the top
// level of a file and shared through `include from`: in the declaring file
// and in every candidate file that includes it (directly or through other
// included files) without declaring the name itself. It returns ok=false
// when the name at offset is not such a name (a local name, a builtin, or
// one declared nowhere), for which References is the answer.
// base is the document's path, candidates the other files to consider
// (open documents and the workspace's files), includesOf gives the files a
// file includes (cheaply, from an index), load a file's analysis (called
// only for the files of the family).
func ReferencesAcross(a *core.Analysis, offset int, base string, candidates []string, includesOf func(path string) []string, load func(path string) (*core.Analysis, bool)) (refs []FileRef, ok bool) {
	id, sym := a.SymbolAt(offset)
	if id == nil || a.Info == nil || a.Info.Global == nil {
		return nil, false
	}
	files := Files{Base: base, Candidates: candidates, IncludesOf: includesOf, Load: load}
	if isMember(sym) {
		return memberReferences(a, sym, files)
	}
	name, home := id.Name, ""
	switch {
	case sym != nil && a.Info.Global.Symbols.Get(name) == sym && len(core.DeclSpans(sym)) > 0:
		home = base
	case sym == nil || len(core.DeclSpans(sym)) == 0:
		defs := IncludedDefinition(a, offset, base, load)
		if len(defs) == 0 {
			return nil, false
		}
		home = defs[0].Path
	default:
		return nil, false // a local name
	}
	includes := files.includer()
	family := map[string]bool{home: true}
	seen := map[string]bool{}
	for _, p := range append([]string{base}, candidates...) {
		p = filepath.Clean(p)
		if seen[p] {
			continue
		}
		seen[p] = true
		if p != home && includesTransitively(p, home, includes) {
			family[p] = true
		}
	}
	paths := make([]string, 0, len(family))
	for p := range family {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		g, ok := load(p)
		if !ok || g.Info == nil || g.Info.Global == nil {
			continue
		}
		target := g.Info.Global.Symbols.Get(name)
		if p != home && target != nil {
			continue // the file declares its own
		}
		members := g.MemberNames()
		for _, r := range g.Idents() {
			if r.Ident.Name != name || members[r.Ident] {
				continue
			}
			if (p == home && r.Sym == target) || (p != home && (r.Sym == nil || r.Sym.From() == home && r.Sym.Parent == nil)) {
				refs = append(refs, FileRef{Path: p, Span: core.NodeSpan(r.Ident), Lines: g.Lines, Decl: r.Def})
			}
		}
	}
	return refs, len(refs) > 0
}

// includesTransitively reports whether the file at from includes target,
// directly or through the files it includes.
func includesTransitively(from, target string, includesOf func(string) []string) bool {
	seen := map[string]bool{}
	var walk func(p string, depth int) bool
	walk = func(p string, depth int) bool {
		if depth > maxIncludeDepth || seen[p] {
			return false
		}
		seen[p] = true
		for _, inc := range includesOf(p) {
			if inc == target || walk(inc, depth+1) {
				return true
			}
		}
		return false
	}
	return walk(from, 0)
}

// RenameAcross returns, by file, the edits that rename a name shared
// through `include from` (see ReferencesAcross) to newName: a top-level
// name, or a member of a container or interface with the members renamed
// together with it (its overrides, the requirement it implements, the
// actions implementing it) in whichever file declares them. It returns
// false when every place to rename is in the document (Rename
// answers then).
func RenameAcross(a *core.Analysis, offset int, newName, base string, candidates []string, includesOf func(path string) []string, load func(path string) (*core.Analysis, bool)) (map[string][]core.Edit, bool, error) {
	if _, sym := a.SymbolAt(offset); isMember(sym) {
		// A member: with the members renamed together with it, in every
		// file of the family.
		byFile, across, err := renameMember(a, sym, strings.Join(strings.Fields(newName), " "), Files{Base: base, Candidates: candidates, IncludesOf: includesOf, Load: load})
		if err != nil {
			return nil, true, err // a clash in another file counts too
		}
		if !across {
			return nil, false, nil
		}
		return byFile, true, nil
	}
	refs, ok := ReferencesAcross(a, offset, base, candidates, includesOf, load)
	if !ok {
		return nil, false, nil
	}
	newName = strings.Join(strings.Fields(newName), " ")
	if err := ValidName(newName); err != nil {
		return nil, true, err
	}
	byFile := map[string][]Reference{}
	for _, r := range refs {
		byFile[r.Path] = append(byFile[r.Path], Reference{Span: r.Span, Decl: r.Decl})
	}
	out := map[string][]core.Edit{}
	for path, rs := range byFile {
		g, ok := load(path)
		if !ok {
			continue
		}
		// Every file touched is checked as a rename within it would be.
		if _, sym := g.SymbolAt(rs[0].Span.Start); sym != nil {
			if err := clash(g, sym, newName, rs); err != nil {
				if path == base {
					return nil, true, err
				}
				return nil, true, fmt.Errorf("in %s: %w", filepath.Base(path), err)
			}
		}
		for _, r := range rs {
			out[path] = append(out[path], core.Edit{Start: r.Span.Start, End: r.Span.End, Text: newName})
		}
	}
	return out, true, nil
}
