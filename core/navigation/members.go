package navigation

// This file finds the members of containers and interfaces (properties,
// actions, events and the actions an interface requires) across the files
// that include one another: their references in every file of the family,
// the members renamed together with one (its overrides, the requirement it
// implements, the actions implementing it), the clashes a new name would
// make, and the calls of a container's action from any file.
//
// A member is known by its owner (the file that declares the container or
// interface, and its name) and its own name and kind: an included file's
// member reaches an includer's checker as a copy (see imported), so the
// same member is a different symbol in each file.

import (
	"fmt"
	"path/filepath"
	"slices"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
)

// A memberKey names a member of a container or interface of a family of
// files.
type memberKey struct {
	owner typeKey
	name  string
	kind  check.SymbolKind
}

// isMember reports whether sym is a property, action or event of a
// container, or an action an interface requires.
func isMember(sym *check.Symbol) bool {
	if sym == nil || sym.Parent == nil {
		return false
	}
	switch sym.Kind {
	case check.SymProperty, check.SymMethod, check.SymEvent:
	default:
		return false
	}
	return sym.Parent.Kind == check.SymContainer || sym.Parent.Kind == check.SymInterface
}

// memberKeyOf returns the key of the member sym, seen from the file at path.
func memberKeyOf(sym *check.Symbol, path string) memberKey {
	return memberKey{owner: typeKey{homeOf(sym.Parent, path), sym.Parent.Name}, name: sym.Name, kind: sym.Kind}
}

// analysisOf returns the analysis of a file of f: a for the document, else
// f's loader's.
func analysisOf(a *core.Analysis, f Files, path string) (*core.Analysis, bool) {
	if path == cleanPath(f.Base) {
		return a, true
	}
	if f.Load == nil {
		return nil, false
	}
	b, ok := f.Load(path)
	if !ok || b.Info == nil || b.Info.Global == nil {
		return nil, false
	}
	return b, true
}

// memberPlaces returns the places, in the files of f's family, that name
// one of the members keys holds: by file (sorted by path, as
// ReferencesAcross orders the places of a top-level name), in source order.
func memberPlaces(a *core.Analysis, f Files, keys map[memberKey]bool) []FileRef {
	var out []FileRef
	for _, p := range slices.Sorted(slices.Values(f.family())) {
		b, ok := analysisOf(a, f, p)
		if !ok {
			continue
		}
		for _, r := range b.Idents() {
			if isMember(r.Sym) && keys[memberKeyOf(r.Sym, p)] {
				out = append(out, FileRef{Path: p, Span: core.NodeSpan(r.Ident), Lines: b.Lines, Decl: r.Def})
			}
		}
	}
	return out
}

// memberReferences is ReferencesAcross for a member: the places that name
// it in every file of f's family. ok is false when they are all in the
// document (References answers alike).
func memberReferences(a *core.Analysis, sym *check.Symbol, f Files) ([]FileRef, bool) {
	refs := memberPlaces(a, f, map[memberKey]bool{memberKeyOf(sym, f.Base): true})
	return refs, elsewhere(refs, f.Base)
}

// elsewhere reports whether one of refs is in another file than base's.
func elsewhere(refs []FileRef, base string) bool {
	base = cleanPath(base)
	return slices.ContainsFunc(refs, func(r FileRef) bool { return r.Path != base })
}

// memberGroup returns the members renamed together with the member k: the
// members of its name and kind of every container and interface related to
// its owner through extends and implements, in any file of g (WFL finds a
// member by its name when the program runs), k included, and the types
// related to the owner, the owner first.
func (g *typeGraph) memberGroup(k memberKey) (map[memberKey]bool, []*typeNode) {
	group := map[memberKey]bool{k: true}
	start := g.nodes[k.owner]
	if start == nil {
		return group, nil
	}
	related := []*typeNode{start}
	seen := map[typeKey]bool{k.owner: true}
	for i := 0; i < len(related); i++ {
		n := related[i]
		for _, m := range slices.Concat(g.supertypes(n.key), g.subtypes(n.key)) {
			if !seen[m.key] {
				seen[m.key] = true
				related = append(related, m)
			}
		}
		if m := n.sym.Members()[k.name]; m != nil && m.Kind == k.kind {
			group[memberKey{n.key, k.name, k.kind}] = true
		}
	}
	return group, related
}

// renameMember returns, by file, the edits that rename the member sym to
// newName in every file of f's family, with the members renamed together
// with it (see memberGroup), or an error that says why the new name would
// change what the program means. across is false when every edit is in the
// document.
func renameMember(a *core.Analysis, sym *check.Symbol, newName string, f Files) (byFile map[string][]core.Edit, across bool, err error) {
	k := memberKeyOf(sym, f.Base)
	g := typeGraphOf(a, f)
	group, related := g.memberGroup(k)
	refs := memberPlaces(a, f, group)
	across = elsewhere(refs, f.Base)
	if err := ValidName(newName); err != nil {
		return nil, across, err
	}
	if newName == sym.Name {
		return map[string][]core.Edit{}, across, nil
	}
	if builtins.IsBuiltin(newName) {
		// A property is a plain name in its container's actions, where
		// it would hide the builtin.
		return nil, across, fmt.Errorf("%q is the name of a builtin function", newName)
	}
	if err := memberClash(f, a, related, k, newName, refs); err != nil {
		return nil, across, err
	}
	byFile = map[string][]core.Edit{}
	for _, r := range refs {
		byFile[r.Path] = append(byFile[r.Path], core.Edit{Start: r.Span.Start, End: r.Span.End, Text: newName})
	}
	return byFile, across, nil
}

