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
	if len(spans) == 0 {
		return nil
	}
	// joins reports whether the comment at spans[i] joins the group of the
	// one before it, whose group starts at spans[first].
	joins := func(i, first int) bool {
		return i > 0 && onlySpaceBefore(src, spans[i].Start) && onlySpaceBefore(src, spans[first].Start) &&
			linesBetween(src, spans[i-1].End, spans[i].Start) == 1
	}
	n := 0 // groups
	for i, first := 0, 0; i < len(spans); i++ {
		if !joins(i, first) {
			n++
			first = i
		}
	}
	// The comments, the groups and their lists in one allocation each.
	comments := make([]ast.Comment, len(spans))
	list := make([]*ast.Comment, len(spans))
	gs := make([]ast.CommentGroup, n)
	groups := make([]*ast.CommentGroup, n)
	var cur *ast.CommentGroup
	first, k := 0, 0 // index of cur's first comment; of the next group
	for i, s := range spans {
		c := &comments[i]
		*c = ast.Comment{Range: ast.Range{From: s.Start, To: s.End}, Text: src[s.Start:s.End]}
		list[i] = c
		if cur != nil && joins(i, first) {
			cur.List = list[first : i+1 : i+1]
			cur.To = s.End
			continue
		}
		first = i
		cur = &gs[k]
		*cur = ast.CommentGroup{Range: c.Range, List: list[i : i+1 : i+1]}
		groups[k] = cur
		k++
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
