package core

// This file derives the diagnostics' state of a document whose text did
// not change but whose included files did (Workspace.Refresh): only the
// names those files give it (check.Context.Imports) are new.
//
// The checker sees an included name through the file scope, where it
// resolves a name the file does not bind; what it learns there is the
// symbol's kind, flags, doc, type, declaring node, versions and members,
// and the file it comes from (see importKey). So the units whose findings
// can change are those that mention a name whose imported symbol came,
// went or changed, and the units connected to them through declared names
// (the closure incremental_recheck.go computes for an edit); they are
// checked again with the new imports, and every other unit keeps what it
// had. Where an included symbol is declared is not part of the key: the
// checker and the queries never read an included symbol's position
// (declSpans, Hover and completion pass over symbols with From set;
// definition and hover across files look the name up in what the
// included file gives its includers now, Analysis.Exported, not in its
// features' analysis, which reads a quote left open closed), and the units
// a query takes are checked with the new imports anyway (query.go).
//
// A full analysis makes the state instead when the files followed are not
// the same ones, when an include cannot be followed or goes round in a
// cycle where it did not (or the reason changed), when the state is final,
// and when the units to check again are most of the file.
// TestRefreshEqualsFull compares the result with a full analysis after
// random edits of included files.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/config"
	"wfl-lsp/lang/parser"
)

// reimport returns the state of prev's text checked with the imports in
// (prev's includes followed again), or nil when it must come from a full
// analysis.
func reimport(prev *diagState, in importSet, cfg config.Config) *diagState {
	if cfg != prev.cfg || prev.final || prev.ctx == nil {
		return nil
	}
	if !sameKeys(prev.included, in.texts) || !maps.Equal(prev.ctx.Unfollowed, in.problems) {
		return nil
	}
	changed := changedImports(prev.ctx.Imports, prev.included, in)
	ctx := *prev.ctx // the shared context is never modified
	ctx.Imports, ctx.Unfollowed = in.syms, in.problems
	s := &diagState{text: prev.text, lines: prev.lines, cfg: cfg, ctx: &ctx,
		starts: prev.starts, units: slices.Clone(prev.units), included: in.texts,
		seeds: prev.seeds, secure: prev.secure, work: prev.work, extra: prev.extra, toks: prev.toks}
	// The units' texts are the same: their shapes are prev's, but for
	// those checked again, whose names may have changed.
	done := func() *diagState {
		s.describeShapes(prev, len(s.units), len(prev.units), nil)
		return s
	}
	if len(changed) == 0 {
		return done()
	}
	// The units naming what changed, as an edit's new units are (reach.go).
	r := newReach(indexMentions(s.units).view(s.units, false), len(s.units)/2+8)
	for _, h := range changed {
		r.holders(h, holdAny, func(i int) { r.raise(i, roleProp) })
	}
	if !r.close() || !s.secureContext(r) {
		return nil
	}
	if len(r.set) == 0 {
		return done()
	}
	slices.Sort(r.set)
	if res, _ := s.recheck(r.set, r, &ctx, len(s.units), nil); res != recheckDone {
		return nil
	}
	return done()
}

// reimportSafely is reimport of the imports of the file at path, whose
// state is st, followed through src; nil, rather than a crash, should it
// fail.
func reimportSafely(st *diagState, path string, src includeSource, cfg config.Config) (out *diagState) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	return reimport(st, followIncludes(st.includeFile(), path, src), cfg)
}

// includeFile returns a tree of the state's top-level include statements,
// parsed again from their units' text (with two units more, for the
// parser's lookahead, as reparse does): all followIncludes reads of a
// file's tree.
func (s *diagState) includeFile() *ast.File {
	f := &ast.File{Range: ast.Range{From: 0, To: len(s.text)}}
	for i, u := range s.units {
		if u.facts().loads&loadInclude == 0 {
			continue
		}
		end := s.end(i)
		pf, _, _ := parser.UnitsFrom(s.text[:s.end(min(i+2, len(s.units)-1))], s.starts[i])
		for _, st := range pf.Stmts {
			if ls, ok := st.(*ast.LoadStmt); ok && ls.Include && st.Pos() < end {
				f.Stmts = append(f.Stmts, st)
			}
		}
	}
	return f
}

