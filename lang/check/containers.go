package check

// This file is containers (their members, inheritance cycles and property
// overrides) and the list references of pattern definitions.

import (
	"iter"
	"sort"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

func (a *analyzer) memberOf(c *Symbol, name string) *Symbol {
	for c := range a.info.lineage(c) {
		if m := c.Members()[name]; m != nil {
			return m
		}
	}
	return nil
}

// lineage yields c and the containers it extends, by name, in order, and
// stops at one not declared. A cycle is followed round no more often than
// there are containers: a walk that looks for the first container that
// has something finds what it would have found going round once, without
// a set of the containers seen (which, made at each walk, made a chain of
// a few thousand containers cost seconds).
func (info *Info) lineage(c *Symbol) iter.Seq[*Symbol] {
	return func(yield func(*Symbol) bool) {
		for n := 0; c != nil && n <= len(info.Containers); n++ {
			if !yield(c) {
				return
			}
			c = info.Containers[c.Extends()]
		}
	}
}

func (a *analyzer) containerDecl(s *ast.ContainerDecl) {
	if s.Name == nil {
		return
	}
	sym := a.newSym(s.Name, SymContainer, s, types.NewContainer(s.Name.Name), false)
	// A new symbol: its rare fields are set at once, in one struct (each
	// setter would make a copy of it).
	e := sym.own()
	e.members = map[string]*Symbol{}
	if s.Doc != nil {
		e.doc = s.Doc.Text()
	}
	if s.Extends != nil {
		// A parent declared later is resolved when the walk ends (see finish).
		e.extends = s.Extends.Name
		e.base = a.info.Containers[s.Extends.Name]
		a.use(s.Extends, e.base)
	}
	for _, i := range s.Implements {
		a.resolveUse(i) // the type checker reports an interface that is not found
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
			a.typeRef(m.Type)
			p := a.newSym(m.Name, SymProperty, m, t, true)
			p.Parent = sym
			if m.Doc != nil {
				p.setDoc(m.Doc.Text())
			}
			sym.Members()[p.Name] = p
		case *ast.EventDecl:
			if m.Name == nil {
				continue
			}
			e := a.newSym(m.Name, SymEvent, m, nil, false)
			e.Parent = sym
			sym.Members()[e.Name] = e
			a.params(m.Params)
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
			ms.addAction(m)
			if m.Doc != nil {
				ms.setDoc(m.Doc.Text())
			}
			sym.Members()[ms.Name] = ms
			a.push(m).setContainer(sym)
			prevC, prevS := a.container, a.staticMethod
			a.container = sym
			a.staticMethod = 1
			if m.Static {
				a.staticMethod = 2
			}
			for _, p := range m.Params {
				if p != nil && p.Name != nil {
					a.expr(p.Default)
					a.typeRef(p.Type)
					a.declareReplace(p.Name, SymParameter, p, paramType(p), false)
				}
			}
			a.body(m.ReturnType, m.Body)
			a.container, a.staticMethod = prevC, prevS
			a.pop()
		}
	}
}

// checkInheritance reports extends cycles, once per container on a cycle.
func (a *analyzer) checkInheritance() {
	cyclic := a.cyclicContainers()
	for _, sym := range a.info.Symbols {
		if sym.Kind != SymContainer || a.info.Containers[sym.Name] != sym {
			continue
		}
		if !cyclic[sym] {
			continue
		}
		path := []string{sym.Name}
		for c := a.info.Containers[sym.Extends()]; ; c = a.info.Containers[c.Extends()] {
			path = append(path, c.Name)
			if c == sym {
				break
			}
		}
		a.errorAt(sym.Decl, "Cyclic container inheritance detected: "+strings.Join(path, " -> "))
	}
	// Inherited property overrides with a different declared type.
	for _, sym := range a.info.Symbols {
		if sym.Kind != SymContainer || sym.Extends() == "" {
			continue
		}
		parent := a.info.Containers[sym.Extends()]
		for _, pn := range sortedNames(sym.Members()) {
			p := sym.Members()[pn]
			if p.Kind != SymProperty || p.Type.Kind == types.KUnknown || parent == nil {
				continue
			}
			if q := a.memberOf(parent, p.Name); q != nil && q.Kind == SymProperty && q.Type.Kind != types.KUnknown && !types.Identical(p.Type, q.Type) {
				a.warnAt(p.Decl, "Property '"+p.Name+"' in container '"+sym.Name+"' declares type "+p.Type.String()+" but inherited property from '"+sym.Extends()+"' declares "+q.Type.String()+"; mutable inherited property overrides should keep the same contract", p.Name, sym.Name, sym.Extends())
			}
		}
	}
}

// cyclicContainers returns the containers that extend themselves, through
// others or directly: each is reported with its cycle. Each container's
// walk up its parents stops at one whose walk is known (one state a
// container), so all of them cost as much as the containers.
func (a *analyzer) cyclicContainers() map[*Symbol]bool {
	const (
		unknown = iota
		walking // on the walk being made
		done
	)
	state := map[*Symbol]int{}
	var cyclic map[*Symbol]bool
	for _, sym := range a.info.Containers {
		var path []*Symbol
		c := sym
		for c != nil && state[c] == unknown {
			state[c] = walking
			path = append(path, c)
			c = a.info.Containers[c.Extends()]
		}
		if c != nil && state[c] == walking {
			// The walk came back to c: c and the containers after it on
			// the path are a cycle.
			if cyclic == nil {
				cyclic = map[*Symbol]bool{}
			}
			for i := len(path) - 1; ; i-- {
				cyclic[path[i]] = true
				if path[i] == c {
					break
				}
			}
		}
		for _, p := range path {
			state[p] = done
		}
	}
	return cyclic
}

