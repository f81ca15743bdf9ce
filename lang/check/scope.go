package check

// This file is scopes and their symbol tables.

import (
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
}

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
