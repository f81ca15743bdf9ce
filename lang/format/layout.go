package format

// This file computes the canonical indentation depth of every line from the
// syntax tree. The linter's LINT-INDENT rule uses the same computation, so
// the formatter's output never draws an indentation finding.

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// Verbatim marks a line in the result of [LineDepths] that must be left
// exactly as it is: it starts inside a string literal that spans lines.
const Verbatim = -1

// LineDepths returns the block depth of each line of src (0-based line
// index) as the formatter indents it, or [Verbatim]. Blank lines get the
// depth of the position they are at, which is of no consequence.
//
// A line is one level deeper for each statement body that holds its first
// character: a [ast.Block], or the lines between the header and the closing
// `end` of the blockless compounds (containers, interfaces, `create new`,
// lists, maps, patterns, and a route's arms). A statement that continues on
// further lines (outside any body of its own) indents them one more level.
func LineDepths(f *ast.File, src string, lines *token.Lines) []int {
	n := lines.Count()
	first := make([]int, n) // offset of the first non-blank byte, or -1
	for i := range n {
		first[i] = -1
		for o := lines.LineStart(i); o < lines.LineEnd(i); o++ {
			if c := src[o]; c != ' ' && c != '\t' && c != '\f' {
				first[i] = o
				break
			}
		}
	}
	diff := make([]int, n+1)
	// add marks the lines whose first character lies in [from, to).
	add := func(from, to int) {
		if from >= to {
			return
		}
		lo := lines.Line(from)
		if first[lo] < from {
			lo++
		}
		hi := lines.Line(to)
		if hi >= n {
			hi = n - 1
		}
		if hi >= 0 && (first[hi] < 0 || first[hi] >= to) {
			hi--
		}
		if lo > hi {
			return
		}
		diff[lo]++
		diff[hi+1]--
	}
	verbatim := make([]bool, n)
	ast.Inspect(f, func(node ast.Node) bool {
		switch x := node.(type) {
		case nil:
			return false
		case *ast.Block:
			add(bodyStart(x.From, src, lines, first), x.To)
		case *ast.BasicLit, *ast.PatternNode:
			// A string literal, or a literal in a pattern body, that spans
			// lines: its later lines are part of its value.
			str := false
			switch x := x.(type) {
			case *ast.BasicLit:
				str = x.Kind == ast.LitString
			case *ast.PatternNode:
				str = x.Kind == ast.PatLiteral && x.From < len(src) && src[x.From] == '"'
			}
			if str {
				for l := lines.Line(x.Pos()) + 1; l < n && lines.LineStart(l) < x.End(); l++ {
					verbatim[l] = true
				}
			}
		case *ast.ContainerDecl, *ast.InterfaceDecl, *ast.NewStmt, *ast.CreateListStmt,
			*ast.CreateMapStmt, *ast.PatternDecl, *ast.RouteStmt:
			from, to := x.Pos(), x.End()
			head, last := lines.Line(from), lines.Line(to-1)
			if last > head {
				end := to
				if o := first[last]; o >= 0 && startsWord(src[o:], "end") {
					end = o
				}
				add(lines.LineStart(head+1), end)
			}
		case ast.Stmt:
			if !compound(x) {
				from, to := x.Pos(), x.End()
				if head := lines.Line(from); lines.Line(to) > head {
					add(lines.LineStart(head+1), to)
				}
			}
		}
		return true
	})
	depths := make([]int, n)
	d := 0
	for i := range n {
		d += diff[i]
		depths[i] = d
		if verbatim[i] {
			depths[i] = Verbatim
		}
	}
	return depths
}

// bodyStart moves the start of a block back over the comment-only and
// blank lines above it: the parser may start a block at its first
// statement, but comments between the header and that statement belong to
// the body.
func bodyStart(from int, src string, lines *token.Lines, first []int) int {
	l := lines.Line(from)
	if first[l] >= 0 && first[l] < from {
		return from // the block starts after code on its line (the header's `:`)
	}
	for l > 0 {
		o := first[l-1]
		if o >= 0 && !strings.HasPrefix(src[o:], "//") && src[o] != '#' {
			break
		}
		l--
	}
	return min(from, lines.LineStart(l))
}

// compound reports whether a statement has a body of its own (so its later
// lines are body, clause or closer lines rather than continuation lines).
func compound(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.IfStmt, *ast.SingleIfStmt, *ast.RouteStmt, *ast.CountStmt, *ast.ForEachStmt,
		*ast.RepeatStmt, *ast.MainLoopStmt, *ast.ActionDecl, *ast.TryStmt,
		*ast.CreateListStmt, *ast.CreateMapStmt, *ast.ContainerDecl, *ast.InterfaceDecl,
		*ast.NewStmt, *ast.PatternDecl, *ast.WebSocketHandlerStmt, *ast.TransactionStmt,
		*ast.DescribeStmt, *ast.HookStmt, *ast.TestStmt, *ast.Block:
		return true
	case *ast.WaitForStmt:
		// The inner statement is visited on its own and indents its own
		// continuation lines.
		return true
	case *ast.BadStmt:
		return true // broken text: no layout to infer
	}
	return false
}

// startsWord reports whether s begins with the word w followed by a
// non-word byte or the end of s.
func startsWord(s, w string) bool {
	if len(s) < len(w) || s[:len(w)] != w {
		return false
	}
	if len(s) == len(w) {
		return true
	}
	c := s[len(w)]
	return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')
}
