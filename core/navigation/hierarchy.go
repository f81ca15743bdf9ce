package navigation

// This file answers type hierarchy: the containers and interfaces a
// container or interface extends or implements (its supertypes) and those
// that extend or implement it (its subtypes). The relations are read from
// the declarations of a family of files (see Files): the document, the files
// it includes and the files that include them, so that a container of one
// file extending or implementing a type of another is found from either.

import (
	"path/filepath"
	"slices"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// Files are the files a cross-file query may read besides the document.
// The zero value reads none.
type Files struct {
	Base       string                                   // the document's path, or ""
	Candidates []string                                 // the other files to consider: open documents and the workspace's files
	IncludesOf func(path string) []string               // the files a file includes (cheaply, from an index); nil for none
	Load       func(path string) (*core.Analysis, bool) // a file's analysis; nil for none
}

// includer returns a function that gives the files the file at a path
// includes: IncludesOf's answer for the document and the candidates, which
// it knows; for another file (neither open nor indexed: outside the
// workspace's folders, reached through an include), its analysis's.
func (f Files) includer() func(string) []string {
	if f.IncludesOf == nil {
		return func(string) []string { return nil }
	}
	known := make(map[string]bool, len(f.Candidates)+1)
	known[cleanPath(f.Base)] = true
	for _, c := range f.Candidates {
		known[filepath.Clean(c)] = true
	}
	return func(path string) []string {
		if known[filepath.Clean(path)] || f.Load == nil {
			return f.IncludesOf(path)
		}
		if b, ok := f.Load(path); ok {
			return b.Includes(path)
		}
		return f.IncludesOf(path)
	}
}

// family returns the paths of the files whose types can be related to the
// document's: the document, the files it includes (transitively, see
// Files.includer), and the
// candidates that include one of them (transitively). The document comes
// first, then the others sorted.
func (f Files) family() []string {
	base := cleanPath(f.Base)
	if base == "" || f.IncludesOf == nil || f.Load == nil {
		return []string{base}
	}
	includes := f.includer()
	closure := map[string]bool{base: true}
	var walk func(p string, depth int)
	walk = func(p string, depth int) {
		if depth > maxIncludeDepth {
			return
		}
		for _, inc := range includes(p) {
			if inc = filepath.Clean(inc); !closure[inc] {
				closure[inc] = true
				walk(inc, depth+1)
			}
		}
	}
	walk(base, 0)
	in := map[string]bool{}
	for p := range closure {
		in[p] = true
	}
	for _, c := range f.Candidates {
		c = filepath.Clean(c)
		if in[c] {
			continue
		}
		for target := range closure {
			if includesTransitively(c, target, includes) {
				in[c] = true
				break
			}
		}
	}
	out := make([]string, 0, len(in))
	for p := range in {
		if p != base {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return append([]string{base}, out...)
}

// A typeKey names a container or interface: the file that declares it and
// its name (top-level names are unique in a file).
type typeKey struct{ path, name string }

// A typeNode is a container or interface of the family.
type typeNode struct {
	key        typeKey
	sym        *check.Symbol // in a, declared there
	a          *core.Analysis
	extends    []typeKey // a container's base; an interface's extended interfaces
	implements []typeKey // a container's interfaces
}

// A typeGraph holds the containers and interfaces of a family of files.
type typeGraph struct {
	nodes map[typeKey]*typeNode
	order []*typeNode // by file (the document first), then position
}

// typeGraphOf reads the family's containers and interfaces; a is the
// document's analysis, used for it rather than a newer one.
func typeGraphOf(a *core.Analysis, f Files) *typeGraph {
	g := &typeGraph{nodes: map[typeKey]*typeNode{}}
	for _, p := range f.family() {
		b := a
		if p != cleanPath(f.Base) {
			var ok bool
			if b, ok = f.Load(p); !ok {
				continue
			}
		}
		if b.Info == nil || b.Info.Global == nil {
			continue
		}
		target := func(id *ast.Ident) (typeKey, bool) {
			s := b.Info.Uses[id]
			if s == nil || (s.Kind != check.SymContainer && s.Kind != check.SymInterface) {
				return typeKey{}, false
			}
			return typeKey{homeOf(s, p), s.Name}, true
		}
		for _, s := range b.Info.Symbols {
			if s.From() != "" || (s.Kind != check.SymContainer && s.Kind != check.SymInterface) || b.Info.Global.Symbols.Get(s.Name) != s {
				continue
			}
			n := &typeNode{key: typeKey{p, s.Name}, sym: s, a: b}
			switch d := s.Node.(type) {
			case *ast.ContainerDecl:
				if d.Extends != nil {
					if k, ok := target(d.Extends); ok {
						n.extends = append(n.extends, k)
					}
				}
				for _, id := range d.Implements {
					if k, ok := target(id); ok {
						n.implements = append(n.implements, k)
					}
				}
			case *ast.InterfaceDecl:
				for _, id := range d.Extends {
					if k, ok := target(id); ok {
						n.extends = append(n.extends, k)
					}
				}
			}
			if g.nodes[n.key] == nil {
				g.nodes[n.key] = n
				g.order = append(g.order, n)
			}
		}
	}
	return g
}

// homeOf returns the path of the file that declares s, seen from the file
// at path.
func homeOf(s *check.Symbol, path string) string {
	if s.From() != "" {
		return cleanPath(s.From())
	}
	return cleanPath(path)
}

// cleanPath is filepath.Clean, except that "" (no file) stays "".
func cleanPath(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Clean(p)
}

// supertypes returns the direct supertypes of the type: the base and the
// interfaces of a container, the interfaces an interface extends.
func (g *typeGraph) supertypes(k typeKey) []*typeNode {
	n := g.nodes[k]
	if n == nil {
		return nil
	}
	var out []*typeNode
	for _, s := range slices.Concat(n.extends, n.implements) {
		if m := g.nodes[s]; m != nil && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// subtypes returns the direct subtypes of the type: the containers that
// extend or implement it and the interfaces that extend it.
func (g *typeGraph) subtypes(k typeKey) []*typeNode {
	var out []*typeNode
	for _, n := range g.order {
		if slices.Contains(n.extends, k) || slices.Contains(n.implements, k) {
			out = append(out, n)
		}
	}
	return out
}

// below returns every type under k, nearest first, k excluded.
func (g *typeGraph) below(k typeKey) []*typeNode {
	seen := map[typeKey]bool{k: true}
	var out []*typeNode
	for queue := []typeKey{k}; len(queue) > 0; queue = queue[1:] {
		for _, n := range g.subtypes(queue[0]) {
			if !seen[n.key] {
				seen[n.key] = true
				out = append(out, n)
				queue = append(queue, n.key)
			}
		}
	}
	return out
}

// A TypeItem is a container or interface in a type hierarchy.
type TypeItem struct {
	Name      string
	Detail    string // what it extends and implements: "extends Animal implements Loud"
	Interface bool
	Path      string       // the file that declares it
	Lines     *token.Lines // that file's line table
	Span      token.Span   // the whole declaration
	NameSpan  token.Span   // its name
}

func (n *typeNode) item() TypeItem {
	it := TypeItem{Name: n.sym.Name, Interface: n.sym.Kind == check.SymInterface, Path: n.key.path,
		Lines: n.a.Lines, Span: n.sym.Decl, NameSpan: n.sym.Decl}
	if n.sym.Node != nil {
		it.Span = core.NodeSpan(n.sym.Node)
	}
	var words []string
	names := func(ks []typeKey) string {
		var s []string
		for _, k := range ks {
			s = append(s, k.name)
		}
		return strings.Join(s, ", ")
	}
	if len(n.extends) > 0 {
		words = append(words, "extends "+names(n.extends))
	}
	if len(n.implements) > 0 {
		words = append(words, "implements "+names(n.implements))
	}
	it.Detail = strings.Join(words, " ")
	return it
}

// typeAt returns the key of the container or interface named at offset.
func typeAt(a *core.Analysis, offset int, base string) (typeKey, bool) {
	_, sym := a.SymbolAt(offset)
	if sym == nil || (sym.Kind != check.SymContainer && sym.Kind != check.SymInterface) {
		return typeKey{}, false
	}
	return typeKey{homeOf(sym, base), sym.Name}, true
}

// PrepareTypeHierarchy returns the container or interface named at offset
// (where it is declared or used), or false.
func PrepareTypeHierarchy(a *core.Analysis, offset int, f Files) (TypeItem, bool) {
	k, ok := typeAt(a, offset, f.Base)
	if !ok {
		return TypeItem{}, false
	}
	n := typeGraphOf(a, f).nodes[k]
	if n == nil {
		return TypeItem{}, false
	}
	return n.item(), true
}

// Supertypes returns the types the container or interface named at offset
// extends or implements directly, in the order written.
func Supertypes(a *core.Analysis, offset int, f Files) []TypeItem {
	k, ok := typeAt(a, offset, f.Base)
	if !ok {
		return nil
	}
	return items(typeGraphOf(a, f).supertypes(k))
}

// Subtypes returns the containers and interfaces that extend or implement
// the one named at offset directly: the document's first, in order.
func Subtypes(a *core.Analysis, offset int, f Files) []TypeItem {
	k, ok := typeAt(a, offset, f.Base)
	if !ok {
		return nil
	}
	return items(typeGraphOf(a, f).subtypes(k))
}

func items(ns []*typeNode) []TypeItem {
	out := make([]TypeItem, len(ns))
	for i, n := range ns {
		out[i] = n.item()
	}
	return out
}