// pattern resolves the list references of a pattern definition's body
// and declares its capture groups; sym is the pattern's symbol, or nil.
func (a *analyzer) pattern(n *ast.PatternNode, decl *ast.PatternDecl, sym *Symbol) {
	if n == nil {
		return
	}
	if n.Kind == ast.PatCapture && n.Name != nil {
		c := a.newSym(n.Name, SymCapture, n, types.Text, false)
		c.Parent = sym
	}
	if n.Kind == ast.PatListRef && n.Name != nil && a.listRef(n.Name) == nil {
		if a.actionParams[n.Name.Name] {
			a.warnOf(a.span(n.Name), diag.UndefinedListRef, "Undefined list reference '"+n.Name.Name+"' in pattern", n.Name.Name) // exempt by the reference, unbound all the same
		} else {
			// The reference reports at the pattern definition.
			sp := token.Span{Start: decl.Pos(), End: decl.Pos()}
			if decl.Name != nil {
				sp.End = decl.Name.End()
			}
			a.errs = append(a.errs, diag.Diagnostic{Span: sp, Severity: diag.Error, Category: diag.Semantic, Code: codeSemantic,
				Kind: diag.UndefinedListRef, Names: []string{n.Name.Name}, Message: "Undefined list reference '" + n.Name.Name + "' in pattern",
				Related: []diag.Related{{Span: a.span(n.Name), Message: "the list reference"}}})
		}
	}
	for _, c := range n.Children {
		a.pattern(c, decl, sym)
	}
}

// listRef resolves the list a pattern refers to (builtins are not lists).
func (a *analyzer) listRef(id *ast.Ident) *Symbol {
	sym := a.cur.Resolve(id.Name)
	a.use(id, sym)
	return sym
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

// interfaceActions declares the actions an interface requires, as members
// of the interface.
func (a *analyzer) interfaceActions(s *ast.InterfaceDecl, iface *Symbol) {
	for _, sig := range s.Actions {
		if sig == nil {
			continue
		}
		a.params(sig.Params)
		a.typeRef(sig.ReturnType)
		if sig.Name == nil {
			continue
		}
		m := a.newSym(sig.Name, SymMethod, sig, nil, false)
		m.Parent = iface
		if iface == nil {
			continue
		}
		if iface.Members() == nil {
			iface.SetMembers(map[string]*Symbol{})
		}
		if iface.Members()[m.Name] == nil {
			iface.Members()[m.Name] = m
		}
	}
}

// finish resolves what only the whole file tells: the variables declared on
// every path of a branching statement, the parents of containers declared
// before them, the names of named arguments, and the names of types (a
// container may be named in a type before it is declared).
func (a *analyzer) finish() {
	a.unmerge()
	for _, n := range a.named {
		a.resolveNamedArgs(n)
	}
	for _, t := range a.typeRefs {
		a.resolveType(t)
	}
	for _, sym := range a.info.Symbols {
		if sym.Kind != SymContainer || sym.Extends() == "" || sym.Base() != nil {
			continue
		}
		sym.SetBase(a.info.Containers[sym.Extends()])
		if sym.Base() == nil {
			sym.SetBase(a.imported(sym.Extends(), SymContainer)) // for names; the checks do not see it
		}
		if d, ok := sym.Node.(*ast.ContainerDecl); ok && d.Extends != nil {
			a.use(d.Extends, sym.Base())
		}
	}
}

// typeRef records the written type t (and the types in it) for finish.
func (a *analyzer) typeRef(t *ast.TypeExpr) {
	if t == nil {
		return
	}
	a.typeRefs = append(a.typeRefs, t)
	for _, x := range t.Args {
		a.typeRef(x)
	}
}

// resolveType resolves the name of a written type: a type WFL defines, a
// container or an interface of the file. The reference accepts any name
// there (as a custom type it never checks), so one that names nothing is
// a warning.
func (a *analyzer) resolveType(t *ast.TypeExpr) {
	id := t.Ident
	if id == nil {
		return
	}
	if sym := typeNames[strings.ToLower(id.Name)]; sym != nil {
		a.use(id, sym)
		return
	}
	if c := a.info.Containers[id.Name]; c != nil {
		a.use(id, c)
		return
	}
	if i := a.global.Resolve(id.Name); i != nil && (i.Kind == SymInterface || i.Kind == SymContainer && i.From() != "") {
		a.use(id, i)
		return
	}
	a.warnOf(a.span(id), diag.UndefinedType, "Type '"+id.Name+"' is not defined: no container, interface or type of WFL has this name", id.Name)
}

// typeNames are the types WFL defines, by their lower-case spelling: the
// primitive types, the structured ones written `list of …`, and the types
// of the handles statements make.
var typeNames = func() map[string]*Symbol {
	m := map[string]*Symbol{}
	add := func(name string, t *types.Type) {
		m[strings.ToLower(name)] = &Symbol{Name: name, Kind: SymType, Type: t}
	}
	for _, n := range []string{"Number", "Text", "Boolean", "Nothing", "Pattern", "Any", "Date", "Time", "Binary"} {
		add(n, types.FromAnnotation(n))
	}
	add("DateTime", types.DateTime)
	add("List", types.NewList(types.Any))
	add("Map", types.NewMap(types.Any, types.Any))
	add("Optional", types.NewOptional(types.Any))
	for _, n := range []string{"Request", "File", "Database", "HttpStream", "ResponseStream"} {
		add(n, types.NewCustom(n))
	}
	return m
}()