// changedImports returns the hashes of the names whose imported symbol
// came, went or changed (see importKey) between old, read from the texts
// oldTexts, and in.
func changedImports(old []*check.Symbol, oldTexts map[string]string, in importSet) []uint32 {
	keys := make(map[string]string, len(old))
	for _, sym := range old {
		keys[sym.Name] = importKey(sym, oldTexts[sym.From()])
	}
	var changed []uint32
	for _, sym := range in.syms {
		if k, ok := keys[sym.Name]; !ok || k != importKey(sym, in.texts[sym.From()]) {
			changed = append(changed, nameHash(sym.Name))
		}
		delete(keys, sym.Name)
	}
	for name := range keys {
		changed = append(changed, nameHash(name))
	}
	return changed
}

// importKey describes what the analysis of a file can learn of a symbol
// that a file it includes declares, text being that file's text: all but
// where it is declared (see the file comment).
func importKey(sym *check.Symbol, text string) string {
	var b strings.Builder
	writeImportKey(&b, sym, text, 0)
	return b.String()
}

// maxKeyDepth bounds how deep importKey follows members and bases.
const maxKeyDepth = 4

func writeImportKey(b *strings.Builder, sym *check.Symbol, text string, depth int) {
	fmt.Fprintf(b, "%d %q %t %t %q %q %q", sym.Kind, sym.Name, sym.Mutable, sym.Constant, sym.From(), sym.Doc(), sym.Extends())
	if sym.Type != nil {
		b.WriteString(" type " + sym.Type.String())
	}
	if sym.Builtin() != nil {
		b.WriteString(" builtin " + sym.Builtin().Name)
	}
	if sym.Parent != nil {
		fmt.Fprintf(b, " of %d %q", sym.Parent.Kind, sym.Parent.Name)
	}
	node := func(n ast.Node) {
		if n == nil {
			b.WriteString(" -")
			return
		}
		start, end := n.Pos(), declEnd(n)
		if 0 <= start && start <= end && end <= len(text) {
			fmt.Fprintf(b, " %T %q", n, text[start:end])
		} else {
			fmt.Fprintf(b, " %T ?%p", n, n) // not a span of the text: never the same
		}
	}
	node(sym.Node)
	for _, d := range sym.Versions() {
		node(d)
		b.WriteString(" doc " + d.Doc.Text())
	}
	fmt.Fprintf(b, " nested %d", len(sym.Nested()))
	if depth >= maxKeyDepth {
		if len(sym.Members()) > 0 || sym.Base() != nil {
			fmt.Fprintf(b, " deep %p", sym) // too deep to compare: never the same
		}
		return
	}
	for _, name := range slices.Sorted(maps.Keys(sym.Members())) {
		b.WriteString(" {")
		writeImportKey(b, sym.Members()[name], text, depth+1)
		b.WriteByte('}')
	}
	if sym.Base() != nil {
		b.WriteString(" base {")
		writeImportKey(b, sym.Base(), text, depth+1)
		b.WriteByte('}')
	}
}

// declEnd returns where what an includer can learn of a declaring node
// ends: before the body of an action (what it does is not what the
// includer sees of it: its parameters, return type and inferred type
// are), before the members of a container (each is a member's own key),
// before a variable's value (its type is the symbol's), else at its end.
func declEnd(n ast.Node) int {
	switch d := n.(type) {
	case *ast.VarDecl:
		if d.Value != nil && d.Value.Pos() >= d.Pos() {
			return d.Value.Pos()
		}
	case *ast.ActionDecl:
		if d.Body != nil && d.Body.Pos() >= d.Pos() {
			return d.Body.Pos()
		}
	case *ast.ContainerDecl:
		if len(d.Members) > 0 && d.Members[0] != nil && d.Members[0].Pos() >= d.Pos() {
			return d.Members[0].Pos()
		}
	}
	return n.End()
}

// sameKeys reports whether two maps have the same keys.
func sameKeys(x, y map[string]string) bool {
	if len(x) != len(y) {
		return false
	}
	for k := range x {
		if _, ok := y[k]; !ok {
			return false
		}
	}
	return true
}