// memberClash says why renaming the member k (with the members of its
// name of the related types, whose places are refs) to newName would change
// what the program means, or returns nil:
//   - a related type (a base, a subtype, an interface implemented or
//     extended, whichever file declares it) already has a member newName:
//     the two would merge, or one would override the other;
//   - a property is seen as a plain name inside its container's actions:
//     there, a local name or parameter newName would hide it, and a name
//     of an outer scope that an action of the related containers reads as
//     newName would be hidden by it.
func memberClash(f Files, a *core.Analysis, related []*typeNode, k memberKey, newName string, refs []FileRef) error {
	for _, n := range related {
		if m := n.sym.Members()[newName]; m != nil {
			return fmt.Errorf("%q is already the name of %s of %s (%s line %d): the two would be one member", newName, aKind(m.Kind), n.sym.Name, filepath.Base(n.key.path), n.a.Lines.Line(m.Decl.Start)+1)
		}
	}
	if k.kind != check.SymProperty {
		return nil
	}
	quals := map[*core.Analysis]map[int]bool{}
	qualified := func(b *core.Analysis, at int) bool {
		if quals[b] == nil {
			quals[b] = qualified(b)
		}
		return quals[b][at]
	}
	// The places that read the property as a plain name.
	for _, r := range refs {
		b, ok := analysisOf(a, f, r.Path)
		if !ok || r.Decl {
			continue
		}
		method := methodScope(b, r.Span.Start)
		if method == nil || qualified(b, r.Span.Start) {
			continue
		}
		for s := b.Info.ScopeAt(r.Span.Start); s != nil; s = s.Parent {
			if other := s.Symbols.Get(newName); other != nil {
				return fmt.Errorf("%q is already the name of %s declared on line %d, which %s line %d would then name instead", newName, aKind(other.Kind), b.Lines.Line(other.Decl.Start)+1, filepath.Base(r.Path), b.Lines.Line(r.Span.Start)+1)
			}
			if s == method {
				break
			}
		}
	}
	// The names the related containers' actions read from outer scopes.
	for _, n := range related {
		d, ok := n.sym.Node.(*ast.ContainerDecl)
		if !ok {
			continue
		}
		b := n.a
		for _, r := range b.Idents() {
			if r.Def || r.Sym == nil || r.Ident.Name != newName || r.Ident.Pos() < d.Pos() || r.Ident.End() > d.End() {
				continue
			}
			method := methodScope(b, r.Ident.Pos())
			if method == nil || qualified(b, r.Ident.Pos()) || isMember(r.Sym) {
				continue
			}
			if !declaredWithin(b, r.Sym, method) {
				return fmt.Errorf("line %d of %s names the %s %q, which the property would hide", b.Lines.Line(r.Ident.Pos())+1, filepath.Base(n.key.path), r.Sym.Kind, newName)
			}
		}
	}
	return nil
}

// methodScope returns the scope of the container's action that holds
// offset, or nil.
func methodScope(b *core.Analysis, offset int) *check.Scope {
	for s := b.Info.ScopeAt(offset); s != nil; s = s.Parent {
		if s.Container() != nil {
			return s
		}
	}
	return nil
}

// declaredWithin reports whether sym is declared in method or a scope
// inside it.
func declaredWithin(b *core.Analysis, sym *check.Symbol, method *check.Scope) bool {
	if sym.From() != "" || sym.Decl.End <= sym.Decl.Start {
		return false
	}
	for s := b.Info.ScopeAt(sym.Decl.Start); s != nil; s = s.Parent {
		if s.Symbols.Get(sym.Name) == sym {
			return encloses(method, s)
		}
	}
	return false
}

// qualified returns the starts of the names that are not read through a
// scope: a member after a dot (`x.name`, `x.name()`) and a property given
// a value where an instance is created (`name is …`).
func qualified(a *core.Analysis) map[int]bool {
	m := map[int]bool{}
	for id := range a.MemberNames() {
		m[id.Pos()] = true
	}
	if a.File != nil {
		ast.Inspect(a.File, func(n ast.Node) bool {
			if p, ok := n.(*ast.PropInit); ok && p.Name != nil {
				m[p.Name.Pos()] = true
			}
			return true
		})
	}
	return m
}

// memberCalls returns the calls, in the files of f's family other than the
// document, of the action k of a container or interface.
func memberCalls(a *core.Analysis, k memberKey, f Files) []Call {
	var out []Call
	for _, p := range f.family()[1:] {
		b, ok := analysisOf(a, f, p)
		if !ok {
			continue
		}
		for _, c := range incomingCalls(b, func(s *check.Symbol) bool { return isMember(s) && memberKeyOf(s, p) == k }) {
			if c.Item.File == "" {
				c.Item.File = p
			}
			out = append(out, c)
		}
	}
	return out
}
