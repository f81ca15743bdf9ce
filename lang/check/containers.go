package check

// This file is containers (their members, inheritance cycles and property
// overrides) and the list references of pattern definitions.

import (
	"sort"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

func (a *analyzer) memberOf(c *Symbol, name string) *Symbol {
	seen := map[string]bool{}
	for c != nil && !seen[c.Name] {
		seen[c.Name] = true
		if m := c.Members[name]; m != nil {
			return m
		}
		c = a.info.Containers[c.Extends]
	}
	return nil
}

func (a *analyzer) containerDecl(s *ast.ContainerDecl) {
	if s.Name == nil {
		return
	}
	sym := a.newSym(s.Name, SymContainer, s, types.NewContainer(s.Name.Name), false)
	sym.Members = map[string]*Symbol{}
	if s.Doc != nil {
		sym.Doc = s.Doc.Text()
	}
	if s.Extends != nil {
		sym.Extends = s.Extends.Name
		if p := a.info.Containers[s.Extends.Name]; p != nil {
			a.use(s.Extends, p)
		}
	}
	for _, i := range s.Implements {
		if x := a.cur.Lookup(i.Name); x != nil {
			a.use(i, x)
		}
	}
	for _, m := range s.Members {
		switch m := m.(type) {
		case *ast.PropertyDecl:
			if m.Name == nil {
				continue
			}
			t := types.Unknown
			if m.Type != nil {
				t = typeFromExpr(m.Type)
			}
			p := a.newSym(m.Name, SymProperty, m, t, true)
			p.Parent = sym
			if m.Doc != nil {
				p.Doc = m.Doc.Text()
			}
			sym.Members[p.Name] = p
		case *ast.EventDecl:
			if m.Name == nil {
				continue
			}
			e := a.newSym(m.Name, SymEvent, m, nil, false)
			e.Parent = sym
			sym.Members[e.Name] = e
		}
	}
	a.info.Containers[sym.Name] = sym
	if a.cur.Symbols.Get(sym.Name) == nil {
		a.cur.put(sym)
	}
	for _, m := range s.Members {
		switch m := m.(type) {
		case *ast.PropertyDecl:
			a.expr(m.Default)
		case *ast.ActionDecl:
			if m.Name == nil {
				continue
			}
			ms := a.newSym(m.Name, SymMethod, m, nil, false)
			ms.Parent = sym
			ms.Actions = []*ast.ActionDecl{m}
			if m.Doc != nil {
				ms.Doc = m.Doc.Text()
			}
			sym.Members[ms.Name] = ms
			a.push(m)
			prevC, prevS := a.container, a.staticMethod
			a.container = sym
			a.staticMethod = 1
			if m.Static {
				a.staticMethod = 2
			}
			for _, p := range m.Params {
				if p != nil && p.Name != nil {
					a.declareReplace(p.Name, SymParameter, p, paramType(p), false)
				}
			}
			saved := a.aliases
			a.aliases = copyAliases(saved)
			a.block(m.Body)
			a.aliases = saved
			a.container, a.staticMethod = prevC, prevS
			a.pop()
		}
	}
}

// checkInheritance reports extends cycles, once per container on a cycle.
func (a *analyzer) checkInheritance() {
	for _, sym := range a.info.Symbols {
		if sym.Kind != SymContainer || a.info.Containers[sym.Name] != sym {
			continue
		}
		path := []string{sym.Name}
		seen := map[string]bool{sym.Name: true}
		for c := a.info.Containers[sym.Extends]; c != nil; c = a.info.Containers[c.Extends] {
			path = append(path, c.Name)
			if c.Name == sym.Name {
				a.errorAt(sym.Decl, "Cyclic container inheritance detected: "+strings.Join(path, " -> "))
				break
			}
			if seen[c.Name] {
				break
			}
			seen[c.Name] = true
		}
	}
	// Inherited property overrides with a different declared type.
	for _, sym := range a.info.Symbols {
		if sym.Kind != SymContainer || sym.Extends == "" {
			continue
		}
		parent := a.info.Containers[sym.Extends]
		for _, pn := range sortedNames(sym.Members) {
			p := sym.Members[pn]
			if p.Kind != SymProperty || p.Type.Kind == types.KUnknown || parent == nil {
				continue
			}
			if q := a.memberOf(parent, p.Name); q != nil && q.Kind == SymProperty && q.Type.Kind != types.KUnknown && !types.Identical(p.Type, q.Type) {
				a.warnAt(p.Decl, "Property '"+p.Name+"' in container '"+sym.Name+"' declares type "+p.Type.String()+" but inherited property from '"+sym.Extends+"' declares "+q.Type.String()+"; mutable inherited property overrides should keep the same contract")
			}
		}
	}
}

func (a *analyzer) pattern(n *ast.PatternNode, decl *ast.PatternDecl) {
	if n == nil {
		return
	}
	if n.Kind == ast.PatListRef && n.Name != nil {
		if sym := a.cur.Lookup(n.Name.Name); sym != nil {
			a.use(n.Name, sym)
		} else if !a.actionParams[n.Name.Name] {
			// The reference reports at the pattern definition.
			sp := token.Span{Start: decl.Pos(), End: decl.Pos()}
			if decl.Name != nil {
				sp.End = decl.Name.End()
			}
			a.errs = append(a.errs, diag.Diagnostic{Span: sp, Severity: diag.Error, Category: diag.Semantic, Code: codeSemantic,
				Message: "Undefined list reference '" + n.Name.Name + "' in pattern",
				Related: []diag.Related{{Span: a.span(n.Name), Message: "the list reference"}}})
		}
	}
	for _, c := range n.Children {
		a.pattern(c, decl)
	}
}

// sortedNames returns the keys of m in order, for deterministic output.
func sortedNames(m map[string]*Symbol) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// tableNames returns the names of t, sorted.
func tableNames(t *SymbolTable) []string {
	out := make([]string, 0, t.Len())
	for k := range t.All() {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
