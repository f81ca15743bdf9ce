package parser

// This file groups comments and attaches doc comments.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// groupComments turns comment spans into groups: comments on consecutive
// lines with only white space before them (a comment after code starts a
// group of its own).
func groupComments(src string, spans []token.Span) []*ast.CommentGroup {
	var groups []*ast.CommentGroup
	var cur *ast.CommentGroup
	for _, s := range spans {
		c := &ast.Comment{Range: ast.Range{From: s.Start, To: s.End}, Text: src[s.Start:s.End]}
		alone := onlySpaceBefore(src, s.Start)
		if cur != nil && alone && onlySpaceBefore(src, cur.List[0].From) && linesBetween(src, cur.To, s.Start) == 1 {
			cur.List = append(cur.List, c)
			cur.To = s.End
			continue
		}
		cur = &ast.CommentGroup{Range: c.Range, List: []*ast.Comment{c}}
		groups = append(groups, cur)
	}
	return groups
}

func onlySpaceBefore(src string, off int) bool {
	for i := off - 1; i >= 0; i-- {
		switch src[i] {
		case ' ', '\t', '\f':
			continue
		case '\n', '\r':
			return true
		}
		return false
	}
	return true
}

// linesBetween counts the line breaks in src[from:to].
func linesBetween(src string, from, to int) int {
	n := 0
	for i := from; i < to && i < len(src); i++ {
		switch src[i] {
		case '\n':
			n++
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			n++
		default:
			if src[i] != ' ' && src[i] != '\t' && src[i] != '\f' {
				return -1
			}
		}
	}
	return n
}

// attachDocs sets the Doc field of top-level declarations and container
// members that a comment group ends directly above (on the previous line, on
// lines of its own).
func attachDocs(src string, f *ast.File) {
	if len(f.Comments) == 0 {
		return
	}
	byEnd := map[int]*ast.CommentGroup{}
	for _, g := range f.Comments {
		if onlySpaceBefore(src, g.From) {
			byEnd[g.To] = g
		}
	}
	docFor := func(pos int) *ast.CommentGroup {
		// Walk back over the white space and one line break before pos.
		i := pos - 1
		for i >= 0 && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f') {
			i--
		}
		if i < 0 || (src[i] != '\n' && src[i] != '\r') {
			return nil
		}
		if src[i] == '\n' && i > 0 && src[i-1] == '\r' {
			i--
		}
		return byEnd[i]
	}
	var attach func(stmts []ast.Stmt)
	attach = func(stmts []ast.Stmt) {
		for _, st := range stmts {
			switch d := st.(type) {
			case *ast.ActionDecl:
				d.Doc = docFor(d.From)
			case *ast.ContainerDecl:
				d.Doc = docFor(d.From)
				attach(d.Members)
			case *ast.InterfaceDecl:
				d.Doc = docFor(d.From)
			case *ast.PatternDecl:
				d.Doc = docFor(d.From)
			case *ast.PropertyDecl:
				d.Doc = docFor(d.From)
			case *ast.VarDecl:
				d.Doc = docFor(d.From)
			}
		}
	}
	// Declarations documented by comments live at the top level and in
	// container bodies; statement bodies are not searched.
	attach(f.Stmts)
}
