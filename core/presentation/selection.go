package presentation

// This file answers selection ranges ("expand selection"): from the word at
// a position outwards through every enclosing expression, statement and
// block to the whole document.

import (
	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// SelectionRange returns the spans that enclose offset, innermost first, each
// strictly containing the one before.
func SelectionRange(a *core.Syntax, offset int) []token.Span {
	if a.File == nil {
		return nil
	}
	var chain []token.Span
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		chain = append(chain, core.NodeSpan(n))
		var next ast.Node
		ast.Children(n, func(c ast.Node) {
			if next == nil && c.Pos() <= offset && offset <= c.End() && c.End() > c.Pos() {
				// Prefer a child that contains offset strictly; one that merely
				// ends at offset is taken only if nothing else does.
				if offset < c.End() {
					next = c
				}
			}
		})
		if next == nil {
			ast.Children(n, func(c ast.Node) {
				if next == nil && c.Pos() <= offset && offset == c.End() && c.End() > c.Pos() {
					next = c
				}
			})
		}
		if next != nil {
			visit(next)
		}
	}
	visit(a.File)
	// Innermost first, without repeats; the line of a statement is no help,
	// the tree's nesting is.
	out := make([]token.Span, 0, len(chain))
	for i := len(chain) - 1; i >= 0; i-- {
		s := chain[i]
		if len(out) > 0 {
			prev := out[len(out)-1]
			if s == prev || !(s.Start <= prev.Start && prev.End <= s.End) {
				continue
			}
		}
		out = append(out, s)
	}
	return out
}
