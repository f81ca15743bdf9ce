package check

// This file is scopes and their symbol tables.

import (
	"iter"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// A Scope is a region of the program where declared names are visible. Note
// that WFL requires declaration before use: a symbol in Symbols is visible
// only after its Decl (callers offering completion filter by Decl.Start).
type Scope struct {
	Parent   *Scope
	Node     ast.Node // the node that opened the scope (*ast.File, *ast.Block, *ast.ActionDecl, …), nil for the universe
	Span     token.Span
	Symbols  SymbolTable // the names declared in this scope
	Children []*Scope

	ext *scopeExt // nil while none of its fields is set
}

// scopeExt holds the fields of a [Scope] that few scopes set (an open
// document keeps a scope for every block it holds).
type scopeExt struct {
	injected  *SymbolTable
	container *Symbol
	outer     func(name string, bound bool) *Symbol
}

func (s *Scope) edit() *scopeExt {
	if s.ext == nil {
		s.ext = new(scopeExt)
	}
	return s.ext
}

// Injected returns the names the runtime binds in this scope that the
// reference's analyzer keeps out of its scopes (it exempts them from its
// checks by other means, such as a websocket handler's `id` and `body`):
// they resolve ([Scope.Resolve]) but never clash with a declaration
// ([Scope.Lookup] does not see them). Nil while none.
func (s *Scope) Injected() *SymbolTable {
	if s.ext == nil {
		return nil
	}
	return s.ext.injected
}

// Container returns, on the scope of a container's method, the container
// whose properties the method sees as plain names, right after its own
// names and before the names of outer scopes (the runtime binds each
// property in the method's environment); else nil.
func (s *Scope) Container() *Symbol {
	if s.ext == nil {
		return nil
	}
	return s.ext.container
}

func (s *Scope) setContainer(c *Symbol) { s.edit().container = c }

// Outer returns the function set by [Scope.SetOuter], or nil.
func (s *Scope) Outer() func(name string, bound bool) *Symbol {
	if s.ext == nil {
		return nil
	}
	return s.ext.outer
}

// SetOuter gives a file scope, for a caller that checked only some of a
// file's statements (core's partial analyses), the symbol the rest of the
// file declares (bound false) or binds (bound true) under a name, or nil.
// [Scope.Lookup] sees what it declares right after the scope's own
// Symbols, [Scope.Resolve] each kind right after the scope's own table of
// that kind. The checker never sets it.
func (s *Scope) SetOuter(f func(name string, bound bool) *Symbol) { s.edit().outer = f }

// A SymbolTable maps the names of one scope to their symbols. Most scopes
// declare a handful of names (a loop variable, an action's parameters): a
// small table is a slice searched in order, a large one a map, so that an
// open document does not keep a hash table per block.
type SymbolTable struct {
	small []tableEntry       // while there are at most smallTable names
	large map[string]*Symbol // beyond
}

type tableEntry struct {
	name string
	sym  *Symbol
}

const smallTable = 8

// Lookup finds the declaration of name in s or its parents, or returns nil.
// It sees what the reference's analyzer holds in its scopes, which decides
// redeclarations and mutability; [Scope.Resolve] is what a name means.
func (s *Scope) Lookup(name string) *Symbol {
	for ; s != nil; s = s.Parent {
		if sym := s.declared(name); sym != nil {
			return sym
		}
	}
	return nil
}

// declared returns what declares name in s itself: its own symbols, then
// the declarations of its Outer; or nil.
func (s *Scope) declared(name string) *Symbol {
	if sym := s.Symbols.Get(name); sym != nil {
		return sym
	}
	if outer := s.Outer(); outer != nil {
		return outer(name, false)
	}
	return nil
}

func (s *Scope) put(sym *Symbol) { s.putAs(sym.Name, sym) }

func (s *Scope) putAs(name string, sym *Symbol) { s.Symbols.set(name, sym) }

// inject binds name to sym among the names the runtime binds in s.
func (s *Scope) inject(name string, sym *Symbol) {
	e := s.edit()
	if e.injected == nil {
		e.injected = &SymbolTable{}
	}
	e.injected.set(name, sym)
}

// Get returns the symbol named name, or nil. A nil table is empty.
func (t *SymbolTable) Get(name string) *Symbol {
	if t == nil {
		return nil
	}
	if t.large != nil {
		return t.large[name]
	}
	for i := range t.small {
		if t.small[i].name == name {
			return t.small[i].sym
		}
	}
	return nil
}

// Len returns the number of names in the table.
func (t *SymbolTable) Len() int {
	if t == nil {
		return 0
	}
	if t.large != nil {
		return len(t.large)
	}
	return len(t.small)
}

// All iterates over the names and their symbols, in no particular order.
func (t *SymbolTable) All() iter.Seq2[string, *Symbol] {
	return func(yield func(string, *Symbol) bool) {
		if t == nil {
			return
		}
		if t.large != nil {
			for n, s := range t.large {
				if !yield(n, s) {
					return
				}
			}
			return
		}
		for _, e := range t.small {
			if !yield(e.name, e.sym) {
				return
			}
		}
	}
}

// set binds name to sym, replacing an earlier binding of name.
func (t *SymbolTable) set(name string, sym *Symbol) {
	if t.large != nil {
		t.large[name] = sym
		return
	}
	for i := range t.small {
		if t.small[i].name == name {
			t.small[i].sym = sym
			return
		}
	}
	if len(t.small) < smallTable {
		t.small = append(t.small, tableEntry{name, sym})
		return
	}
	t.large = make(map[string]*Symbol, 2*smallTable)
	for _, e := range t.small {
		t.large[e.name] = e.sym
	}
	t.large[name] = sym
	t.small = nil
}

// toMap returns a new map of the table's bindings.
func (t *SymbolTable) toMap() map[string]*Symbol {
	m := make(map[string]*Symbol, t.Len())
	for n, s := range t.All() {
		m[n] = s
	}
	return m
}

// Innermost returns the innermost scope under s whose span contains offset.
func (s *Scope) Innermost(offset int) *Scope {
	for _, c := range s.Children {
		if c.Span.Start <= offset && offset <= c.Span.End {
			return c.Innermost(offset)
		}
	}
	return s
}

// Resolve returns the symbol name denotes in s: the innermost declaration
// or injected name, where the scope of a container's method sees the
// container's properties (its own and inherited ones) after its own names.
// It returns nil for a name that is not bound (builtins included: see
// lang/builtins).
func (s *Scope) Resolve(name string) *Symbol {
	for ; s != nil; s = s.Parent {
		if sym := s.declared(name); sym != nil {
			return sym
		}
		if sym := s.Injected().Get(name); sym != nil {
			return sym
		}
		if outer := s.Outer(); outer != nil {
			if sym := outer(name, true); sym != nil {
				return sym
			}
		}
		if s.Container() != nil {
			if p := s.property(name); p != nil {
				return p
			}
		}
	}
	return nil
}

// property returns the property name of the container of a method's scope
// that the method sees: an instance method sees instance properties, a
// static method static ones.
func (s *Scope) property(name string) *Symbol {
	static := false
	if d, ok := s.Node.(*ast.ActionDecl); ok {
		static = d.Static
	}
	for c, n := s.Container(), 0; c != nil && n < maxBases; c, n = c.Base(), n+1 {
		m := c.Members()[name]
		if m == nil || m.Kind != SymProperty {
			continue
		}
		if p, ok := m.Node.(*ast.PropertyDecl); !ok || p.Static == static {
			return m
		}
	}
	return nil
}

// maxBases bounds the walks up a chain of containers (which a program may
// make cyclic).
const maxBases = 64
