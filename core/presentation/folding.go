package presentation

// This file answers folding ranges: every block (an action's body, each
// branch of a check, a loop's body, a try's clauses, a container, a list or
// map literal block, describe and test bodies …) folds from its header line
// to the line before its closer, and runs of comment lines fold too.

import (
	"sort"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
)

// A FoldingRange is a region that folds. Start is on the header line (just
// after the header); End is the end of the region's last line, so the closer
// (`end …`, `otherwise`, …) stays visible.
type FoldingRange struct {
	Start, End int
	Comment    bool // a run of comment lines
}

// FoldingRanges returns the document's folding ranges, by start offset.
func FoldingRanges(a *core.Syntax) []FoldingRange {
	if a.File == nil || a.Lines == nil {
		return nil
	}
	var out []FoldingRange
	add := func(start, closer int, comment bool) {
		first := a.Lines.Line(start)
		last := a.Lines.Line(closer)
		if !comment && closer == a.Lines.LineStart(last) {
			last-- // the line before the closer; a body the layout ended ends on its last line
		}
		if last <= first {
			return
		}
		out = append(out, FoldingRange{Start: start, End: a.Lines.LineEnd(last), Comment: comment})
	}
	// A block folds from its header: the line where the sibling before it
	// ends (the condition of a check, the last parameter of an action, the
	// then-block whose closer is `otherwise`), or its parent's first line.
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		switch n.(type) {
		case *ast.ContainerDecl, *ast.InterfaceDecl, *ast.CreateListStmt, *ast.CreateMapStmt,
			*ast.NewStmt, *ast.PatternDecl:
			// Bodies that are not Blocks: fold from the header to the `end` line.
			add(a.Lines.LineEnd(a.Lines.Line(n.Pos())), lastLineStart(a, n.End()), false)
		case ast.Expr:
			return
		}
		header := n.Pos()
		ast.Children(n, func(c ast.Node) {
			if b, ok := c.(*ast.Block); ok && b.End() >= header {
				add(a.Lines.LineEnd(a.Lines.Line(header)), b.End(), false)
			}
			if c.End() > header {
				header = c.End()
			}
			visit(c)
		})
	}
	visit(a.File)
	for _, g := range a.File.Comments {
		if g != nil && len(g.List) > 1 {
			add(g.Pos(), g.End(), true)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// lastLineStart returns the start of the line that holds the node's last
// byte (end is one past it).
func lastLineStart(a *core.Syntax, end int) int {
	if end > 0 {
		end--
	}
	return a.Lines.LineStart(a.Lines.Line(end))
}
